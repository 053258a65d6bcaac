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
package io.sawmill.listener.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A share group's settings that Sawmill relies on, set through the admin client at
 * start-up.
 */
public final class ShareGroups {

	private static final Logger log = LoggerFactory.getLogger(ShareGroups.class);

	/** The group setting of where a new share group starts reading. */
	static final String AUTO_OFFSET_RESET = "share.auto.offset.reset";

	private ShareGroups() {
	}

	/**
	 * Has a share group start from the earliest record, unless an operator set
	 * {@value #AUTO_OFFSET_RESET} on the group: Kafka's default, {@code latest}, would
	 * skip what the topic already holds when the group is new, which the consumer group
	 * mode does not.
	 * @throws IllegalStateException when the broker cannot be asked or refuses
	 */
	public static void startFromEarliestUnlessSet(Admin admin, String groupId, Duration timeout) {
		ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, groupId);
		try {
			Config config = admin.describeConfigs(List.of(group))
				.all()
				.get(timeout.toMillis(), TimeUnit.MILLISECONDS)
				.get(group);
			ConfigEntry reset = config != null ? config.get(AUTO_OFFSET_RESET) : null;
			if (reset != null && reset.source() == ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG) {
				log.info("Share group '{}' starts at {} ({} set on the group)", groupId, reset.value(),
						AUTO_OFFSET_RESET);
				return;
			}
			admin
				.incrementalAlterConfigs(
						Map.of(group,
								List.of(new AlterConfigOp(new ConfigEntry(AUTO_OFFSET_RESET, "earliest"),
										AlterConfigOp.OpType.SET))))
				.all()
				.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("Could not set " + AUTO_OFFSET_RESET + " of share group '" + groupId + "': "
					+ (ex.getCause() != null ? ex.getCause() : ex), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
