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
package io.sawmill.it.fault;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;

/** A consumer group as the broker sees it, for waiting on joins and leaves. */
final class ConsumerGroups {

	private ConsumerGroups() {
	}

	static ConsumerGroupDescription describe(Admin admin, String group) throws Exception {
		return admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get(10, TimeUnit.SECONDS);
	}

	/** Partitions assigned to some member: all of them once the group is stable. */
	static long assignedPartitions(ConsumerGroupDescription group) {
		return group.members().stream().mapToLong(member -> member.assignment().topicPartitions().size()).sum();
	}

}
