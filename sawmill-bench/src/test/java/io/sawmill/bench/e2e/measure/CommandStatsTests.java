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
package io.sawmill.bench.e2e.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.testkit.RedisServerProcess;

class CommandStatsTests {

	private static final String INFO = """
			# Commandstats\r
			cmdstat_hset:calls=60000,usec=120000,usec_per_call=2.00,rejected_calls=0,failed_calls=0\r
			cmdstat_expire:calls=60000,usec=30000,usec_per_call=0.50,rejected_calls=0,failed_calls=0\r
			cmdstat_config|resetstat:calls=1,usec=83,usec_per_call=83.00,rejected_calls=0,failed_calls=0\r
			cmdstat_hello:calls=2,usec=20,usec_per_call=10.00,rejected_calls=0,failed_calls=0\r
			""";

	@Test
	void shouldReadTheCallsOfEveryCommandIncludingSubcommands() {
		assertThat(CommandStats.parse(INFO)).containsExactlyInAnyOrderEntriesOf(
				Map.of("hset", 60_000L, "expire", 60_000L, "config|resetstat", 1L, "hello", 2L));
		assertThat(CommandStats.parse("# Commandstats\n")).isEmpty();
	}

	@Test
	void shouldGiveCommandsPerRecordMostFirstWithTheRareOnesSummedUp() {
		CommandStats.Counts counts = new CommandStats.Counts(
				Map.of("hset", 60_000L, "expire", 30_000L, "hello", 2L, "client|setinfo", 4L));

		assertThat(counts.total()).isEqualTo(90_006);
		assertThat(counts.perRecord(60_000)).isEqualTo(1.5001);
		assertThat(counts.perRecordByCommand(60_000)).isEqualTo("hset 1.00, expire 0.50, 6 other calls");
		assertThat(counts.all()).isEqualTo("hset=60000 expire=30000 client|setinfo=4 hello=2");
	}

	@Test
	void shouldCountWhatOthersSentSinceTheResetButNotTheResetItself() throws Exception {
		try (RedisServerProcess redis = RedisServerProcess.startNew()) {
			Endpoint endpoint = Endpoint.standalone(0, null, redis);
			redis.command("HSET", "before", "f", "v");
			CommandStats.Counts counts;
			try (CommandStats stats = CommandStats.reset(endpoint)) {
				redis.command("HSET", "a", "f", "v");
				redis.command("HSET", "b", "f", "v");
				redis.command("EXPIRE", "a", "60");
				counts = stats.read();
			}

			assertThat(counts.calls()).containsExactlyInAnyOrderEntriesOf(Map.of("hset", 2L, "expire", 1L));
		}
	}

}
