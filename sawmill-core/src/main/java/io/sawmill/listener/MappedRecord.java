package io.sawmill.listener;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.mapping.RedisWrite;

/** One polled record and the Redis writes it maps to, in order. */
record MappedRecord(ConsumerRecord<byte[], byte[]> record, List<RedisWrite> writes) {
}
