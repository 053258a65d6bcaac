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
package io.sawmill.autoconfigure;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.ForwardingAdmin;

/**
 * The Kafka Admin client of the start-up check and the lag monitor. Two defaults differ
 * from Kafka's, each only where the application's {@code spring.kafka.admin.properties}
 * leave it unset:
 * <ul>
 * <li>{@code metadata.recovery.strategy=none}: with {@code rebootstrap} (Kafka's
 * default), an Admin client whose bootstrap servers all refuse connections rebootstraps
 * in a loop without backoff, thousands of log lines a second, for as long as Kafka is
 * unreachable. Without it the client reconnects to the brokers it knows, with
 * {@code reconnect.backoff.ms}.</li>
 * <li>{@link #close()} waits at most {@link #CLOSE_TIMEOUT}: Kafka's waits for every
 * pending call's own timeout ({@code default.api.timeout.ms}, 60 s), which held up a
 * failed start-up that long.</li>
 * </ul>
 */
final class SawmillAdmin extends ForwardingAdmin {

	static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

	private SawmillAdmin(Map<String, Object> configs) {
		super(configs);
	}

	static SawmillAdmin create(Map<String, Object> configs) {
		Map<String, Object> admin = new HashMap<>(configs);
		admin.putIfAbsent(CommonClientConfigs.METADATA_RECOVERY_STRATEGY_CONFIG, "none");
		admin.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, "sawmill-admin");
		return new SawmillAdmin(admin);
	}

	@Override
	public void close() {
		close(CLOSE_TIMEOUT);
	}

}
