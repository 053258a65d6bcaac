package io.sawmill.listener;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.mapping.RedisWrite;

/**
 * One polled record and the Redis writes it maps to, in order.
 * @param idempotent whether every one of its writes may be repeated ({@link RedisWrite#idempotent()}),
 *     decided once here: a batch asks it of every record when it is sent and again when it finishes
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
