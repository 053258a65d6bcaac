package io.sawmill.redis.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisFuture;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.PipelineConfig;
import io.sawmill.redis.PipelineResult;
import io.sawmill.redis.RedisBatchWriter.Sent;

/**
 * A batch counts as written only once {@link PipelineConfig#waitForReplicas()} replicas confirmed
 * it: the batch's await sends Redis {@code WAIT} on the batch's connection, after the batch's
 * commands, so it covers all of them, and reads its reply. When fewer replicas confirmed it in
 * {@link PipelineConfig#replicaTimeout()}, every command of the batch fails with
 * {@link NotConfirmed}, a transient failure: the batch is written again and its offsets are not
 * committed. That is what keeps a failover from losing committed records. The replica a Sentinel
 * promotes stops replicating from the old master, so whatever the old master acknowledges after
 * that is never confirmed, and the old master drops it when it becomes the new master's replica.
 * <p>
 * A standalone or Sentinel-managed connection only: on Redis Cluster, {@code WAIT} would have to go
 * to every master the batch touched.
 */
final class ReplicaWait {

	private ReplicaWait() {
	}

	/**
	 * The batch {@code sent}, awaited with a {@code WAIT} that goes out when the batch is awaited,
	 * not when it is sent: by then the thread has usually sent its next batch, and Redis works on
	 * that one while the replica applies this one ({@code WAIT} covers every write the connection
	 * sent before it).
	 */
	static Sent after(Sent sent, DedicatedConnection connection, List<RedisWrite> writes, PipelineConfig config,
			long deadline) {
		AtomicLong waited = new AtomicLong();
		return new Sent() {
			@Override
			public PipelineResult await() {
				PipelineResult result = sent.await();
				if (LettucePipelinedWriter.isConnectionFailure(result.failures())) {
					// the connection is replaced; what it wrote before it failed is not known to be replicated
					return failEveryOther(result, writes,
							new NotConfirmed("the connection failed before the batch could be confirmed", null));
				}
				long asked = System.nanoTime();
				RedisFuture<Long> confirmed;
				try {
					confirmed = connection.commands().waitForReplication(config.waitForReplicas(),
							config.replicaTimeout().toMillis());
					connection.flush();
				}
				catch (RuntimeException ex) {
					return failEveryOther(result, writes, new NotConfirmed("WAIT could not be sent: " + ex, ex));
				}
				NotConfirmed shortfall = shortfall(confirmed, config, deadline);
				waited.set(System.nanoTime() - asked);
				return shortfall == null ? result : failEveryOther(result, writes, shortfall);
			}

			/**
			 * The batch's last reply, moved on by how long {@code WAIT} took: the round trip is the
			 * batch's plus its replication, without the work the thread did in between.
			 */
			@Override
			public long lastReplyNanos() {
				return sent.lastReplyNanos() + waited.get();
			}
		};
	}

	/** Why the batch is not confirmed, or null when enough replicas confirmed it. */
	private static NotConfirmed shortfall(RedisFuture<Long> confirmed, PipelineConfig config, long deadline) {
		try {
			long replicas = confirmed.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			return replicas >= config.waitForReplicas() ? null
					: new NotConfirmed(replicas + " of " + config.waitForReplicas() + " replicas confirmed the batch within "
							+ config.replicaTimeout() + " (sawmill.pipeline.wait-for-replicas, replica-timeout)", null);
		}
		catch (ExecutionException ex) {
			return new NotConfirmed("WAIT failed: " + ex.getCause(), ex.getCause());
		}
		catch (TimeoutException ex) {
			return new NotConfirmed("no reply to WAIT within " + config.timeout() + " (sawmill.pipeline.timeout)", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return new NotConfirmed("interrupted while waiting for WAIT", ex);
		}
	}

	/** The batch's own failures, and {@code cause} for every command that did not fail on its own. */
	private static PipelineResult failEveryOther(PipelineResult result, List<RedisWrite> writes, NotConfirmed cause) {
		List<PipelineResult.Failure> failures = new ArrayList<>(writes.size());
		List<PipelineResult.Failure> sorted = new ArrayList<>(result.failures());
		sorted.sort(Comparator.comparingInt(PipelineResult.Failure::index));
		Iterator<PipelineResult.Failure> own = sorted.iterator();
		PipelineResult.Failure next = own.hasNext() ? own.next() : null;
		for (int i = 0; i < writes.size(); i++) {
			if (next != null && next.index() == i) {
				failures.add(next);
				next = own.hasNext() ? own.next() : null;
			}
			else {
				failures.add(new PipelineResult.Failure(i, writes.get(i), cause));
			}
		}
		return new PipelineResult(result.commands(), result.chunks(), failures);
	}

	/**
	 * Fewer replicas than {@code sawmill.pipeline.wait-for-replicas} confirmed a batch: a transient
	 * failure, which also replaces the connection, so that a Sentinel-managed one is opened to the
	 * master the Sentinels name now.
	 */
	static final class NotConfirmed extends RuntimeException {

		private static final long serialVersionUID = 1L;

		NotConfirmed(String message, Throwable cause) {
			super(message, cause);
		}
	}
}
