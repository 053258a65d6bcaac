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
import java.util.Objects;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.netty.channel.Channel;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.RedisBatchWriter.Sent;

/**
 * Sends a batch on a Redis Cluster connection, routed by slot and encoded up front: the
 * batch is cut into chunks of at most {@link PipelineConfig#maxCommandsPerChunk()}
 * commands in list order; each chunk's commands are grouped by the master that serves
 * their slot ({@link SlotRoutes}), keeping their order, and each group is encoded by
 * {@link RespEncoder} and written to that master's channel as one message of
 * {@link ReplySlot}s, as {@link ChannelSend} does on a standalone connection. The await
 * waits for every master's replies until one deadline.
 * <p>
 * <b>Redirects.</b> Lettuce redirects nothing written to a master's channel: a write
 * whose slot has moved ({@code MOVED}) or is migrating ({@code ASK}) is answered with
 * that error and not applied. Such a write is <em>redirected</em> ({@link SlotReplies}).
 * Once every write of the batch has its first reply, the await refreshes the topology
 * when some reply was {@code MOVED}, then sends the redirected writes again, in batch
 * order, through Lettuce's cluster API (which routes them by the refreshed topology and
 * follows any further {@code MOVED} or {@code ASK} itself), flushing every
 * {@link DeadLinks#CHECK_INTERVAL_NANOS} while their replies are missing. A group whose
 * master had no channel when the batch was sent goes the same way. Only the redirected
 * writes take Lettuce's API.
 * <p>
 * <b>Why per-key order holds.</b> A key's writes share one slot, so a batch routes them
 * all to one master's channel, in list order; each chunk goes out before the next, and a
 * thread's batches are sent one after the other, so one master applies them in the order
 * the thread sent them. Only a redirected write can be applied later than sent. Its key's
 * later writes of the same batch were sent after it to the same master, which answers
 * them alike (the slot still moved, or the key still not there) unless the slot's state
 * changed in between, and they are sent again after it, in order. The next batch, sent
 * while this one is in flight, is routed by the same topology unless something refreshed
 * it in between, so its writes to the key are redirected too, and sent again in its own
 * await, after this batch's. In every other case (a periodic or adaptive topology
 * refresh, another thread's refresh, a migration ending or aborted between two writes) a
 * later write can be applied first, and {@link SlotReplies} sees it: a write sent again
 * that Redis acknowledged after a later write to its key (of its batch, or of the next
 * batch, in flight) is reported as a transient failure ({@link KeyOrder.Overtaken}), so
 * that the listener writes it again together with every later write to its keys, in
 * order.
 * <p>
 * Shared by the writing threads; each batch's state is its own.
 */
final class SlotSend {

	private final PipelineConfig config;

	/**
	 * As in {@link ChannelSend}: sizes the next chunk's arrays; a stale value only costs
	 * a regrowth.
	 */
	private volatile int bytesPerCommand = 128;

	SlotSend(PipelineConfig config) {
		this.config = config;
	}

	/**
	 * Writes the batch's chunks to the masters' channels; the returned batch awaits their
	 * replies until {@code deadline}.
	 */
	Sent send(SlotRouting connection, List<RedisWrite> writes, long deadline) {
		int count = writes.size();
		SlotRoutes routes;
		try {
			connection.connectMasters();
			routes = SlotRoutes.of(connection, writes);
		}
		catch (RuntimeException ex) {
			PipelineResult failed = ConnectionFailures.failed(writes, 0, List.of(), ex);
			return () -> failed;
		}
		ReplySlot[] slots = new ReplySlot[count];
		SlotReplies replies = connection.slotOrder().next(slots);
		int chunks = writeChunks(writes, routes, replies, slots);
		return replies.first().sent(() -> collect(connection, writes, slots, routes, replies, chunks, deadline));
	}

