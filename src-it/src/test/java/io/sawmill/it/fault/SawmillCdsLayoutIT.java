package io.sawmill.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.lettuce.core.RedisURI;
import io.sawmill.it.support.Kafka;
import io.sawmill.it.support.RealServers;
import io.sawmill.it.support.SawmillApp;

/**
 * The start-up layout the build packages ({@code sawmill-app/target/sawmill-app}: the extracted jar
 * and the CDS archive of its start-up classes), run the way README.md starts it, is the same
 * service: it starts with the archive mapped ({@code -Xshare:on} refuses to start otherwise), writes
 * every key's last version with its TTL, commits every offset, and stops on SIGTERM.
 */
class SawmillCdsLayoutIT {

	private static final String TOPIC = "cds-layout";
	private static final String GROUP = "cds-layout";
	private static final int PARTITIONS = 3;
	private static final VersionedEvents EVENTS = new VersionedEvents(5_000, 1_000);

	@RegisterExtension
	static final RealServers servers = RealServers.withTopic(TOPIC, PARTITIONS).andTopic(TOPIC + ".DLT", PARTITIONS);

	@Test
	@Timeout(value = 4, unit = TimeUnit.MINUTES)
	void shouldWriteEveryRecordAndCommitEveryOffsetWhenStartedWithTheCdsArchive() throws Exception {
		Map<String, Object> properties = SawmillApp.baseProperties(servers, TOPIC, GROUP);
		properties.put("sawmill.concurrency", 2);
		EVENTS.produce(servers.kafka().bootstrapServers(), TOPIC, 0, EVENTS.records());
		try (RedisReadBack readBack = RedisReadBack.of(RedisURI.create(servers.redis().host(), servers.redis().port()));
				Admin admin = Kafka.admin(servers.kafka().bootstrapServers());
				SawmillProcess sawmill = SawmillProcess.startFromCdsLayout(properties,
						FaultAssertions.target("startup-logs").resolve("cds-layout.log"))) {
			try {
				Map<TopicPartition, Long> end = Kafka.endOffsets(admin, TOPIC, PARTITIONS);
				await("every offset committed").atMost(Duration.ofSeconds(150))
					.pollInterval(Duration.ofMillis(250))
					.failFast("the JVM exited (the archive could not be used?)", () -> !sawmill.isAlive())
					.ignoreExceptions()
					.until(() -> FaultAssertions.uncommitted(admin, GROUP, end) == 0);
				assertThat(readBack.verify(EVENTS, FaultAssertions.TTL).allVerified())
					.as("every key at its last version, with the TTL").isTrue();
				assertThat(sawmill.terminate()).as("stops on SIGTERM").isLessThan(Duration.ofSeconds(30));
			}
			catch (AssertionError | RuntimeException ex) {
				throw new AssertionError(ex.getMessage() + "\n--- Sawmill's log:\n" + sawmill.logTail(), ex);
			}
		}
	}
}
