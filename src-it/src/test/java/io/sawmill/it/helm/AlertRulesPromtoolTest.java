package io.sawmill.it.helm;

import static io.sawmill.it.helm.SawmillChart.list;
import static io.sawmill.it.helm.SawmillChart.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The alert rules the chart renders, checked by Prometheus' own {@code promtool check rules}: the
 * rule file format and every expression, parsed by Prometheus itself. promtool comes with Debian's
 * {@code prometheus} package, which {@code .ci/run} installs; on a machine without it this test is
 * skipped, except under CI, where it fails.
 */
class AlertRulesPromtoolTest {

  @Test
  void shouldPassPromtoolCheckRules(@TempDir Path dir) throws Exception {
    Optional<Path> promtool = onPath("promtool");
    if (promtool.isEmpty() && System.getenv("CI") != null) {
      throw new AssertionError("promtool is not installed: apt-get install -y prometheus");
    }
    assumeTrue(promtool.isPresent(), "promtool not on PATH (apt-get install -y prometheus)");

    SawmillChart.Manifests keda = render("keda");
    Path rules = dir.resolve("sawmill.rules.yaml");
    Files.writeString(rules, new Yaml().dump(Map.of("groups", list(keda.one("PrometheusRule"), "spec.groups"))));

    Process check = new ProcessBuilder(promtool.get().toString(), "check", "rules", rules.toString())
        .redirectErrorStream(true).start();
    assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(check.exitValue()).as(output).isZero();
    assertThat(output).contains("SUCCESS").doesNotContain("FAILED");
  }

  private static Optional<Path> onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, command);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
