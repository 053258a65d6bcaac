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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;

import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.VersionGuard;

/**
 * A user's application in share mode, run as its own JVM by {@link ShareGroupIT}: each
 * record, whose value is its key's version, becomes a version-guarded hash
 * {@code share:<key>} and adds {@code <pid>:<thread>} to the set {@value #THREADS}, so
 * the test sees which consumer threads received records; a record delivered again
 * (delivery count above 1) adds its topic, partition and offset to {@value #REDELIVERED}.
 * Every write converges in any order, and the mapper says so. Mapping costs about 2 ms a
 * record, as a CPU-heavy mapping would, so a drain lasts long enough to kill a process in
 * the middle of it.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ShareApp {

	static final String THREADS = "share-threads";

	static final String REDELIVERED = "share-redelivered";

	private static final Duration MAPPING_COST = Duration.ofMillis(2);

	@Bean
	RecordMapper shareMapper() {
		String pid = Long.toString(ProcessHandle.current().pid());
		return new RecordMapper() {

			@Override
			public List<RedisWrite> map(ConsumerRecord<byte[], byte[]> record) {
				String value = new String(record.value(), StandardCharsets.UTF_8);
				long version;
				try {
					version = Long.parseLong(value);
				}
				catch (NumberFormatException ex) {
					throw new RecordMappingException("value is not a version: " + value);
				}
				busy(MAPPING_COST);
				byte[] key = ("share:" + new String(record.key(), StandardCharsets.UTF_8))
					.getBytes(StandardCharsets.UTF_8);
				RedisWrite thread = RedisWrite.command("SADD", utf8(THREADS),
						utf8(pid + ":" + Thread.currentThread().getName()));
				RedisWrite hash = VersionGuard.upsert(key, version, Duration.ZERO, Map.of(utf8("v"), record.value()));
				if (record.deliveryCount().orElse((short) 1) > 1) {
					return List.of(hash, thread, RedisWrite.command("SADD", utf8(REDELIVERED),
							utf8(record.topic() + "-" + record.partition() + "@" + record.offset())));
				}
				return List.of(hash, thread);
			}

			@Override
			public boolean orderIndependent() {
				return true;
			}
		};
	}

	private static void busy(Duration cost) {
		long end = System.nanoTime() + cost.toNanos();
		while (System.nanoTime() < end) {
			Thread.onSpinWait();
		}
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	public static void main(String[] args) {
		new SpringApplicationBuilder(ShareApp.class).bannerMode(Banner.Mode.OFF).web(WebApplicationType.NONE).run(args);
	}

}
