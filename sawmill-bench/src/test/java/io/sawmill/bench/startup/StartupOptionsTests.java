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
	void shouldCompareTheJarTheCdsLayoutTheImageAndTheMinimalApplicationFiveTimesByDefault(@TempDir Path app)
			throws IOException {
		Files.createFile(app.resolve("jib-image-check.tar"));
		Path minimal = Files.createFile(app.resolve("minimal-app.jar"));
		StartupOptions options = StartupOptions.parse("--app", app.toString(), "--minimal", minimal.toString());
		assertThat(options.runs()).isEqualTo(5);
		assertThat(options.records()).isEqualTo(3_000);
		assertThat(options.variants()).extracting(LaunchVariant::name)
			.containsExactly("jar", "cds", "image", "minimal");
		assertThat(options.variants().get(3).command(Path.of("/jdk/bin/java"), app, List.of("--a=b")))
			.containsExactly("/jdk/bin/java", "-jar", minimal.toString(), "--a=b");
	}

	@Test
	void shouldLeaveOutTheImageAndTheMinimalApplicationWhenTheyWereNotBuilt(@TempDir Path app) {
		assertThat(StartupOptions.parse("--app", app.toString(), "--minimal", app.resolve("none.jar").toString())
			.variants()).extracting(LaunchVariant::name).containsExactly("jar", "cds");
	}

	@Test
	void shouldTakeADefaultVariantByItsNameAlone(@TempDir Path app) {
		StartupOptions options = StartupOptions.parse("--app", app.toString(), "--variant", "image", "--variant",
				"minimal", "--variant", "today=/old/bin/java -jar /old/sawmill-app-exec.jar");
		assertThat(options.variants()).extracting(LaunchVariant::name).containsExactly("image", "minimal", "today");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> StartupOptions.parse("--app", app.toString(), "--variant", "imag"))
			.withMessage("a variant is name=jvm-arguments or one of [jar, cds, image, aot, minimal], but was imag");
	}

	@Test
	void shouldStartTheImagesEntryPointWithItsRuntimeFromItsWorkingDirectoryWithTheChartsProcessorCount() {
		ContainerImage image = new ContainerImage(Path.of("/tmp/image"), List.of("java", "-XX:AOTCache=sawmill-app.aot",
				"-XX:MaxRAMPercentage=75", "-cp", "@/app/sawmill-app.classpath", "io.sawmill.app.SawmillApplication"),
				"/app");
		LaunchVariant variant = LaunchVariant.IMAGE.resolve(image);
		assertThat(variant.command(Path.of("/jdk/bin/java"), Path.of("/t"), List.of("--a=b"))).containsExactly(
				"/tmp/image/opt/java/bin/java", "-XX:ActiveProcessorCount=1", "-XX:AOTCache=sawmill-app.aot",
				"-XX:MaxRAMPercentage=75", "-cp", "@/tmp/image/app/sawmill-app.classpath",
				"io.sawmill.app.SawmillApplication", "--a=b");
		assertThat(variant.directory(Path.of("/t"))).isEqualTo(Path.of("/tmp/image/app"));
		assertThat(LaunchVariant.JAR.resolve(image)).isSameAs(LaunchVariant.JAR);
	}

	@Test
	void shouldAddTheAotCacheLayoutWhenTheBuildWroteTheCacheAndTheJvmIsJava25OrLater(@TempDir Path app)
			throws IOException {
		Files.createDirectories(app.resolve("sawmill-app"));
		Files.createFile(app.resolve("sawmill-app/sawmill-app.aot"));
		Path minimal = app.resolve("none.jar");
		assertThat(LaunchVariant.defaults(app, minimal, 25)).extracting(LaunchVariant::name)
			.containsExactly("jar", "cds", "aot");
		assertThat(LaunchVariant.defaults(app, minimal, 17)).extracting(LaunchVariant::name)
			.containsExactly("jar", "cds");
		assertThat(LaunchVariant.defaults(app, minimal, 0)).extracting(LaunchVariant::name)
			.containsExactly("jar", "cds");
	}

	@Test
	void shouldLeaveTheAotCacheLayoutOutWhenTheBuildWroteNoCache(@TempDir Path app) {
		assertThat(LaunchVariant.defaults(app, app.resolve("none.jar"), 25)).extracting(LaunchVariant::name)
			.containsExactly("jar", "cds");
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
			.parse("j25=/opt/jdk25/bin/java -XX:AOTCache={app}/app.aot -jar {app}/x.jar", List.of());
		assertThat(variant.command(Path.of("/jdk/bin/java"), Path.of("/t"), List.of("--a=b")))
			.containsExactly("/opt/jdk25/bin/java", "-XX:AOTCache=/t/app.aot", "-jar", "/t/x.jar", "--a=b");
		assertThat(variant.directory(Path.of("/t"))).isNull();
	}

	@Test
	void shouldRefuseAVariantWithoutAName() {
		assertThatIllegalArgumentException().isThrownBy(() -> StartupOptions.parse("--variant", "=-XX:+UseSerialGC"))
			.withMessage("a variant is name=jvm-arguments, but was =-XX:+UseSerialGC");
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
				List.of(new ServiceLaunch.Timing(2_000, 500, 1_500, 1_600, 1_700, 3_000, 3_500),
						new ServiceLaunch.Timing(2_100, 600, 1_400, 1_700, 1_800, 3_200, 3_300),
						new ServiceLaunch.Timing(1_900, 400, 1_300, 1_500, 1_600, 2_900, 3_900)));
		String table = StartupReport.table(timings, StartupOptions.parse("--runs", "3", "--records", "200000"));
		assertThat(table).contains("| all 200,000 committed |",
				"| aot | 2,000 ms (1,900–2,100) | 1.00 (1.00–1.00) | 3,000 ms (2,900–3,200) | 1.00 (1.00–1.00) | 500 ms "
						+ "| 1,400 ms | 1,600 ms | 1,700 ms | 3,500 ms |");
	}

	@Test
	void shouldTakeTheMiddleRunAsTheMedian() {
		List<ServiceLaunch.Timing> runs = List.of(timing(4_000), timing(1_000), timing(9_000), timing(2_000),
				timing(3_000));
		assertThat(StartupReport.median(runs, ServiceLaunch.Timing::firstCommitMs)).isEqualTo(3_000);
	}

	@Test
	void shouldGiveEachVariantsTimesAsMultiplesOfTheFirstVariantsInTheSameRun() {
		Map<String, List<ServiceLaunch.Timing>> timings = new LinkedHashMap<>();
		timings.put("jar", List.of(timing(4_000), timing(4_400), timing(4_200)));
		timings.put("cds", List.of(timing(2_000), timing(2_420), timing(1_890)));
		String table = StartupReport.table(timings, StartupOptions.parse("--runs", "3"));
		assertThat(table).contains(
				"| jar | 4,200 ms (4,000–4,400) | 1.00 (1.00–1.00) | 8,400 ms (8,000–8,800) | 1.00 (1.00–1.00) |",
				"| cds | 2,000 ms (1,890–2,420) | 0.50 (0.45–0.55) | 4,000 ms (3,780–4,840) | 0.50 (0.45–0.55) |");
	}

	private static ServiceLaunch.Timing timing(long firstCommitMs) {
		return new ServiceLaunch.Timing(firstCommitMs, -1, -1, -1, -1, 2 * firstCommitMs, -1);
	}

}
