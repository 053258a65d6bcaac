/*
 * Copyright 2026 the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.sawmill.mapping;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Turns one Kafka record into the Redis writes that apply it.
 * <p>
 * Called from a listener thread, once per record, in offset order within a partition; an
 * implementation shared by several listener threads ({@code sawmill.concurrency > 1})
 * must be thread-safe. Returning an empty list means "nothing to write": the record is
 * committed like the others and counted as {@code skipped}. Throwing
 * {@link RecordMappingException} marks the record invalid: it is not written, it is
 * logged with its topic, partition and offset and counted, and the rest of the batch
 * proceeds. Throwing {@link MappingUnavailableException} (something the mapping needs
 * cannot be reached) fails the whole batch instead: nothing of it is committed, and it is
 * polled again after a backoff.
 * <p>
 * Delivery is at-least-once: the writes of a record may be applied more than once (a
 * batch polled again after a failure, a restart or rebalance before its commit). Return
 * idempotent writes when you can; a batch holding a write that is not
 * ({@link RedisWrite#idempotent()}: {@code INCR}, {@code HINCRBY}, {@code LPUSH},
 * {@code XADD}, …) is never retried record by record, it is polled again whole, so each
 * of its records is applied at least once and possibly more than once.
 */
@FunctionalInterface
public interface RecordMapper {

	/**
	 * @param record the record as polled: key and value are the raw bytes, the value is
	 * {@code null} for a tombstone
	 * @return the writes for this record, in the order they must be applied; never
	 * {@code null}
	 * @throws RecordMappingException when the record cannot be mapped (its reason is
	 * logged)
	 * @throws MappingUnavailableException when the record cannot be mapped now, but may
	 * be later
	 */
	List<RedisWrite> map(ConsumerRecord<byte[], byte[]> record) throws RecordMappingException;

	/**
	 * Whether the state this mapper's writes leave in Redis is the same whatever order
	 * the records are applied in, as when every write is version-guarded
	 * ({@link VersionGuard}), adds to a set, or deletes. A share group
	 * ({@code sawmill.consumption.mode=share}) hands the records of one key to several
	 * consumers at once, so it starts only with a mapper that returns {@code true}. The
	 * default is {@code false}: most writes (a plain {@code HSET}, {@code SET},
	 * {@code LPUSH}, {@code INCR} of a value) leave the last record applied, which is
	 * then not the newest.
	 */
	default boolean orderIndependent() {
		return false;
	}

}
