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
import java.util.List;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;

import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.RedisWrite;

/**
 * A user's application with a non-idempotent mapper: every record {@code INCR}s
 * {@code counter:<record key>}, so a counter says how often Redis applied its key's
 * records. Run as its own JVM by {@link ExactlyOnceIT}
 * ({@link SawmillProcess#startMain}); nothing but Boot's auto-configuration and the
 * mapper.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class CounterApp {

	@Bean
	RecordMapper counterMapper() {
		return record -> List.of(RedisWrite.command("INCR",
				("counter:" + new String(record.key(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));
	}

	public static void main(String[] args) {
		new SpringApplicationBuilder(CounterApp.class).bannerMode(Banner.Mode.OFF)
			.web(WebApplicationType.NONE)
			.run(args);
	}

}
