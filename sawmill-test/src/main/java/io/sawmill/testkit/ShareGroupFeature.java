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
package io.sawmill.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;

/**
 * Share groups (KIP-932) on a test broker: the broker settings for a short acquisition
 * lock, and the {@code share.version} feature finalized at level 1 when the broker was
 * formatted without it.
 */
public final class ShareGroupFeature {

	/** The feature that turns share groups on. */
	public static final String FEATURE = "share.version";

	private ShareGroupFeature() {
	}

	/**
	 * Broker settings: the default acquisition lock of every share group, with Kafka's
	 * floor for it lowered to 1 s, and the share groups' state topic
	 * ({@code __share_group_state}) on one broker, with 3 partitions rather than 50.
	 */
	public static Map<String, String> brokerSettings(Duration recordLock) {
		String lock = Long.toString(recordLock.toMillis());
		return Map.of("group.share.min.record.lock.duration.ms", "1000", "group.share.record.lock.duration.ms", lock,
				"share.coordinator.state.topic.replication.factor", "1", "share.coordinator.state.topic.min.isr", "1",
				"share.coordinator.state.topic.num.partitions", "3");
	}

	/**
	 * Waits until the share group has {@code members} members, each assigned a partition:
	 * records produced after that reach every member, rather than all going to the one
	 * that joined first.
	 * @throws IllegalStateException when that has not happened within {@code timeout}
	 */
	public static void awaitMembers(String bootstrapServers, String group, int members, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
			int assigned = 0;
			while (System.nanoTime() < deadline) {
				try {
					assigned = (int) admin.describeShareGroups(List.of(group))
						.all()
						.get(10, TimeUnit.SECONDS)
						.get(group)
						.members()
						.stream()
						.filter(member -> !member.assignment().topicPartitions().isEmpty())
						.count();
				}
				catch (ExecutionException | TimeoutException notYet) {
					assigned = 0;
				}
				if (assigned >= members) {
					return;
				}
				Thread.sleep(100);
			}
			throw new IllegalStateException("share group " + group + " has " + assigned + " of " + members
					+ " members with partitions after " + timeout);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** Finalizes {@value #FEATURE} at level 1 unless it already is. */
	public static void enable(String bootstrapServers) {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
			FinalizedVersionRange finalized = admin.describeFeatures()
				.featureMetadata()
				.get(30, TimeUnit.SECONDS)
				.finalizedFeatures()
				.get(FEATURE);
			if (finalized != null && finalized.maxVersionLevel() >= 1) {
				return;
			}
			admin
				.updateFeatures(Map.of(FEATURE, new FeatureUpdate((short) 1, FeatureUpdate.UpgradeType.UPGRADE)),
						new UpdateFeaturesOptions())
				.all()
				.get(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("could not enable share groups (" + FEATURE + "=1): " + ex, ex);
		}
	}

}
