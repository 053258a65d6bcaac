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
 * The data path of one consumer thread, from the poll to the commit:
 * {@link io.sawmill.listener.internal.SawmillContainers} builds the container, each
 * thread's {@code ConsumerLane} maps a batch, writes it by its delivery mode and commits
 * it. In share mode {@link io.sawmill.listener.internal.ShareConsumers} runs the threads;
 * each thread's {@code ShareLane} polls, maps, writes in one round trip and acknowledges
 * each record. Not an API: public only where the auto-configuration builds it.
 */
@NullMarked
package io.sawmill.listener.internal;

import org.jspecify.annotations.NullMarked;
