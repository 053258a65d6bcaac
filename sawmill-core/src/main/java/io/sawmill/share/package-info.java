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
 * Share-group consumption (KIP-932, {@code sawmill.consumption.mode=share}): any number
 * of consumer threads share a topic's partitions, each record locked to one of them and
 * acknowledged on its own once Redis acknowledged its writes.
 * {@link io.sawmill.share.ShareConsumers} runs the threads; each thread's
 * {@code ShareLane} polls, maps, writes in one round trip and acknowledges.
 */
@NullMarked
package io.sawmill.share;

import org.jspecify.annotations.NullMarked;
