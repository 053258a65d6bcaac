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
package io.sawmill.bench.startup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.sawmill.testkit.KafkaBrokerProcess;
import io.sawmill.testkit.RedisServerProcess;
import io.sawmill.testkit.SampleEvents;

/**
 * Start-up time of the packaged service: process start to the first committed offset.
 * <p>
 * Starts a real KRaft broker (its own JVM) and a real {@code redis-server}, produces
 * records to a topic, then starts the service {@code --runs} times per launch variant,
 * the variants alternating run by run so that a change in the machine's load hits them
 * alike. Each start uses a fresh consumer group, so it joins, is assigned every
 * partition, reads from the beginning and commits its first batch, then until it has
 * committed every record. Prints each run and the min / median / max per variant; the
 * child's output, with the time of each line since the fork, goes to {@code --logs}.
 * <p>
 * {@code java -cp sawmill-bench/target/sawmill-bench.jar io.sawmill.bench.startup.StartupTime
 * [--runs 5] [--app sawmill-app/target] [--java path/to/bin/java] [--variant name=jvm-arguments]… [--logs dir]
 * [--records 3000]}
 */
public final class StartupTime {

	private static final String TOPIC = "startup-events";

	private static final int PARTITIONS = 3;

	private StartupTime() {
	}

	public static void main(String[] args) throws Exception {
		StartupOptions options = StartupOptions.parse(args);
		Path work = Files.createDirectories(options.logs());
		System.out
			.println("start-up: process start -> first committed offset, " + options.runs() + " runs per variant");
		try (KafkaBrokerProcess kafka = KafkaBrokerProcess.start(work.resolve("kafka"));
				RedisServerProcess redis = RedisServerProcess.startNew();
				Admin admin = Admin
					.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
			kafka.createTopic(TOPIC, PARTITIONS);
			produce(kafka.bootstrapServers(), options.records());
			List<LaunchVariant> variants = resolve(options, work);
			Map<String, List<ServiceLaunch.Timing>> timings = new LinkedHashMap<>();
			variants.forEach(variant -> timings.put(variant.name(), new ArrayList<>()));
			for (int run = 1; run <= options.runs(); run++) {
				for (LaunchVariant variant : variants) {
					String group = "startup-" + variant.name() + "-" + run + "-" + System.nanoTime();
					List<String> command = variant.command(options.java(), options.app(),
							properties(kafka.bootstrapServers(), redis, group));
					ServiceLaunch.Timing timing = ServiceLaunch.run(command, variant.directory(options.app()),
							work.resolve("startup-" + variant.name() + "-" + run + ".log"), admin, group,
							options.records());
					timings.get(variant.name()).add(timing);
					System.out
						.printf("  %-10s run %d: first commit %,6d ms (Spring starting %,6d ms, checks passed %,6d ms, "
								+ "started %,6d ms, partitions assigned %,6d ms), CPU %,6d ms, all committed %,6d ms%n",
								variant.name(), run, timing.firstCommitMs(), timing.startingMs(), timing.checkedMs(),
								timing.startedMs(), timing.assignedMs(), timing.cpuMs(), timing.allCommittedMs());
				}
			}
			System.out.println();
			System.out.println(StartupReport.table(timings, options));
		}
	}

	/**
	 * The variants to run, the image's entry point unpacked from the image sawmill-app's
	 * build wrote when one of them is the image.
	 */
	private static List<LaunchVariant> resolve(StartupOptions options, Path work) {
		if (options.variants().stream().noneMatch(LaunchVariant::usesImage)) {
			return options.variants();
		}
		ContainerImage image = ContainerImage.unpack(ContainerImage.checkImage(options.app()), work.resolve("image"));
		return options.variants().stream().map(variant -> variant.resolve(image)).toList();
	}

	private static List<String> properties(String bootstrapServers, RedisServerProcess redis, String group) {
		return List.of("--spring.kafka.bootstrap-servers=" + bootstrapServers,
				"--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
				"--sawmill.topics=" + TOPIC, "--sawmill.group-id=" + group,
				"--sawmill.mapping.key-template=" + SampleEvents.KEY_TEMPLATE, "--sawmill.dead-letter.enabled=false",
				"--server.port=0");
	}

	private static void produce(String bootstrapServers, int records) throws Exception {
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.LINGER_MS_CONFIG, 5);
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			for (long id = 0; id < records; id++) {
				producer.send(new ProducerRecord<>(TOPIC, SampleEvents.userId(id).getBytes(), SampleEvents.json(id)));
			}
			producer.flush();
		}
	}

}
