package io.sawmill.deadletter;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A record that cannot be written to Redis, with why.
 * @param record the record as polled
 * @param reason a sentence for operators, e.g. "key field 'userId' is missing, null or empty"
 * @param cause the mapping exception or the Redis error reply
 */
public record DeadLetter(ConsumerRecord<byte[], byte[]> record, String reason, Throwable cause) {
}
