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

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willAnswer;
import static org.mockito.Mockito.mock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a written batch's offsets reach Kafka, on a mocked {@link Consumer}: asynchronously
 * for full batches, synchronously once caught up and before a revoke, and never lost to a
 * failed asynchronous commit.
 */
class OffsetCommitsTests {

	private static final int BATCH_SIZE = 4;

	private static final TopicPartition P0 = new TopicPartition("events", 0);

	private static final TopicPartition P1 = new TopicPartition("events", 1);

	private static final TopicPartition P2 = new TopicPartition("events", 2);

	@SuppressWarnings("unchecked")
	private final Consumer<byte[], byte[]> consumer = mock(Consumer.class);

	private final Set<TopicPartition> assignment = new HashSet<>(Set.of(P0, P1, P2));

	/** Every commit, in order: "sync {…}" or "async {…}", as partition → offset. */
	private final List<String> commits = new ArrayList<>();

	/**
	 * The callbacks of asynchronous commits, for the test to complete them as Kafka
	 * would.
	 */
	private final List<Runnable> succeed = new ArrayList<>();

	private final List<Runnable> fail = new ArrayList<>();

	private final OffsetCommits offsets = new OffsetCommits();

	@BeforeEach
	@SuppressWarnings("unchecked")
	void recordCommits() {
		given(consumer.assignment()).willAnswer(invocation -> Set.copyOf(assignment));
		willAnswer(invocation -> commits.add("sync " + offsets(invocation.getArgument(0)))).given(consumer)
			.commitSync(anyMap());
		willAnswer(invocation -> {
			Map<TopicPartition, OffsetAndMetadata> sent = invocation.getArgument(0);
			OffsetCommitCallback callback = invocation.getArgument(1);
			commits.add("async " + offsets(sent));
			succeed.add(() -> callback.onComplete(sent, null));
			fail.add(() -> callback.onComplete(sent, new TimeoutException("coordinator unavailable")));
			return null;
		}).given(consumer).commitAsync(anyMap(), any(OffsetCommitCallback.class));
	}

	private static Map<Integer, Long> offsets(Map<TopicPartition, OffsetAndMetadata> commit) {
		Map<Integer, Long> offsets = new HashMap<>();
		commit.forEach((partition, offset) -> offsets.put(partition.partition(), offset.offset()));
		return offsets;
	}

	/** {@code count} records of {@code partition} from {@code first}. */
	private static List<ConsumerRecord<byte[], byte[]>> records(TopicPartition partition, long first, int count) {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (long offset = first; offset < first + count; offset++) {
			records.add(new ConsumerRecord<>(partition.topic(), partition.partition(), offset, null, null));
		}
		return records;
	}

	private static List<ConsumerRecord<byte[], byte[]>> concat(List<ConsumerRecord<byte[], byte[]>> a,
			List<ConsumerRecord<byte[], byte[]>> b) {
		List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>(a);
		all.addAll(b);
		return all;
	}

	@Test
	void shouldCommitEachPartitionsHighestOffsetPlusOneWhateverTheOrderOfItsRecords() {
		List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
		batch.addAll(records(P0, 10, 3));
		batch.addAll(records(P1, 7, 2));
		batch.addAll(records(new TopicPartition("other", 0), 4, 1));
		// P0 again, lower offsets, after other partitions
		batch.addAll(records(P0, 3, 2));
		batch.add(new ConsumerRecord<>(P1.topic(), P1.partition(), 20, null, null));
		// lower, after a higher one
		batch.add(new ConsumerRecord<>(P1.topic(), P1.partition(), 9, null, null));

		// each with Sawmill's metadata, which tells its commits from a group reset's
		assertThat(OffsetCommits.nextOffsets(batch))
			.isEqualTo(Map.of(P0, new OffsetAndMetadata(13, "sawmill"), P1, new OffsetAndMetadata(21, "sawmill"),
					new TopicPartition("other", 0), new OffsetAndMetadata(5, "sawmill")));
		assertThat(OffsetCommits.nextOffsets(List.of())).isEmpty();
	}

	@Test
	void shouldCommitAFullBatchAsynchronouslyAndABatchThatIsNotFullSynchronously() {
		commit(concat(records(P0, 10, 3), records(P1, 20, 1)));
		succeed.get(0).run();
		commit(records(P0, 13, 2));

		assertThat(commits).containsExactly("async {0=13, 1=21}", "sync {0=15}");
	}

	@Test
	void shouldSendOffsetsOfAFailedAsynchronousCommitWithTheNextSynchronousOne() {
		commit(concat(records(P0, 10, 2), records(P1, 20, 2)));
		fail.get(0).run();
		commit(records(P0, 12, 1));

		assertThat(commits).containsExactly("async {0=12, 1=22}", "sync {0=13, 1=22}");
	}

	@Test
	void shouldSendOffsetsOfAFailedAsynchronousCommitWithTheNextAsynchronousOne() {
		commit(records(P1, 20, 4));
		fail.get(0).run();
		commit(records(P0, 10, 4));

		assertThat(commits).containsExactly("async {1=24}", "async {0=14, 1=24}");
	}

	@Test
	void shouldNotSendAgainWhatAnAsynchronousCommitConfirmed() {
		commit(records(P1, 20, 4));
		succeed.get(0).run();
		commit(records(P0, 10, 4));
		commit(records(P0, 14, 1));

		assertThat(commits).containsExactly("async {1=24}", "async {0=14}", "sync {0=15}");
	}

	@Test
	void shouldKeepTheNewerOffsetWhenAnOlderCommitFailsAfterANewerOneWasSent() {
		commit(records(P0, 10, 4));
		commit(records(P0, 14, 4));
		fail.get(0).run();
		succeed.get(1).run();
		commit(records(P1, 20, 1));

		assertThat(commits).containsExactly("async {0=14}", "async {0=18}", "sync {1=21}");
	}

	@Test
	void shouldCommitUnconfirmedOffsetsOfRevokedPartitionsBeforeTheyGo() {
		commit(concat(records(P0, 10, 2), records(P1, 20, 2)));

		offsets.beforeRevoke(consumer, List.of(P1));
		assignment.remove(P1);
		commit(records(P0, 12, 1));

		assertThat(commits).containsExactly("async {0=12, 1=22}", "sync {1=22}", "sync {0=13}");
	}

	@Test
	void shouldNeverCommitForPartitionsThatWereLostOrAreNotAssigned() {
		commit(concat(records(P0, 10, 2), records(P1, 20, 2)));
		fail.get(0).run();

		offsets.lost(List.of(P1));
		assignment.remove(P1);
		commit(concat(records(P0, 12, 1), records(P2, 30, 1)));

		assertThat(commits).containsExactly("async {0=12, 1=22}", "sync {0=13, 2=31}");
	}

	@Test
	void shouldGiveUpPartitionsEvenWhenTheirLastCommitFails() {
		willAnswer(invocation -> {
			throw new TimeoutException("coordinator unavailable");
		}).given(consumer).commitSync(anyMap());
		commit(records(P1, 20, 4));

		offsets.beforeRevoke(consumer, List.of(P1));

		assertThat(commits).containsExactly("async {1=24}");
	}

	/**
	 * Commits as the lane does: asynchronously for a full batch, the consumer being
	 * behind.
	 */
	private void commit(List<ConsumerRecord<byte[], byte[]>> records) {
		offsets.commit(consumer, records, records.size() >= BATCH_SIZE);
	}

}
