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
package io.sawmill.mapping.route.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.sawmill.mapping.route.RedisType;

@ExtendWith(OutputCaptureExtension.class)
class FirstRecordCheckTests {

	private static ConsumerRecord<byte[], byte[]> record(long offset, String json) {
		return new ConsumerRecord<>("scores", 2, offset, "p1".getBytes(UTF_8), json.getBytes(UTF_8));
	}

	@Test
	void theFirstRecordWarnsOnceNamingTheFieldsItLacks(CapturedOutput output) {
		Routes routes = Routes.of(List.of(RouteConfig.custom("scores")
			.topics(List.of("scores"))
			.type(RedisType.SORTED_SET)
			.keyTemplate("board:{game}")
			.scoreField("points")
			.member("{@key}")
			.ttlField("ttl")
			.build()));

		routes.map(record(5, "{\"game\":\"chess\",\"points\":3,\"extra\":1}"));
		routes.map(record(6, "{\"game\":\"chess\",\"points\":4}"));

		assertThat(output.getOut().lines().filter(line -> line.contains("Route 'scores'"))).singleElement()
			.asString()
			.contains("(scores-2@5)", "has no field [ttl]");
	}

	@Test
	void aFirstRecordWithEveryNamedFieldLogsNothing(CapturedOutput output) {
		Routes routes = Routes.of(List.of(RouteConfig.custom("users")
			.topics(List.of("scores"))
			.keyTemplate("u:{@key}")
			.fields(List.of("name", "address"))
			.build()));

		routes.map(record(1, "{\"name\":\"Ann\",\"address\":{\"city\":\"Oslo\"}}"));

		assertThat(output.getOut()).doesNotContain("Route 'users'");
	}

}
