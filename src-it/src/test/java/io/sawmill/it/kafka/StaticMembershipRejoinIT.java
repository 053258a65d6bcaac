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
package io.sawmill.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.listener.MessageListenerContainer;

import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.testkit.SampleEvents;

/**
 * {@code sawmill.instance-id} (Kafka static membership) against a real KRaft broker with
 * a session timeout of two minutes: an instance that goes away without leaving the group
 * (a static member never sends a leave, as after {@code kill -9}) and comes back under
 * the same identity gets its partitions back at once, where a dynamic member would wait
 * for the session to expire; what it writes then is committed.
 */
class StaticMembershipRejoinIT {

	private static final String TOPIC = "static-members";

	private static final String GROUP = "static-members";

	private static final int PARTITIONS = 2;

	private static final Duration SESSION_TIMEOUT = Duration.ofMinutes(2);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS);

	@Test
	void shouldGiveARestartedInstanceItsPartitionsBackWithoutWaitingForTheSessionTimeout() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, GROUP);
		properties.put("sawmill.instance-id", "sawmill-a");
		properties.put("spring.kafka.consumer.properties.session.timeout.ms", SESSION_TIMEOUT.toMillis());
		String bootstrap = servers.kafka().bootstrapServers();
		try (Admin admin = Kafka.admin(bootstrap)) {
			try (ConfigurableApplicationContext first = SawmillApp.run(properties)) {
				await().atMost(Duration.ofMinutes(1)).until(() -> assigned(first).size() == PARTITIONS);
			}
			// gone without leaving: the broker still holds the member and its partitions
			assertThat(members(admin)).singleElement()
				.satisfies(member -> assertThat(member.groupInstanceId().orElse("")).startsWith("sawmill-a"));

			try (ConfigurableApplicationContext second = SawmillApp.run(properties)) {
				// bounded well below the session timeout a dynamic member would wait out
				await().atMost(SESSION_TIMEOUT.dividedBy(4)).until(() -> assigned(second).size() == PARTITIONS);
				Kafka.produce(bootstrap, TOPIC, 0, 100, SampleEvents::userId, SampleEvents::json);
				Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
				await().atMost(SESSION_TIMEOUT.dividedBy(4))
					.until(() -> Kafka.committedOffsets(admin, GROUP).equals(end));
				assertThat(members(admin)).singleElement()
					.satisfies(member -> assertThat(member.groupInstanceId().orElse("")).startsWith("sawmill-a"));
			}
		}
	}

	private static Collection<TopicPartition> assigned(ConfigurableApplicationContext app) {
		return app.getBean("sawmillListenerContainer", MessageListenerContainer.class).getAssignedPartitions();
	}

	private static Collection<MemberDescription> members(Admin admin) throws Exception {
		return admin.describeConsumerGroups(List.of(GROUP))
			.describedGroups()
			.get(GROUP)
			.get(30, TimeUnit.SECONDS)
			.members();
	}

}
