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

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.mock;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeConfigsResult;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/**
 * What a client that may not read topic configurations gets (the sizing with a real
 * broker is in {@link DeadLetterAutoConfigurationTests}): a start-up that goes on, with
 * the broker's defaults.
 */
class DeadLetterTopicsTests {

	@Test
	void shouldCreateTheDeadLetterTopicWithTheBrokersDefaultWhenTopicConfigurationsMayNotBeRead() {
		Admin admin = mock(Admin.class);
		DescribeConfigsResult configs = mock(DescribeConfigsResult.class);
		KafkaFuture<Map<org.apache.kafka.common.config.ConfigResource, org.apache.kafka.clients.admin.Config>> refused = KafkaFuture
			.completedFuture(null)
			.thenApply(ignored -> {
				throw new TopicAuthorizationException(Set.of("orders"));
			});
		given(configs.all()).willReturn(refused);
		given(admin.describeConfigs(anyCollection(), any())).willReturn(configs);
		DescribeTopicsResult topics = mock(DescribeTopicsResult.class);
		Node node = new Node(0, "localhost", 9092);
		given(topics.allTopicNames()).willReturn(KafkaFuture.completedFuture(Map.of("orders",
				new TopicDescription("orders", false,
						List.of(new TopicPartitionInfo(0, node, List.of(node), List.of(node)),
								new TopicPartitionInfo(1, node, List.of(node), List.of(node)))))));
		given(admin.describeTopics(anyCollection())).willReturn(topics);
		CreateTopicsResult created = mock(CreateTopicsResult.class);
		given(created.all()).willReturn(KafkaFuture.completedFuture(null));
		given(admin.createTopics(any())).willReturn(created);
		DeadLetterTopics deadLetterTopics = new DeadLetterTopics(admin, List.of("orders"), true, ".DLT", true,
				Duration.ofSeconds(5));

		deadLetterTopics.ensure(Set.of("orders"), "localhost:9092");

		@SuppressWarnings("unchecked")
		ArgumentCaptor<Collection<NewTopic>> newTopics = ArgumentCaptor.forClass(Collection.class);
		then(admin).should().createTopics(newTopics.capture());
		assertThat(newTopics.getValue()).singleElement().satisfies(topic -> {
			assertThat(topic.name()).isEqualTo("orders.DLT");
			assertThat(topic.numPartitions()).isEqualTo(2);
			assertThat(topic.configs()).isNullOrEmpty();
		});
		assertThat(deadLetterTopics.maxRequestSize()).as("Kafka's default").isZero();
	}

}
