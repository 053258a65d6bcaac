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
package io.sawmill.listener.internal;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.mapping.RedisWrite;

/**
 * One polled record and the Redis writes it maps to, in order.
 *
 * @param idempotent whether every one of its writes may be repeated
 * ({@link RedisWrite#idempotent()}), decided once here: a batch asks it of every record
 * when it is sent and again when it finishes
 */
record MappedRecord(ConsumerRecord<byte[], byte[]> record, List<RedisWrite> writes, boolean idempotent) {

	MappedRecord(ConsumerRecord<byte[], byte[]> record, List<RedisWrite> writes) {
		this(record, writes, idempotent(writes));
	}

	private static boolean idempotent(List<RedisWrite> writes) {
		for (RedisWrite write : writes) {
			if (!write.idempotent()) {
				return false;
			}
		}
		return true;
	}
}
