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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.PipelineConfig;
import io.sawmill.redis.PipelineResult;
import io.sawmill.redis.RedisBatchWriter.Sent;

/**
 * A batch counts as written only once {@link PipelineConfig#waitForReplicas()} replicas
 * confirmed it: the batch's await sends Redis {@code WAIT} after the batch's commands, on
 * the connection that carried them, so it covers all of them, and reads its reply. On a
 * standalone or Sentinel-managed connection that is one {@code WAIT}; on Redis Cluster,
 * one on each master connection that carried part of the batch (the connection
 * slot-routed commands go to), and each master's reply decides for its share of the batch
 * only. When fewer replicas confirmed a share in {@link PipelineConfig#replicaTimeout()},
 * or its link failed first, every command of that share fails with {@link NotConfirmed},
 * a transient failure: it is written again and its offsets are not committed. That is
 * what keeps a failover from losing committed records. The replica that is promoted (by a
 * Sentinel, or by the cluster's vote) stops replicating from the old master, so whatever
 * the old master acknowledges after that is never confirmed, and the old master drops it
 * when it becomes the new master's replica.
 * <p>
 * On a cluster, a command is counted in the share of the master its slot was routed to
 * when the batch was sent. A command that a MOVED or ASK redirect sent on to another
 * master is confirmed by that master's {@code WAIT} when the batch also carried commands
 * to it.
 */
final class ReplicaWait {

	private ReplicaWait() {
	}

	/**
	 * The batch {@code sent}, awaited with {@code WAIT}s that go out when the batch is
	 * awaited, not when it is sent: by then the thread has usually sent its next batch,
	 * and Redis works on that one while the replicas apply this one ({@code WAIT} covers
	 * every write the connection sent before it). Called right after the batch was sent,
	 * while the routing is the one its commands took.
	 */
	static Sent after(Sent sent, Link connection, List<RedisWrite> writes, PipelineConfig config, long deadline) {
		Shares shares = Shares.of(connection, writes);
		AtomicLong waited = new AtomicLong();
		return new Sent() {
			@Override
			public PipelineResult await() {
				PipelineResult result = sent.await();
				long asked = System.nanoTime();
				NotConfirmed[] causes = shares.confirm(connection, result, config, deadline);
				waited.set(System.nanoTime() - asked);
				return failUnconfirmed(result, writes, shares, causes);
			}

			/**
			 * The batch's last reply, moved on by how long {@code WAIT} took: the round
			 * trip is the batch's plus its replication, without the work the thread did
			 * in between.
			 */
			@Override
			public long lastReplyNanos() {
				return sent.lastReplyNanos() + waited.get();
			}
		};
	}

	/**
	 * The batch's own failures, and for every other command of a share that was not
	 * confirmed, that share's cause; in index order.
	 */
	private static PipelineResult failUnconfirmed(PipelineResult result, List<RedisWrite> writes, Shares shares,
			NotConfirmed[] causes) {
		boolean anyUnconfirmed = false;
		for (NotConfirmed cause : causes) {
			anyUnconfirmed |= cause != null;
		}
		if (!anyUnconfirmed) {
			return result;
		}
		PipelineResult.Failure[] byIndex = new PipelineResult.Failure[writes.size()];
		result.failures().forEach(failure -> byIndex[failure.index()] = failure);
		List<PipelineResult.Failure> failures = new ArrayList<>(writes.size());
		for (int i = 0; i < writes.size(); i++) {
			NotConfirmed cause = causes[shares.of(i)];
			if (byIndex[i] != null) {
				failures.add(byIndex[i]);
			}
			else if (cause != null) {
				failures.add(new PipelineResult.Failure(i, writes.get(i), cause));
			}
		}
		return new PipelineResult(result.commands(), result.chunks(), failures,
				ChannelSend.notFailed(result.stale(), failures));
	}

	/**
	 * The parts of a batch that one {@code WAIT} each confirms: the whole batch on a
	 * standalone connection, each master's commands on a cluster connection.
	 */
	private static final class Shares {

		/**
		 * The master of each share, or a single null for the one link of a standalone
		 * connection.
		 */
		private final List<@Nullable RedisClusterNode> masters;

		/** The share of each command; null when there is one share. */
		private final int @Nullable [] shareOf;

		private Shares(List<@Nullable RedisClusterNode> masters, int @Nullable [] shareOf) {
			this.masters = masters;
			this.shareOf = shareOf;
		}

