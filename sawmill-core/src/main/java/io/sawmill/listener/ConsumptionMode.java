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
package io.sawmill.listener;

/**
 * How a Sawmill service reads its topics ({@code sawmill.consumption.mode}).
 */
public enum ConsumptionMode {

	/**
	 * A consumer group: each partition is read by one consumer thread, in offset order,
	 * and committed by offset. Per key, records are written in the order they were
	 * produced, so any mapping works, and {@code sawmill.delivery=exactly-once} is
	 * available. Parallelism stops at the partition count. The default.
	 */
	GROUP,

	/**
	 * A share group (KIP-932, Kafka 4.2 or later): any number of consumer threads, across
	 * any number of processes, share the partitions; each record is locked to one thread
	 * and acknowledged on its own (accepted, released or rejected). Parallelism goes past
	 * the partition count, for a CPU-heavy mapping or more pods than partitions, but two
	 * records of one key may be written at once by two threads in either order: accepted
	 * only with writes whose result does not depend on order
	 * ({@link io.sawmill.mapping.RecordMapper#orderIndependent()}), at least once.
	 */
	SHARE

}
