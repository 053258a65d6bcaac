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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import io.sawmill.listener.Delivery;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.PipelineResult;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;

/**
 * The write plan of one round trip with {@link Delivery#EXACTLY_ONCE}, and what its
 * replies did to each record: pure functions, without a network.
 * <p>
 * {@link #plan} groups the records by {@link Fence} (in offset order within each: a
 * partition, or on a Redis Cluster a partition's records in one hash slot) and makes each
 * fence's share one transaction: its writes (coalesced per share when configured), then
 * {@code SET <watermark key> <last offset + 1>}, the transaction's last write
 * ({@link WritePlan#endsTransaction}), which carries every record of the share. The
 * transaction is fenced by the watermark the thread knows ({@link Transaction}): it
 * applies only while Redis holds that watermark, so a share another writer applied first
 * applies nothing. {@link Outcomes#of} reads the replies: the watermark's {@code SET}
 * failed when the transaction did not apply ({@code EXECABORT} after an error at queue
 * time, {@code EXEC} refused) or it is not known whether it did (no reply); it succeeded
 * when the transaction applied, watermark included.
 *
 * @param plan every share's writes and watermark, concatenated, with the records each
 * carries
 * @param transactions each share's fenced transaction, in the order of {@code shares}
 * @param shares each fence's share: its fence, its watermark to be, and where its writes
 * are in {@code plan}
 * @param coalesced how many of the records' writes are not sent as commands of their own
 * ({@link WritePlan#coalesced()} of each share)
 */
record PartitionTransactions(WritePlan plan, List<Transaction> transactions, List<Share> shares, int coalesced) {

	/**
	 * One fence's share.
	 *
	 * @param fence the fence: the partition, or the partition in one hash slot
	 * @param next the offset after the share's last record: its watermark once the
	 * transaction applied
	 * @param watermarkWrite the position of the watermark's {@code SET} in the plan's
	 * writes
	 */
	record Share(Fence fence, long next, int watermarkWrite) {
	}

	/**
	 * @param records the records to write, in poll order (so per partition in offset
	 * order)
	 * @param fenceOf the fence of a record
	 * @param watermarkKey the key of a fence's watermark
	 * @param coalesce whether each share's writes are coalesced ({@link Coalescer})
	 */
	static PartitionTransactions plan(List<MappedRecord> records, Function<MappedRecord, Fence> fenceOf,
			Function<Fence, byte[]> watermarkKey, boolean coalesce) {
		return plan(records, List.of(), fenceOf, Map.of(), watermarkKey, coalesce);
	}

	/**
	 * As above, with the records that came again below their fence's watermark: a fence
	 * that has only such records gets a share of its own that sets its watermark again
	 * (to {@code watermarks}' value, so nothing changes). A batch of duplicates alone is
	 * then committed only after a round trip that the writer confirmed as it confirms any
	 * ({@code wait-for-replicas}): replicas apply writes in order, so one that has this
	 * {@code SET} has the transaction that moved the watermark, too. The watermark's
	 * {@code SET} carries the partition's duplicates, so they fail with it.
	 * @param duplicates the records below their fence's watermark, in poll order
	 * @param watermarks the watermark the thread knows of each fence (a fence without one
	 * has had nothing applied): what its transaction expects; every fence of
	 * {@code duplicates} has one
	 */
	static PartitionTransactions plan(List<MappedRecord> records, List<MappedRecord> duplicates,
			Function<MappedRecord, Fence> fenceOf, Map<Fence, Long> watermarks, Function<Fence, byte[]> watermarkKey,
			boolean coalesce) {
		Map<Fence, List<MappedRecord>> byFence = byFence(records, fenceOf);
		Map<Fence, List<MappedRecord>> duplicated = byFence(duplicates, fenceOf);
		duplicated.keySet().forEach(fence -> byFence.putIfAbsent(fence, List.of()));
		List<MappedRecord> all = new ArrayList<>(records.size() + duplicates.size());
		List<RedisWrite> writes = new ArrayList<>(records.size() * 2 + byFence.size());
		List<int[]> carried = new ArrayList<>(records.size() * 2 + byFence.size());
		List<Transaction> transactions = new ArrayList<>(byFence.size());
		List<Share> shares = new ArrayList<>(byFence.size());
		int[] coalesced = { 0 };
		byFence.forEach((fence, share) -> {
			int base = all.size();
			WritePlan own = coalesce ? Coalescer.plan(share) : WritePlan.oneToOne(share);
			coalesced[0] += own.coalesced();
			List<RedisWrite> transaction = new ArrayList<>(own.writes().size() + 1);
			for (int w = 0; w < own.writes().size(); w++) {
				transaction.add(own.writes().get(w));
				int[] ownRecords = own.carriedBy(w);
				int[] shifted = new int[ownRecords.length];
				for (int i = 0; i < ownRecords.length; i++) {
					shifted[i] = base + ownRecords[i];
				}
				carried.add(shifted);
			}
			all.addAll(share);
			all.addAll(duplicated.getOrDefault(fence, List.of()));
			long next = share.isEmpty() ? Objects.requireNonNull(watermarks.get(fence), "a duplicate's watermark")
					: share.get(share.size() - 1).record().offset() + 1;
			byte[] key = watermarkKey.apply(fence);
			transaction.add(RedisWrite.command("SET", key, Long.toString(next).getBytes(StandardCharsets.US_ASCII)));
			int[] everyRecord = new int[all.size() - base];
			for (int i = 0; i < everyRecord.length; i++) {
				everyRecord[i] = base + i;
			}
			carried.add(everyRecord);
			writes.addAll(transaction);
			transactions.add(new Transaction(key, watermarks.getOrDefault(fence, 0L), transaction));
			shares.add(new Share(fence, next, writes.size() - 1));
		});
		int[] ends = shares.stream().mapToInt(Share::watermarkWrite).toArray();
		return new PartitionTransactions(new WritePlan(all, writes, carried, ends), transactions, shares, coalesced[0]);
	}

	private static Map<Fence, List<MappedRecord>> byFence(List<MappedRecord> records,
			Function<MappedRecord, Fence> fenceOf) {
		Map<Fence, List<MappedRecord>> byFence = new LinkedHashMap<>();
		for (MappedRecord record : records) {
			byFence.computeIfAbsent(fenceOf.apply(record), p -> new ArrayList<>()).add(record);
		}
		return byFence;
	}

	/** The watermark of every share whose transaction applied. */
	Map<Fence, Long> applied(PipelineResult result) {
		Map<Fence, Long> applied = new HashMap<>();
		Set<Integer> failed = new HashSet<>();
		result.failures().forEach(failure -> failed.add(failure.index()));
		for (Share share : shares) {
			if (!failed.contains(share.watermarkWrite())) {
				applied.put(share.fence(), share.next());
			}
		}
		return applied;
	}

	static TopicPartition partitionOf(ConsumerRecord<?, ?> record) {
		return new TopicPartition(record.topic(), record.partition());
	}
}