		static Shares of(Link connection, List<RedisWrite> writes) {
			// standalone or Sentinel-managed: one link
			if (!(connection instanceof SlotRouting cluster)) {
				return new Shares(Collections.singletonList(null), null);
			}
			// by host and port: the routing's node objects change with each topology
			// refresh
			Map<String, Integer> byAddress = new LinkedHashMap<>();
			List<RedisClusterNode> masters = new ArrayList<>(3);
			int[] shareOf = new int[writes.size()];
			for (int i = 0; i < writes.size(); i++) {
				RedisClusterNode master = cluster.routeOf(writes.get(i).key());
				String address = master == null ? "" : master.getUri().getHost() + ":" + master.getUri().getPort();
				Integer share = byAddress.get(address);
				if (share == null) {
					share = masters.size();
					byAddress.put(address, share);
					masters.add(master);
				}
				shareOf[i] = share;
			}
			return new Shares(masters, shareOf);
		}

		int of(int index) {
			return shareOf == null ? 0 : shareOf[index];
		}

		/**
		 * Sends a {@code WAIT} for each share whose link did not fail, then reads their
		 * replies.
		 * @return per share, why it is not confirmed, or null when enough replicas
		 * confirmed it
		 */
		@Nullable NotConfirmed[] confirm(Link connection, PipelineResult result, PipelineConfig config, long deadline) {
			NotConfirmed[] causes = new NotConfirmed[masters.size()];
			boolean[] linkFailed = new boolean[masters.size()];
			result.failures()
				.forEach(failure -> linkFailed[of(failure.index())] |= ConnectionFailures
					.isConnectionFailure(List.of(failure)));
			List<RedisFuture<Long>> confirmed = new ArrayList<>(masters.size());
			try {
				for (int share = 0; share < masters.size(); share++) {
					RedisClusterNode master = masters.get(share);
					if (linkFailed[share]) {
						// the connection is replaced; what it wrote before it failed is
						// not known to be replicated
						causes[share] = new NotConfirmed(
								"the connection" + to(master) + " failed before the batch could be confirmed", null);
						confirmed.add(null);
						continue;
					}
					if (master == null && shareOf != null) {
						causes[share] = new NotConfirmed("no Redis master served the slot when the batch was sent",
								null);
						confirmed.add(null);
						continue;
					}
					RedisClusterAsyncCommands<byte[], byte[]> commands = connection.commandsTo(master, deadline);
					if (commands == null) {
						causes[share] = new NotConfirmed("no connection" + to(master) + " to send WAIT on", null);
						confirmed.add(null);
						continue;
					}
					confirmed
						.add(commands.waitForReplication(config.waitForReplicas(), config.replicaTimeout().toMillis()));
				}
				connection.flush();
			}
			catch (RuntimeException ex) {
				NotConfirmed unsent = new NotConfirmed("WAIT could not be sent: " + ex, ex);
				Arrays.fill(causes, unsent);
				return causes;
			}
			for (int share = 0; share < masters.size(); share++) {
				if (confirmed.get(share) != null) {
					causes[share] = shortfall(confirmed.get(share), masters.get(share), config, deadline);
				}
			}
			return causes;
		}

		/** Why a share is not confirmed, or null when enough replicas confirmed it. */
		private static @Nullable NotConfirmed shortfall(RedisFuture<Long> confirmed, @Nullable RedisClusterNode master,
				PipelineConfig config, long deadline) {
			try {
				long replicas = confirmed.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				return replicas >= config.waitForReplicas() ? null
						: new NotConfirmed(replicas + " of " + config.waitForReplicas() + " replicas" + of(master)
								+ " confirmed the batch within " + config.replicaTimeout()
								+ " (sawmill.pipeline.wait-for-replicas, replica-timeout)", null);
			}
			catch (ExecutionException ex) {
				return new NotConfirmed("WAIT failed" + on(master) + ": " + ex.getCause(), ex.getCause());
			}
			catch (TimeoutException ex) {
				return new NotConfirmed(
						"no reply to WAIT" + on(master) + " within " + config.timeout() + " (sawmill.pipeline.timeout)",
						ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return new NotConfirmed("interrupted while waiting for WAIT", ex);
			}
		}

		private static String to(@Nullable RedisClusterNode master) {
			return master == null ? "" : " to Redis master " + address(master);
		}

		private static String of(@Nullable RedisClusterNode master) {
			return master == null ? "" : " of Redis master " + address(master);
		}

		private static String on(@Nullable RedisClusterNode master) {
			return master == null ? "" : " on Redis master " + address(master);
		}

		private static String address(RedisClusterNode master) {
			return master.getUri().getHost() + ":" + master.getUri().getPort();
		}

	}

	/**
	 * Fewer replicas than {@code sawmill.pipeline.wait-for-replicas} confirmed (a share
	 * of) a batch: a transient failure, which also replaces the connection, so that a
	 * Sentinel-managed one is opened to the master the Sentinels name now, and a cluster
	 * one routes by a refreshed topology.
	 */
	static final class NotConfirmed extends RuntimeException {

		private static final long serialVersionUID = 1L;

		NotConfirmed(String message, @Nullable Throwable cause) {
			super(message, cause);
		}

	}

}
