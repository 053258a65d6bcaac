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
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;

import org.jspecify.annotations.Nullable;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.RedisBatchWriter.Sent;

/**
 * Sends a batch through Lettuce's async API, its commands queued on the connection's
 * endpoint and flushed once per chunk: when the writer cannot reach the channels (a
 * standalone connection that is reconnecting, or a Lettuce that hides the channel; on
 * Redis Cluster {@link SlotSend} writes to the masters' channels otherwise). On a cluster
 * connection, a write that a MOVED or ASK redirect let a later write to its key overtake
 * is reported as a transient failure ({@link KeyOrder}), so that it is written again in
 * order.
 * <p>
 * Shared by the writing threads; each batch's state is its own.
 */
final class EndpointSend {

	private final PipelineConfig config;

	EndpointSend(PipelineConfig config) {
		this.config = config;
	}

	/**
	 * Queues the batch's commands on the connection, flushing once per chunk; the
	 * returned batch awaits their replies until {@code deadline}.
	 */
	Sent send(Link connection, List<RedisWrite> writes, long deadline) {
		List<RedisFuture<?>> replies = new ArrayList<>(writes.size());
		BatchReplies arrivals = new BatchReplies(writes.size());
		SlotRouting cluster = connection instanceof SlotRouting routing ? routing : null;
		// on a cluster connection, whether redirects let a write to a key overtake an
		// earlier one
		KeyOrder.Batch ordered = cluster != null ? cluster.keyOrder().batch(writes.size(), arrivals) : null;
		// on a cluster connection, the master each command went to, whose link may go
		// down
		@Nullable RedisClusterNode @Nullable [] routes = cluster != null ? new RedisClusterNode[writes.size()] : null;
		int chunks = 0;
		int inChunk = 0;
		int max = config.maxCommandsPerChunk();
		try {
			if (cluster != null) {
				cluster.connectMasters();
			}
			for (int i = 0; i < writes.size(); i++) {
				RedisWrite write = writes.get(i);
				if (cluster != null && routes != null) {
					routes[i] = cluster.routeOf(write.key());
				}
				RedisFuture<?> reply = CommandDispatcher.dispatch(connection.commands(), write);
				reply.whenComplete(ordered == null ? arrivals : ordered.track(write, i));
				replies.add(reply);
				if (++inChunk == max) {
					connection.flush();
					chunks++;
					inChunk = 0;
				}
			}
			if (inChunk > 0) {
				connection.flush();
				chunks++;
			}
		}
		catch (RuntimeException ex) {
			PipelineResult failed = ConnectionFailures.failed(writes, chunks, replies, ex);
			return () -> failed;
		}
		int flushes = chunks;
		return arrivals.sent(() -> {
			Arrival arrival = awaitArrivals(connection, arrivals, replies, routes, deadline);
			List<PipelineResult.Failure> failures = outcomes(writes, replies, arrival);
			// when some reply never arrived, the connection is replaced, and its key
			// order with it
			if (ordered != null && arrival == Arrival.ALL) {
				failures = ordered.completed(writes, failures);
			}
			return new PipelineResult(writes.size(), flushes, failures, stale(writes, replies, failures));
		});
	}

	/** How the wait for a batch's replies ended. */
	private enum Arrival {

		ALL, TIMED_OUT, INTERRUPTED

	}

	/**
	 * Waits until every reply's callback ran, in slices. Between them it fails the
	 * replies whose link is down ({@link DeadLinks}), and flushes: a command that Lettuce
	 * sends again after a MOVED or ASK redirect (while slots move between masters) is
	 * queued on the other master's connection, whose auto-flush is off as well, and would
	 * otherwise wait there until the timeout. It waits on the callbacks' count, never on
	 * the replies' futures: a thread waiting on a future may run that future's callbacks
	 * itself, later than the event loop runs those of the replies after it, and
	 * {@link KeyOrder} needs them in the order each master replied.
	 */
	private static Arrival awaitArrivals(Link connection, BatchReplies arrivals, List<RedisFuture<?>> replies,
			@Nullable RedisClusterNode @Nullable [] routes, long deadline) {
		try {
			while (!arrivals
				.await(Math.max(0, Math.min(DeadLinks.CHECK_INTERVAL_NANOS, deadline - System.nanoTime())))) {
				if (deadline - System.nanoTime() <= 0) {
					return Arrival.TIMED_OUT;
				}
				DeadLinks.failDown(connection, replies, routes);
				connection.flush();
			}
			return Arrival.ALL;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Arrival.INTERRUPTED;
		}
	}

	/**
	 * The positions of the writes that succeeded with a reply that says they were not
	 * applied.
	 */
	private static List<Integer> stale(List<RedisWrite> writes, List<RedisFuture<?>> replies,
			List<PipelineResult.Failure> failures) {
		List<Integer> stale = new ArrayList<>(0);
		int f = 0;
		for (int i = 0; i < replies.size(); i++) {
			while (f < failures.size() && failures.get(f).index() < i) {
				f++;
			}
			boolean failed = f < failures.size() && failures.get(f).index() == i;
			if (!failed && writes.get(i) instanceof RedisWrite.Function
					&& CommandDispatcher.stale(writes.get(i), replies.get(i).toCompletableFuture().getNow(null))) {
				stale.add(i);
			}
		}
		return stale;
	}

	/** The failure of each reply that is an error, and of each that did not arrive. */
	private List<PipelineResult.Failure> outcomes(List<RedisWrite> writes, List<RedisFuture<?>> replies,
			Arrival arrival) {
		List<PipelineResult.Failure> failures = new ArrayList<>(0);
		for (int i = 0; i < replies.size(); i++) {
			RedisFuture<?> reply = replies.get(i);
			Throwable cause;
			if (!reply.isDone()) {
				cause = arrival == Arrival.INTERRUPTED ? new InterruptedException()
						: ConnectionFailures.timeout(config.timeout());
			}
			else {
				try {
					reply.get();
					continue;
				}
				catch (ExecutionException ex) {
					cause = ex.getCause() != null ? ex.getCause() : ex;
				}
				catch (CancellationException | InterruptedException ex) {
					cause = ex;
				}
			}
			failures.add(new PipelineResult.Failure(i, writes.get(i), cause));
		}
		return failures;
	}

}
