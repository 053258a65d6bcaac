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
package io.sawmill.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.core.instrument.MeterRegistry;
import io.sawmill.deadletter.internal.KafkaDeadLetterPublisher;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.MapperDecorator;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.testkit.RedisVerifier;

/**
 * One record whose write Redis keeps rejecting with a reply that is not on the permanent
 * list ({@code ERR wrong number of arguments}: a mapper bug that only this record's shape
 * meets), among good records on three partitions. Its batch's other records are written,
 * so the record is dead-lettered by elimination with the reply as its reason once the
 * retries are used up; no batch is polled again, the listener never pauses, every good
 * record is written and everything is committed.
 */
class BlameByEliminationIT {

	private static final String TOPIC = "misfit";

	private static final VersionedEvents GOOD = new VersionedEvents(6_000, 2_000);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, 3);

	/**
	 * The built-in mapping, except for the record keyed {@code misfit}: its HSET loses
	 * its value, which Redis refuses as a command with the wrong number of arguments.
	 */
	@Configuration(proxyBeanMethods = false)
	static class MisfitMapper {

		@Bean
		static BeanPostProcessor hsetWithoutValueForTheMisfit() {
			return MapperDecorator.decorating(mapper -> record -> {
				if (record.key() == null || !"misfit".equals(new String(record.key(), StandardCharsets.UTF_8))) {
					return mapper.map(record);
				}
				List<RedisWrite> writes = new ArrayList<>();
				for (RedisWrite write : mapper.map(record)) {
					writes.add(write instanceof RedisWrite.HashSet hset
							? RedisWrite.idempotentCommand("HSET", hset.key(), utf8("lonely-field")) : write);
				}
				return writes;
			});
		}

	}

	@Test
	void shouldDeadLetterTheRecordWhoseWriteAloneKeepsFailingAndNeverPauseTheOthers() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, "misfit");
		properties.put("sawmill.concurrency", 3);
		properties.put("sawmill.retry.initial-backoff", "50ms");
		properties.put("sawmill.retry.max-backoff", "200ms");
		try (ConfigurableApplicationContext app = SawmillApp.run(properties, MisfitMapper.class);
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers())) {
			String bootstrap = servers.kafka().bootstrapServers();
			GOOD.produce(bootstrap, TOPIC, 0, 3_000);
			Kafka.produceOne(bootstrap, TOPIC, utf8("misfit"), utf8("{\"userId\":\"misfit\",\"name\":\"n\"}"));
			GOOD.produce(bootstrap, TOPIC, 3_000, 6_000);

			Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, 3);
			await().atMost(Duration.ofMinutes(2)).until(() -> Kafka.committedOffsets(admin, "misfit").equals(end));

			RedisVerifier.Result result = GOOD.verify(servers.redis().host(), servers.redis().port(),
					Duration.ofHours(1));
			assertThat(result.allVerified()).as(result.toString()).isTrue();
			assertThat(servers.redis().command("EXISTS", "user:misfit")).isEqualTo(":0");
			List<ConsumerRecord<byte[], byte[]>> dead = Kafka.readAll(bootstrap, TOPIC + ".DLT", 1);
			assertThat(dead).singleElement().satisfies(record -> {
				assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("misfit");
				assertThat(new String(record.headers().lastHeader(KafkaDeadLetterPublisher.REASON_HEADER).value(),
						StandardCharsets.UTF_8))
					.contains("same reply in all")
					.contains("wrong number of arguments");
			});
			MeterRegistry registry = app.getBean(MeterRegistry.class);
			assertThat(registry.get("sawmill.batch.redelivered").counter().count()).as("batches polled again").isZero();
			assertThat(registry.get("sawmill.listener.paused").gauge().value()).isZero();
		}
	}

	private static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

}
