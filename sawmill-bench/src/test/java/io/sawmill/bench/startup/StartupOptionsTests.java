package io.sawmill.bench.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class StartupOptionsTests {

	@Test
	void shouldCompareTheJarTheCdsLayoutAndTheImageEntryPointFiveTimesByDefault() {
		StartupOptions options = StartupOptions.parse();
		assertThat(options.runs()).isEqualTo(5);
		assertThat(options.variants()).extracting(LaunchVariant::name).containsExactly("jar", "cds", "image");
	}

	@Test
	void shouldRunTheCdsLayoutFromItsDirectoryWithTheArchive() {
		Path app = Path.of("/build/sawmill-app/target");
		List<String> command = LaunchVariant.CDS.command(Path.of("/jdk/bin/java"), app, List.of("--server.port=0"));
		assertThat(command).containsExactly("/jdk/bin/java", "-XX:SharedArchiveFile=sawmill-app.jsa", "-jar",
				"sawmill-app.jar", "--server.port=0");
		assertThat(LaunchVariant.CDS.directory(app)).isEqualTo(app.resolve("sawmill-app"));
	}

	@Test
	void shouldTakeAVariantsOwnJavaAndJarWhenItNamesThem() {
		LaunchVariant variant = LaunchVariant.parse("j25=/opt/jdk25/bin/java -XX:AOTCache={app}/app.aot -jar {app}/x.jar");
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
		assertThat(table).contains("| jar | 4,200 ms (4,000–4,400) | 1.00 |", "| cds | 2,000 ms (1,900–2,100) | 0.48 |");
	}

	private static ServiceLaunch.Timing timing(long firstCommitMs) {
		return new ServiceLaunch.Timing(firstCommitMs, -1, -1, -1);
	}
}
