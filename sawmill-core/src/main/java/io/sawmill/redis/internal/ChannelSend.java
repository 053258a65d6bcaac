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
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.redis.internal.RedisBatchWriter.Sent;

/**
 * Sends a batch on a standalone (or Sentinel-managed) connection: each chunk is written
 * to the connection's channel as one message of {@link ReplySlot}s, encoded up front by
 * {@link RespEncoder}. Lettuce's command handler puts a chunk's commands on its reply
 * stack in order and encodes them into one buffer: one event loop task, one buffer and
 * one flush per chunk, one small object per command. A run of consecutive version-guarded
 * writes goes as one {@link ApplySlot}, each write keeping its own outcome.
 * <p>
 * Shared by the writing threads; each batch's state is its own.
 */
final class ChannelSend {

	/** A chunk's array starts no larger than this and grows as its commands need. */
	static final int MAX_INITIAL_CHUNK_BYTES = 64 << 20;

	private final PipelineConfig config;

	/**
	 * The average encoded size of the last batch's commands, to size the next chunk's
	 * array so it rarely grows. Shared by the threads without locking: a stale value only
	 * costs a regrowth.
	 */
	private volatile int bytesPerCommand = 128;

	ChannelSend(PipelineConfig config) {
		this.config = config;
	}

	/**
	 * Writes the batch's chunks to {@code channel}; the returned batch awaits their
	 * replies until {@code deadline}.
	 */
	Sent send(Channel channel, List<RedisWrite> writes, long deadline) {
		int count = writes.size();
		int max = config.maxCommandsPerChunk();
		BatchReplies replies = new BatchReplies(count);
		ReplySlot[] slots = new ReplySlot[count];
		int chunks = 0;
		long encodedBytes = 0;
		for (int start = 0; start < count; start += max) {
			int end = Math.min(count, start + max);
			RespEncoder encoding = new RespEncoder(
					(int) Math.min(MAX_INITIAL_CHUNK_BYTES, (long) (end - start) * bytesPerCommand));
			List<ReplySlot> message = new ArrayList<>(end - start);
			for (int i = start; i < end;) {
				RedisWrite write = writes.get(i);
				int run = VersionGuard.batchable(write) ? ApplySlot.run(writes, i, end) : 1;
				if (run > 1) {
					message.add(ApplySlot.of(writes, i, run, encoding, slots, replies));
					i += run;
				}
				else {
					message.add(slots[i] = new ReplySlot(write, i, encoding, replies));
					i++;
				}
			}
			encodedBytes += encoding.size();
			write(channel, message);
			chunks++;
		}
		bytesPerCommand = (int) Math.min(1 << 20, encodedBytes / count + 8);
		int flushes = chunks;
		return replies.sent(() -> collect(channel, writes, slots, replies, flushes, deadline));
	}

	/**
	 * Writes {@code message} to {@code channel} as one message: one event-loop task, one
	 * buffer, one flush. When the write fails, every slot of it fails with the cause.
	 */
	static void write(Channel channel, List<ReplySlot> message) {
		ChannelPromise written = channel.newPromise();
		written.addListener(future -> {
			if (!future.isSuccess()) {
				message.forEach(slot -> slot.completeExceptionally(future.cause()));
			}
		});
		channel.writeAndFlush(message, written);
	}

	private PipelineResult collect(Channel channel, List<RedisWrite> writes, ReplySlot[] slots, BatchReplies replies,
			int flushes, long deadline) {
		boolean interrupted = !awaitReplies(channel, slots, replies, deadline);
		return outcomes(writes, slots, flushes, interrupted, config);
	}

	/**
	 * Waits for the replies of {@code slots} until {@code deadline}, in slices: replies
	 * that cannot arrive, because the channel died, fail at once.
	 * @return false when the thread was interrupted (its interrupt flag is set again)
	 */
	static boolean awaitReplies(Channel channel, ReplySlot[] slots, BatchReplies replies, long deadline) {
		try {
			long left;
			while (!replies
				.await(Math.min(DeadLinks.CHECK_INTERVAL_NANOS, Math.max(0, left = deadline - System.nanoTime())))
					&& left > 0) {
				DeadLinks.failIfInactive(channel, slots);
			}
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * The stale writes that are not among {@code failures} (a failed write is sent
	 * again).
	 */
	static List<Integer> notFailed(List<Integer> stale, List<PipelineResult.Failure> failures) {
		if (stale.isEmpty()) {
			return List.of();
		}
		Set<Integer> failed = new HashSet<>();
		failures.forEach(failure -> failed.add(failure.index()));
		return stale.stream().filter(index -> !failed.contains(index)).toList();
	}

	/**
	 * Each slot's outcome, after the batch's await: its failure, or a timeout (an
	 * interruption) when it has none yet; and the stale writes.
	 */
	static PipelineResult outcomes(List<RedisWrite> writes, ReplySlot[] slots, int flushes, boolean interrupted,
			PipelineConfig config) {
		List<PipelineResult.Failure> failures = new ArrayList<>(0);
		List<Integer> stale = new ArrayList<>(0);
		for (int i = 0; i < slots.length; i++) {
			ReplySlot slot = slots[i];
			if (slot.stale()) {
				stale.add(i);
			}
			else if (!slot.succeeded()) {
				Throwable cause = slot.failure();
				failures.add(new PipelineResult.Failure(i, writes.get(i), cause != null ? cause
						: interrupted ? new InterruptedException() : ConnectionFailures.timeout(config.timeout())));
			}
		}
		return new PipelineResult(slots.length, flushes, failures, stale);
	}

}
