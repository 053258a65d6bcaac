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
 * Sawmill's test kit: real servers on free loopback ports for tests that need them, and
 * what checks their contents afterwards. {@link io.sawmill.testkit.RedisServerProcess},
 * {@link io.sawmill.testkit.RedisClusterProcess} and
 * {@link io.sawmill.testkit.RedisSentinelProcess} start {@code redis-server} processes
 * ({@code $SAWMILL_REDIS_SERVER}, else the one on the PATH; never the Redis on 6379);
 * {@link io.sawmill.testkit.KafkaTestBroker} is a KRaft broker in the test's JVM and
 * {@link io.sawmill.testkit.KafkaBrokerProcess} one in a JVM of its own that can be
 * killed and restarted with its data; {@link io.sawmill.testkit.LatencyProxy} adds a
 * round-trip time between a client and a local server;
 * {@link io.sawmill.testkit.RedisVerifier} reads every expected hash and TTL back;
 * {@link io.sawmill.testkit.SampleEvents} are deterministic JSON events and the hashes
 * Sawmill's JSON mapper makes of them; {@link io.sawmill.testkit.MutableClock} is a clock
 * a test moves by hand. Each is stopped by its {@code close()}; the server processes also
 * when the JVM exits first. An application tests its own Sawmill routes with it by
 * depending on {@code io.sawmill:sawmill-test} with test scope. It depends on no Sawmill
 * code, so Sawmill's own modules use it too.
 */
package io.sawmill.testkit;
