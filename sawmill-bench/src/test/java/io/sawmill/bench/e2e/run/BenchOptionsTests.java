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
package io.sawmill.bench.e2e.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sawmill.bench.e2e.report.Report;
import io.sawmill.bench.e2e.workload.Capability;
import io.sawmill.bench.e2e.workload.KeyDistribution;
import io.sawmill.bench.e2e.workload.Route;
import io.sawmill.testkit.LatencyProxy;

class BenchOptionsTests {

	@Test
	void shouldDefaultToTheFullRunOfTheIssue() {
		BenchOptions options = BenchOptions.parse();

		assertThat(options.rttsMillis()).containsExactly(0.0, 0.1, 1.0);
		assertThat(options.batchSizes()).containsExactly(1000, 5000, 10000);
		assertThat(options.strategies()).containsExactly("sequential", "template", "sawmill");
		assertThat(options.backlog()).isEqualTo(500_000);
		assertThat(options.fields()).isEqualTo(5);
		assertThat(options.valueBytes()).isEqualTo(20);
		assertThat(options.warmUp()).isEqualTo(300_000);
		assertThat(options.sawmillDrains()).isEqualTo(3);
		assertThat(options.rttPairs()).isEqualTo(5);
		assertThat(options.steadyDuration()).isEqualTo(Duration.ofSeconds(5));
		assertThat(options.cluster()).isTrue();
		assertThat(options.proxyPriority()).isEqualTo(LatencyProxy.Priority.NORMAL);
		assertThat(options.keyDistribution()).isEqualTo(KeyDistribution.UNIFORM);
		assertThat(options.zipfExponent()).isEqualTo(1.1);
		// the comparison runs only when asked for, so the quick run takes as long as
		// before
		assertThat(options.capabilities()).isEmpty();
		assertThat(BenchOptions.parse("--quick").capabilities()).isEmpty();
		assertThat(options.routes()).isEmpty();
		assertThat(BenchOptions.parse("--quick").routes()).isEmpty();
	}

	@Test
	void shouldTakeTheRoutesToCompareFromTheCommandLineEachOnceInTheOrderGiven() {
		BenchOptions options = BenchOptions
			.parse("--routes=mapping,hash,hash-replace,string,SORTED_SET,set,list,stream,delete,hash");

		assertThat(options.routes()).containsExactly(Route.MAPPING, Route.HASH, Route.HASH_REPLACE, Route.STRING,
				Route.SORTED_SET, Route.SET, Route.LIST, Route.STREAM, Route.DELETE);
		assertThat(BenchOptions.parse("--routes=hash, mapping").routes()).containsExactly(Route.HASH, Route.MAPPING);
	}

	@Test
	void shouldTakeTheKeyDistributionAndTheCapabilitiesToCompareFromTheCommandLine() {
		BenchOptions options = BenchOptions.parse("--key-distribution=zipf", "--zipf-s=1.3",
				"--capabilities=plain,coalesce,version,coalesce");

		assertThat(options.keyDistribution()).isEqualTo(KeyDistribution.ZIPF);
		assertThat(options.zipfExponent()).isEqualTo(1.3);
		assertThat(options.capabilities()).containsExactly(Capability.PLAIN, Capability.COALESCE, Capability.VERSION);
		assertThat(BenchOptions.parse("--capabilities=plain").capabilities()).containsExactly(Capability.PLAIN);
		assertThat(BenchOptions.parse("--capabilities=plain,exactly-once").capabilities())
			.containsExactly(Capability.PLAIN, Capability.EXACTLY_ONCE);
		assertThat(BenchOptions.parse("--key-distribution=ZIPF").keyDistribution()).isEqualTo(KeyDistribution.ZIPF);
	}

	@Test
	void shouldGiveTheMainRunAVersionFieldOnlyWithHotKeys() {
		BenchOptions options = BenchOptions.parse("--fields=2", "--id-space=10");

		assertThat(options.workload(KeyDistribution.UNIFORM, false).hash(12)).containsOnlyKeys("id", "f1", "f2")
			.containsEntry("id", "2");
		assertThat(options.workload(KeyDistribution.ZIPF, true).hash(12)).containsOnlyKeys("id", "version", "f1", "f2");
	}

	@Test
	void shouldRunTheProxyAsRealTimeThreadsWhenAsked() {
		assertThat(BenchOptions.parse("--proxy-priority=realtime").proxyPriority())
			.isEqualTo(LatencyProxy.Priority.REALTIME);
	}

	@Test
	void shouldScaleDownWhenQuick() {
		BenchOptions options = BenchOptions.parse("--quick", "--rtts=1", "--strategies=sawmill");

		assertThat(options.quick()).isTrue();
		assertThat(options.backlog()).isLessThan(500_000);
		assertThat(options.rttsMillis()).containsExactly(1.0);
		assertThat(options.strategies()).isEqualTo(List.of("sawmill"));
		assertThat(options.sawmillDrains()).isEqualTo(1);
		assertThat(options.rttPairs()).isLessThan(Report.MIN_RTT_PAIRS);
		assertThat(options.steadyDuration()).isLessThan(Duration.ofSeconds(5));
		// the RTT target's pair, without 0.1 ms
		assertThat(BenchOptions.parse("--quick").rttsMillis()).containsExactly(0.0, 1.0);
	}

	@Test
	void shouldTakeThePairsTheSteadyShapeAndTheClusterFromTheCommandLine() {
		BenchOptions options = BenchOptions.parse("--rtt-pairs=7", "--steady-seconds=10", "--cluster=off");

		assertThat(options.rttPairs()).isEqualTo(7);
		assertThat(options.steadyDuration()).isEqualTo(Duration.ofSeconds(10));
		assertThat(options.cluster()).isFalse();
		assertThat(BenchOptions.parse("--cluster").cluster()).isTrue();
	}

	@Test
	void shouldDocumentEveryOptionInTheHelp() {
		assertThat(BenchOptions.help()).contains("--rtt-pairs=5", "--steady-seconds=5", "--cluster=on",
				"--sawmill-drains=3", "--key-distribution=uniform", "--zipf-s=1.1",
				"--capabilities=plain,coalesce,version",
				"--routes=mapping,hash,hash-replace,string,sorted-set,set,list,stream,delete");
	}

	@Test
	void shouldNameTheBadArgument() {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--strategies=pooled"))
			.withMessage("--strategies must be among [sequential, template, sawmill], but was pooled");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--batchsize=5"))
			.withMessageContaining("unknown option(s) [batchsize]");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--warm-up=-1"))
			.withMessage("--warm-up must be zero or more records, but was -1");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--sawmill-drains=0"))
			.withMessage("--sawmill-drains must be at least 1, but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--proxy-priority=high"))
			.withMessage("--proxy-priority must be normal or realtime, but was high");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--rtt-pairs=-1"))
			.withMessage("--rtt-pairs must be zero or more, but was -1");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--steady-seconds=0"))
			.withMessage("--steady-seconds must be at least 1, but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--cluster=maybe"))
			.withMessage("--cluster must be on or off, but was maybe");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--key-distribution=hot"))
			.withMessage("--key-distribution must be uniform or zipf, but was hot");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--zipf-s=0"))
			.withMessage("--zipf-s must be greater than 0, but was 0.0");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--capabilities=plain,transactions"))
			.withMessage("--capabilities must be among plain, coalesce, version, exactly-once, but was transactions");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.parse("--routes=mapping,json"))
			.withMessage(
					"--routes must be among mapping, hash, hash-replace, string, sorted-set, set, list, stream, delete, "
							+ "but was json");
	}

}
