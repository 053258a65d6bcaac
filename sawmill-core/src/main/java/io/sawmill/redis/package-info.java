/**
 * The writer's API: {@link io.sawmill.redis.RedisBatchWriter} writes a batch's commands in
 * pipelined round trips, {@link io.sawmill.redis.TransactionalBatchWriter} also sends transactions
 * and reads, and {@link io.sawmill.redis.FailureClass} tells which failures can succeed when sent
 * again.
 */
@NullMarked
package io.sawmill.redis;

import org.jspecify.annotations.NullMarked;
