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
package io.sawmill.redis.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.lettuce.core.protocol.CommandType;
import io.netty.channel.Channel;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.RedisBatchWriter.Sent;
import io.sawmill.redis.internal.TransactionalBatchWriter.FencedException;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;

/**
 * Sends fenced transactions on a standalone (or Sentinel-managed) connection, in one
 * pipelined round trip: each as {@code WATCH <fence>}, its fence ({@link FenceSlot}),
 * {@code MULTI}, its writes, {@code EXEC}, written to the channel in chunks like
 * {@link ChannelSend}'s. Each write's reply is {@code +QUEUED} or an error at queue time;
 * the {@code EXEC}'s reply ({@link ExecSlot}) holds each write's reply when the
 * transaction ran, or is null when the fence failed it. A write's outcome combines the
 * three ({@link io.sawmill.redis.internal.TransactionalBatchWriter#sendTransactions}
 * states it).
 * <p>
 * Shared by the writing threads; each batch's state is its own.
 */
final class TransactionSend {

	private static final byte[] MULTI = RespEncoder.encodedCommand("MULTI");

	private static final int BYTES_PER_COMMAND = 64;

	/** The commands of the writer's own around each transaction's writes. */
	private static final int FRAMING = 4;

	private final PipelineConfig config;

	TransactionSend(PipelineConfig config) {
		this.config = config;
	}

	/**
	 * Writes the transactions' chunks to {@code channel}; the returned batch awaits their
	 * replies until {@code deadline}.
	 */
	Sent send(Channel channel, List<Transaction> transactions, long deadline) {
		int writes = 0;
		for (Transaction transaction : transactions) {
			writes += transaction.writes().size();
		}
		int total = writes + FRAMING * transactions.size();
		int max = config.maxCommandsPerChunk();
		BatchReplies replies = new BatchReplies(total);
		ReplySlot[] all = new ReplySlot[total];
		ReplySlot[] queued = new ReplySlot[writes];
		FenceSlot[] fences = new FenceSlot[transactions.size()];
		ExecSlot[] execs = new ExecSlot[transactions.size()];
		int slot = 0;
		int chunkStart = 0;
		int write = 0;
		int chunks = 0;
		RespEncoder encoding = new RespEncoder(Math.min(max, total) * BYTES_PER_COMMAND);
		for (int t = 0; t < transactions.size(); t++) {
			Transaction transaction = transactions.get(t);
			all[slot++] = FenceSlot.watch(transaction, encoding, replies);
			fences[t] = FenceSlot.of(transaction, encoding, replies);
			all[slot++] = fences[t];
			all[slot++] = new ReplySlot(CommandType.MULTI, MULTI, encoding, replies);
			for (RedisWrite each : transaction.writes()) {
				if (slot - chunkStart == max) {
					ChannelSend.write(channel, Arrays.asList(all).subList(chunkStart, slot));
					chunks++;
					chunkStart = slot;
					encoding = new RespEncoder(Math.min(max, total - slot) * BYTES_PER_COMMAND);
				}
				ReplySlot queuedSlot = new ReplySlot(each, write, encoding, replies);
				queued[write++] = queuedSlot;
				all[slot++] = queuedSlot;
			}
			execs[t] = new ExecSlot(transaction.writes(), encoding, replies);
			all[slot++] = execs[t];
		}
		ChannelSend.write(channel, Arrays.asList(all).subList(chunkStart, slot));
		int flushes = chunks + 1;
		return replies
			.sent(() -> collect(channel, transactions, all, queued, fences, execs, replies, flushes, deadline));
	}

	private PipelineResult collect(Channel channel, List<Transaction> transactions, ReplySlot[] all, ReplySlot[] queued,
			FenceSlot[] fences, ExecSlot[] execs, BatchReplies replies, int flushes, long deadline) {
		boolean interrupted = !ChannelSend.awaitReplies(channel, all, replies, deadline);
		List<PipelineResult.Failure> failures = new ArrayList<>(0);
		List<Integer> stale = new ArrayList<>(0);
		int index = 0;
		for (int t = 0; t < transactions.size(); t++) {
			Transaction transaction = transactions.get(t);
			List<RedisWrite> writes = transaction.writes();
			Throwable whole = outcome(transaction, fences[t], execs[t]);
			for (int w = 0; w < writes.size(); w++, index++) {
				Throwable cause = outcome(queued[index], whole, execs[t], w);
				if (cause == NO_REPLY) {
					cause = interrupted ? new InterruptedException() : ConnectionFailures.timeout(config.timeout());
				}
				if (cause != null) {
					failures.add(new PipelineResult.Failure(index, writes.get(w), cause));
				}
				else if (execs[t].staleAt(w)) {
					stale.add(index);
				}
			}
		}
		return new PipelineResult(index, flushes, failures, stale);
	}

	/** Marks a reply that has not arrived. */
	private static final Throwable NO_REPLY = new Throwable("no reply", null, false, false) {
		private static final long serialVersionUID = 1L;

	};

	/**
	 * Why a transaction as a whole did not apply, or may not have: the {@code EXEC}'s
	 * error or missing reply, the fence's (the transaction may have applied unfenced), or
	 * a {@link FencedException}; null when the transaction applied.
	 */
	private static @Nullable Throwable outcome(Transaction transaction, FenceSlot fence, ExecSlot exec) {
		if (!exec.succeeded()) {
			return exec.failure() != null ? exec.failure() : NO_REPLY;
		}
		if (!fence.succeeded()) {
			return fence.failure() != null ? fence.failure() : NO_REPLY;
		}
		if (exec.aborted()) {
			return new FencedException(transaction.fence(), transaction.expected(), !fence.held());
		}
		return null;
	}

	/**
	 * Why the {@code w}th write of a transaction failed, or null when it applied: its own
	 * queue-time error, else why the transaction did not apply ({@code whole}), else its
	 * error when the transaction ran.
	 */
	private static @Nullable Throwable outcome(ReplySlot queued, @Nullable Throwable whole, ExecSlot exec, int w) {
		if (!queued.succeeded()) {
			return queued.failure() != null ? queued.failure() : NO_REPLY;
		}
		if (whole != null) {
			return whole;
		}
		return exec.errorOf(w);
	}

}
