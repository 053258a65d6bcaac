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
import java.util.Locale;
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
import io.sawmill.redis.ReplicaShortfallPolicy;
import io.sawmill.redis.internal.RedisBatchWriter.Sent;

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
 * A share not confirmed by as many replicas as were asked for is followed by the master's
 * {@code INFO replication}: with fewer replicas attached than
 * {@link PipelineConfig#waitForReplicas()}, the master is short
 * ({@link AttachedReplicas}), and its shares are refused for
 * {@link PipelineConfig#replicaShortfallGrace()}, then confirmed by the replicas attached
 * or still refused, as {@link PipelineConfig#replicaShortfall()} says. While a master is
 * short, every {@code WAIT} on it is followed by its {@code INFO replication}, so the
 * batch after a replica attached ends the shortfall.
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
	static Sent after(Sent sent, Link connection, List<RedisWrite> writes, PipelineConfig config,
			AttachedReplicas attached, long deadline) {
		Shares shares = Shares.of(connection, writes);
		AtomicLong waited = new AtomicLong();
		return new Sent() {
			@Override
			public PipelineResult await() {
				PipelineResult result = sent.await();
				long asked = System.nanoTime();
				NotConfirmed[] causes = shares.confirm(connection, result, config, attached, deadline);
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
		 * Sends a {@code WAIT} for each share whose link did not fail, and an
		 * {@code INFO replication} after it to each master known to be short of replicas,
		 * then reads their replies.
		 * @return per share, why it is not confirmed, or null when enough replicas
		 * confirmed it
		 */
		@Nullable NotConfirmed[] confirm(Link connection, PipelineResult result, PipelineConfig config, AttachedReplicas attached,
				long deadline) {
			NotConfirmed[] causes = new NotConfirmed[masters.size()];
			boolean[] linkFailed = new boolean[masters.size()];
			result.failures()
				.forEach(failure -> linkFailed[of(failure.index())] |= ConnectionFailures
					.isConnectionFailure(List.of(failure)));
			List<@Nullable Confirmation> confirmations = new ArrayList<>(masters.size());
			try {
				for (int share = 0; share < masters.size(); share++) {
					RedisClusterNode master = masters.get(share);
					confirmations.add(null);
					if (linkFailed[share]) {
						// the connection is replaced; what it wrote before it failed is
						// not known to be replicated
						causes[share] = new NotConfirmed(
								"the connection" + to(master) + " failed before the batch could be confirmed", null);
						continue;
					}
					if (master == null && shareOf != null) {
						causes[share] = new NotConfirmed("no Redis master served the slot when the batch was sent",
								null);
						continue;
					}
					RedisClusterAsyncCommands<byte[], byte[]> commands = connection.commandsTo(master, deadline);
					if (commands == null) {
						causes[share] = new NotConfirmed("no connection" + to(master) + " to send WAIT on", null);
						continue;
					}
					confirmations.set(share, Confirmation.send(commands, name(master), config, attached));
				}
				connection.flush();
			}
			catch (RuntimeException ex) {
				NotConfirmed unsent = new NotConfirmed("WAIT could not be sent: " + ex, ex);
				Arrays.fill(causes, unsent);
				return causes;
			}
			for (int share = 0; share < masters.size(); share++) {
				Confirmation confirmation = confirmations.get(share);
				if (confirmation != null) {
					causes[share] = confirmation.shortfall(connection, masters.get(share), config, attached, deadline);
				}
			}
			return causes;
		}

		/** How a master is named in the shortfalls: its address, or {@code master}. */
		private static String name(@Nullable RedisClusterNode master) {
			return master == null ? "master" : address(master);
		}

		static String to(@Nullable RedisClusterNode master) {
			return master == null ? "" : " to Redis master " + address(master);
		}

		static String of(@Nullable RedisClusterNode master) {
			return master == null ? "" : " of Redis master " + address(master);
		}

		static String on(@Nullable RedisClusterNode master) {
			return master == null ? "" : " on Redis master " + address(master);
		}

		static String address(RedisClusterNode master) {
			return master.getUri().getHost() + ":" + master.getUri().getPort();
		}

	}

	/**
	 * One share's {@code WAIT}, and the master's {@code INFO replication} when it is
	 * known to be short of replicas, sent on the link that carried the share.
	 */
	private static final class Confirmation {

		private final RedisClusterAsyncCommands<byte[], byte[]> commands;

		private final String master;

		private final int asked;

		private final RedisFuture<Long> confirmed;

		private @Nullable RedisFuture<String> replication;

		private Confirmation(RedisClusterAsyncCommands<byte[], byte[]> commands, String master, int asked,
				RedisFuture<Long> confirmed, @Nullable RedisFuture<String> replication) {
			this.commands = commands;
			this.master = master;
			this.asked = asked;
			this.confirmed = confirmed;
			this.replication = replication;
		}

		/**
		 * Queues {@code WAIT} for the replicas {@code attached} says to wait for on
		 * {@code master}, and {@code INFO replication} after it while the master is short
		 * of replicas, so that the batch sees a replica attach; not flushed.
		 */
		static Confirmation send(RedisClusterAsyncCommands<byte[], byte[]> commands, String master,
				PipelineConfig config, AttachedReplicas attached) {
			int asked = attached.toWaitFor(master, config);
			RedisFuture<Long> confirmed = commands.waitForReplication(asked, config.replicaTimeout().toMillis());
			return new Confirmation(commands, master, asked, confirmed,
					attached.isShort(master) ? commands.info("replication") : null);
		}

		/**
		 * Why the share is not confirmed, or null when enough replicas confirmed it: as
		 * many as were asked for, or, for a master short of replicas past the grace with
		 * {@code replica-shortfall=proceed}, as many as it has attached. When fewer
		 * confirmed it than were asked for, the master is asked how many replicas it has
		 * attached (on this path only, one more round trip).
		 */
		@Nullable NotConfirmed shortfall(Link connection, @Nullable RedisClusterNode node, PipelineConfig config,
				AttachedReplicas attached, long deadline) {
			long replicas;
			int online;
			try {
				replicas = confirmed.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				if (replicas < asked && replication == null) {
					replication = commands.info("replication");
					connection.flush();
				}
				online = replication == null ? -1 : AttachedReplicas
					.online(replication.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
			}
			catch (ExecutionException ex) {
				return new NotConfirmed("WAIT failed" + Shares.on(node) + ": " + ex.getCause(), ex.getCause());
			}
			catch (TimeoutException ex) {
				return new NotConfirmed("no reply to WAIT" + Shares.on(node) + " within " + config.timeout()
						+ " (sawmill.pipeline.timeout)", ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return new NotConfirmed("interrupted while waiting for WAIT", ex);
			}
			ReplicaShortfall shortfall = online < 0 ? null : attached.attached(master, online, config);
			if (replicas >= asked || shortfall != null && shortfall.state() == ReplicaShortfall.State.PROCEEDING
					&& replicas >= Math.min(online, config.waitForReplicas())) {
				return null;
			}
			String notConfirmed = replicas + " of " + asked + " replicas" + Shares.of(node)
					+ " confirmed the batch within " + config.replicaTimeout()
					+ " (sawmill.pipeline.wait-for-replicas, replica-timeout)";
			return new NotConfirmed(
					shortfall == null ? notConfirmed : notConfirmed + "; " + describe(shortfall, config), null);
		}

		private static String describe(ReplicaShortfall shortfall, PipelineConfig config) {
			String attachedNow = "it has " + shortfall.attached() + " replica(s) attached";
			return switch (shortfall.state()) {
				case WAITING -> attachedNow + ", short since " + shortfall.since() + ": refused for "
						+ config.replicaShortfallGrace() + " (sawmill.pipeline.replica-shortfall-grace), then "
						+ (config.replicaShortfall() == ReplicaShortfallPolicy.PROCEED
								? "written with the replicas attached" : "still refused")
						+ " (sawmill.pipeline.replica-shortfall="
						+ config.replicaShortfall().name().toLowerCase(Locale.ROOT) + ")";
				case REFUSING -> attachedNow + ", short since " + shortfall.since()
						+ ": refused until a replica attaches (sawmill.pipeline.replica-shortfall=refuse)";
				case PROCEEDING -> attachedNow + ", and fewer confirmed it";
			};
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
