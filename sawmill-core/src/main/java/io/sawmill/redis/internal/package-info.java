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
/**
 * The writer: {@link io.sawmill.redis.internal.RedisBatchWriter} writes a batch's
 * commands in pipelined round trips,
 * {@link io.sawmill.redis.internal.TransactionalBatchWriter} also sends transactions and
 * reads, {@link io.sawmill.redis.internal.FailureClass} tells which failures can succeed
 * when sent again; the Lettuce implementation keeps a connection per writer thread, one
 * type per Redis topology, each with its send path. Not an API.
 */
@NullMarked
package io.sawmill.redis.internal;

import org.jspecify.annotations.NullMarked;
