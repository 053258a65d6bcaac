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
