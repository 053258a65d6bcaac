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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupOptionsTests {

	@Test
	void shouldCompareTheJarTheCdsLayoutAndTheImageEntryPointFiveTimesByDefault(@TempDir Path app) {
		StartupOptions options = StartupOptions.parse("--app", app.toString());
		assertThat(options.runs()).isEqualTo(5);
		assertThat(options.records()).isEqualTo(3_000);
		assertThat(options.variants()).extracting(LaunchVariant::name).containsExactly("jar", "cds", "image");
	}

	@Test
	void shouldAddTheAotCacheLayoutWhenTheBuildWroteTheCacheAndTheJvmIsJava25OrLater(@TempDir Path app)
			throws IOException {
		Files.createDirectories(app.resolve("sawmill-app"));
		Files.createFile(app.resolve("sawmill-app/sawmill-app.aot"));
		assertThat(LaunchVariant.defaults(app, 25)).extracting(LaunchVariant::name)
			.containsExactly("jar", "cds", "image", "aot");
		assertThat(LaunchVariant.defaults(app, 17)).extracting(LaunchVariant::name)
			.containsExactly("jar", "cds", "image");
		assertThat(LaunchVariant.defaults(app, 0)).extracting(LaunchVariant::name)
			.containsExactly("jar", "cds", "image");
	}

	@Test
	void shouldLeaveTheAotCacheLayoutOutWhenTheBuildWroteNoCache(@TempDir Path app) {
		assertThat(LaunchVariant.defaults(app, 25)).extracting(LaunchVariant::name)
			.containsExactly("jar", "cds", "image");
	}

	@Test
	void shouldReadTheJvmsFeatureReleaseFromItsHomesReleaseFile(@TempDir Path home) throws IOException {
		Path java = Files.createFile(Files.createDirectories(home.resolve("bin")).resolve("java"));
		assertThat(StartupOptions.featureVersion(java)).isZero();
		Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.3\"\n");
		assertThat(StartupOptions.featureVersion(java)).isEqualTo(25);
		assertThat(StartupOptions.featureVersion(home.resolve("missing/bin/java"))).isZero();
	}

	@Test
	void shouldTellTheJvmsArchiveAndCacheProblemsFromItsOtherOutput() {
		assertThat(ServiceLaunch.archiveProblem("[0.005s][warning][aot] Unable to use AOT cache.")).isTrue();
		assertThat(ServiceLaunch.archiveProblem(
				"[0.005s][error  ][aot] An error has occurred while processing the AOT cache. Run with -Xlog:aot for details."))
			.isTrue();
		assertThat(ServiceLaunch.archiveProblem(
				"[0.012s][warning][cds,dynamic] Unable to use shared archive. The top archive failed to load: sawmill-app.jsa"))
			.isTrue();
		assertThat(ServiceLaunch.archiveProblem("[0.006s][info][aot] Opened AOT cache sawmill-app.aot.")).isFalse();
		assertThat(ServiceLaunch.archiveProblem("WARN 11053 --- [main] sawmill.mapping.key-template 'cds:{id}'"))
			.isFalse();
	}

	@Test
	void shouldRunTheLayoutFromItsDirectoryWithTheCdsArchiveOrTheAotCache() {
		Path app = Path.of("/build/sawmill-app/target");
		Path java = Path.of("/jdk/bin/java");
		assertThat(LaunchVariant.CDS.command(java, app, List.of("--server.port=0"))).containsExactly("/jdk/bin/java",
				"-XX:SharedArchiveFile=sawmill-app.jsa", "-jar", "sawmill-app.jar", "--server.port=0");
		assertThat(LaunchVariant.AOT.command(java, app, List.of("--server.port=0"))).containsExactly("/jdk/bin/java",
				"-XX:AOTCache=sawmill-app.aot", "-jar", "sawmill-app.jar", "--server.port=0");
		assertThat(LaunchVariant.CDS.directory(app)).isEqualTo(app.resolve("sawmill-app"));
		assertThat(LaunchVariant.AOT.directory(app)).isEqualTo(app.resolve("sawmill-app"));
	}

	@Test
	void shouldTakeAVariantsOwnJavaAndJarWhenItNamesThem() {
		LaunchVariant variant = LaunchVariant
			.parse("j25=/opt/jdk25/bin/java -XX:AOTCache={app}/app.aot -jar {app}/x.jar");
		assertThat(variant.command(Path.of("/jdk/bin/java"), Path.of("/t"), List.of("--a=b")))
			.containsExactly("/opt/jdk25/bin/java", "-XX:AOTCache=/t/app.aot", "-jar", "/t/x.jar", "--a=b");
		assertThat(variant.directory(Path.of("/t"))).isNull();
	}

	@Test
	void shouldRefuseAVariantWithoutAName() {
		assertThatIllegalArgumentException().isThrownBy(() -> StartupOptions.parse("--variant", "-XX:+UseSerialGC"))
			.withMessage("a variant is name=jvm-arguments, but was -XX:+UseSerialGC");
	}

	@Test
	void shouldRefuseFewerThanOneRunNamingTheValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> StartupOptions.parse("--runs", "0"))
			.withMessage("--runs must be at least 1, but was 0");
	}

	@Test
	void shouldRefuseFewerThanOneRecordNamingTheValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> StartupOptions.parse("--records", "0"))
			.withMessage("--records must be at least 1, but was 0");
	}

	@Test
	void shouldReportWhenEveryRecordWasCommittedNamingHowMany() {
		Map<String, List<ServiceLaunch.Timing>> timings = new LinkedHashMap<>();
		timings.put("aot",
				List.of(new ServiceLaunch.Timing(2_000, -1, -1, -1, 3_500),
						new ServiceLaunch.Timing(2_100, -1, -1, -1, 3_300),
						new ServiceLaunch.Timing(1_900, -1, -1, -1, 3_900)));
		String table = StartupReport.table(timings, StartupOptions.parse("--runs", "3", "--records", "200000"));
		assertThat(table).contains("| all 200,000 committed |",
				"| aot | 2,000 ms (1,900–2,100) | 1.00 | -1 ms | -1 ms | -1 ms | 3,500 ms |");
	}

	@Test
	void shouldTakeTheMiddleRunAsTheMedian() {
		List<ServiceLaunch.Timing> runs = List.of(timing(4_000), timing(1_000), timing(9_000), timing(2_000),
				timing(3_000));
		assertThat(StartupReport.median(runs, ServiceLaunch.Timing::firstCommitMs)).isEqualTo(3_000);
	}

	@Test
	void shouldGiveEachVariantsMedianAsAMultipleOfTheFirstVariants() {
		Map<String, List<ServiceLaunch.Timing>> timings = new LinkedHashMap<>();
		timings.put("jar", List.of(timing(4_000), timing(4_400), timing(4_200)));
		timings.put("cds", List.of(timing(2_000), timing(2_100), timing(1_900)));
		String table = StartupReport.table(timings, StartupOptions.parse("--runs", "3"));
		assertThat(table).contains("| jar | 4,200 ms (4,000–4,400) | 1.00 |",
				"| cds | 2,000 ms (1,900–2,100) | 0.48 |");
	}

	private static ServiceLaunch.Timing timing(long firstCommitMs) {
		return new ServiceLaunch.Timing(firstCommitMs, -1, -1, -1, -1);
	}

}
