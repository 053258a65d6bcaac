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
package io.sawmill.deadletter;

import org.jspecify.annotations.Nullable;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A record that cannot be written to Redis, with why.
 *
 * @param record the record as polled
 * @param reason a sentence for operators, e.g. "key field 'userId' is missing, null or
 * empty"
 * @param cause the mapping exception or the Redis error reply; null when there is none
 * (e.g. a record too large to write)
 */
public record DeadLetter(ConsumerRecord<byte[], byte[]> record, String reason, @Nullable Throwable cause) {
}