	/**
	 * Encodes each chunk's commands per master and writes each master's share to its
	 * channel as one message, or hands it over to be sent through Lettuce's API when the
	 * master has no channel.
	 * @return how many chunks
	 */
	private int writeChunks(List<RedisWrite> writes, SlotRoutes routes, SlotReplies replies, ReplySlot[] slots) {
		int count = writes.size();
		int groups = routes.groups();
		int max = config.maxCommandsPerChunk();
		int perGroup = Math.min(max, count) / groups + 16;
		int chunks = 0;
		long encodedBytes = 0;
		RespEncoder[] encodings = new RespEncoder[groups];
		List<List<ReplySlot>> messages = new ArrayList<>(groups);
		for (int start = 0; start < count; start += max) {
			int end = Math.min(count, start + max);
			Arrays.fill(encodings, null);
			messages.clear();
			for (int group = 0; group < groups; group++) {
				messages.add(null);
			}
			for (int i = start; i < end; i++) {
				int group = routes.groupOf(i);
				if (encodings[group] == null) {
					encodings[group] = new RespEncoder(
							(int) Math.min(ChannelSend.MAX_INITIAL_CHUNK_BYTES, (long) perGroup * bytesPerCommand));
					// a message of its own: the event loop reads it while the next chunk
					// is built
					messages.set(group, new ArrayList<>(perGroup));
				}
				slots[i] = new ReplySlot(writes.get(i), i, encodings[group], replies);
				messages.get(group).add(slots[i]);
			}
			for (int group = 0; group < groups; group++) {
				if (encodings[group] == null) {
					continue;
				}
				encodedBytes += encodings[group].size();
				Channel channel = routes.channel(group);
				if (channel != null) {
					ChannelSend.write(channel, messages.get(group));
				}
				else {
					messages.get(group).forEach(ReplySlot::redirect);
				}
			}
			chunks++;
		}
		bytesPerCommand = (int) Math.min(1 << 20, encodedBytes / count + 8);
		return chunks;
	}

	private PipelineResult collect(SlotRouting connection, List<RedisWrite> writes, ReplySlot[] slots,
			SlotRoutes routes, SlotReplies replies, int flushes, long deadline) {
		try {
			return outcomes(connection, writes, slots, routes, replies, flushes, deadline);
		}
		finally {
			replies.done();
		}
	}

	private PipelineResult outcomes(SlotRouting connection, List<RedisWrite> writes, ReplySlot[] slots,
			SlotRoutes routes, SlotReplies replies, int flushes, long deadline) {
		boolean interrupted = false;
		boolean complete = false;
		try {
			complete = awaitFirstReplies(connection, routes, slots, replies.first(), deadline)
					&& (!replies.anyRedirected() || sendAgain(connection, replies, deadline));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			interrupted = true;
		}
		PipelineResult result = ChannelSend.outcomes(writes, slots, flushes, interrupted, config);
		if (!complete) {
			// some reply never arrived: the connection is replaced, and its key order
			// with it
			return result;
		}
		List<PipelineResult.Failure> failures = replies.completed(writes, result.failures());
		return failures == result.failures() ? result : new PipelineResult(result.commands(), flushes, failures,
				ChannelSend.notFailed(result.stale(), failures));
	}

	/**
	 * Waits for every write's first reply, in slices; between them fails the writes of a
	 * master whose link is down ({@link DeadLinks}), and has the topology refreshed then.
	 * @return whether every first reply arrived before {@code deadline}
	 */
	private static boolean awaitFirstReplies(SlotRouting connection, SlotRoutes routes, ReplySlot[] slots,
			BatchReplies first, long deadline) throws InterruptedException {
		long left;
		while (!first
			.await(Math.min(DeadLinks.CHECK_INTERVAL_NANOS, Math.max(0, left = deadline - System.nanoTime())))) {
			if (left <= 0) {
				return false;
			}
			DeadLinks.failDown(connection, routes, slots);
		}
		return true;
	}

	/**
	 * Sends the redirected writes again through Lettuce's cluster API, in batch order,
	 * after a topology refresh when some reply was {@code MOVED}, and waits for their
	 * outcomes.
	 * @return whether every outcome arrived before {@code deadline}
	 */
	private static boolean sendAgain(SlotRouting connection, SlotReplies replies, long deadline)
			throws InterruptedException {
		if (replies.moved()) {
			connection.refreshTopologyNow(deadline);
		}
		List<ReplySlot> again = replies.resending();
		if (again.isEmpty()) {
			return true;
		}
		List<RedisFuture<?>> futures = new ArrayList<>(again.size());
		RedisClusterNode[] routes = new RedisClusterNode[again.size()];
		try {
			for (ReplySlot slot : again) {
				routes[futures.size()] = connection.routeOf(slot.write().key());
				RedisFuture<?> future = CommandDispatcher.dispatch(connection.commands(), slot.write());
				future.whenComplete(slot::completeWith);
				futures.add(future);
			}
			connection.flush();
		}
		catch (RuntimeException ex) {
			again.forEach(slot -> slot.completeExceptionally(ex));
			return true;
		}
		// not null: the writes were sent again above
		BatchReplies resent = Objects.requireNonNull(replies.resent());
		while (!resent.await(Math.max(0, Math.min(DeadLinks.CHECK_INTERVAL_NANOS, deadline - System.nanoTime())))) {
			if (deadline - System.nanoTime() <= 0) {
				return false;
			}
			// a command Lettuce redirects again waits on the other master's connection
			// for a flush
			DeadLinks.failDown(connection, futures, routes);
			connection.flush();
		}
		return true;
	}

}
