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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.netty.channel.Channel;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.internal.RedisBatchWriter.Sent;
import io.sawmill.redis.internal.TransactionalBatchWriter.Keyspace;
import io.sawmill.redis.internal.TransactionalBatchWriter.Transaction;

/**
 * Sends fenced transactions on a Redis Cluster connection: every key of a transaction
 * lies in its fence's slot, so each goes whole to the master that serves that slot. The
 * transactions of one master go to its channel as one {@link TransactionSend}, in list
 * order; the masters' round trips overlap, and the await waits for every one until the
 * same deadline. Nothing is redirected: a transaction whose slot moved applies nothing
 * (its writes are answered {@code MOVED} or {@code ASK} when queued, and its {@code EXEC}
 * with {@code EXECABORT}), fails with the redirect, and has the topology refreshed for
 * the next attempt. A transaction whose master has no channel (being connected,
 * reconnecting, or no master serves the slot) fails at once.
 * <p>
 * Shared by the writing threads; each batch's state is its own.
 */
final class SlotTransactionSend {

	private final TransactionSend send;

	SlotTransactionSend(TransactionSend send) {
		this.send = send;
	}

	/**
	 * Writes each master's transactions to its channel; the returned batch awaits their
	 * replies until {@code deadline}.
	 * @param writes the transactions' writes, concatenated
	 */
	Sent send(SlotRouting connection, List<Transaction> transactions, List<RedisWrite> writes, long deadline) {
		try {
			connection.connectMasters();
		}
		catch (RuntimeException ex) {
			PipelineResult failed = ConnectionFailures.failed(writes, 0, List.of(), ex);
			return () -> failed;
		}
		Map<Channel, Share> byMaster = new LinkedHashMap<>();
		List<PipelineResult.Failure> unsent = new ArrayList<>(0);
		int first = 0;
		for (Transaction transaction : transactions) {
			RedisClusterNode master = connection.routeOf(transaction.fence());
			Channel channel = connection.masterChannel(master);
			if (channel == null) {
				RedisConnectionException cause = new RedisConnectionException(
						"no link to the Redis master of slot " + Keyspace.slotOf(transaction.fence())
								+ (master != null ? " (" + master.getUri() + ")" : "") + " is open");
				for (int w = 0; w < transaction.writes().size(); w++) {
					unsent.add(new PipelineResult.Failure(first + w, transaction.writes().get(w), cause));
				}
			}
			else {
				byMaster.computeIfAbsent(channel, c -> new Share()).add(transaction, first);
			}
			first += transaction.writes().size();
		}
		List<Sent> sent = new ArrayList<>(byMaster.size());
		byMaster.forEach((channel, share) -> sent.add(send.send(channel, share.transactions, deadline)));
		List<Share> shares = List.copyOf(byMaster.values());
		return new Sent() {
			private long lastReply = System.nanoTime();

			@Override
			public PipelineResult await() {
				PipelineResult result = collect(shares, sent, unsent);
				if (result.failures().stream().anyMatch(SlotTransactionSend::redirected)) {
					connection.refreshTopology();
				}
				return result;
			}

			@Override
			public long lastReplyNanos() {
				for (Sent each : sent) {
					lastReply = Math.max(lastReply, each.lastReplyNanos());
				}
				return sent.isEmpty() ? System.nanoTime() : lastReply;
			}
		};
	}

	/**
	 * Every master's result, its indexes turned into positions in {@code writes}, with
	 * the failures of the transactions not sent.
	 */
	private static PipelineResult collect(List<Share> shares, List<Sent> sent, List<PipelineResult.Failure> unsent) {
		List<PipelineResult.Failure> failures = new ArrayList<>(unsent);
		List<Integer> stale = new ArrayList<>(0);
		int commands = 0;
		int chunks = 0;
		for (int m = 0; m < shares.size(); m++) {
			Share share = shares.get(m);
			PipelineResult result = sent.get(m).await();
			commands += result.commands();
			chunks = Math.max(chunks, result.chunks());
			result.failures()
				.forEach(failure -> failures.add(new PipelineResult.Failure(share.positions.get(failure.index()),
						failure.write(), failure.cause())));
			result.stale().forEach(index -> stale.add(share.positions.get(index)));
		}
		failures.sort((a, b) -> Integer.compare(a.index(), b.index()));
		stale.sort(null);
		return new PipelineResult(commands, chunks, failures, stale);
	}

	private static boolean redirected(PipelineResult.Failure failure) {
		String message = failure.cause().getMessage();
		return message != null && (message.startsWith("MOVED ") || message.startsWith("ASK "));
	}

	/**
	 * One master's transactions, and where each of their writes is in the batch's writes.
	 */
	private static final class Share {

		private final List<Transaction> transactions = new ArrayList<>();

		private final List<Integer> positions = new ArrayList<>();

		void add(Transaction transaction, int first) {
			transactions.add(transaction);
			for (int w = 0; w < transaction.writes().size(); w++) {
				positions.add(first + w);
			}
		}

	}

}
