package io.sawmill.listener;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.sawmill.deadletter.DeadLetter;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.redis.FailureClass;
import io.sawmill.redis.PipelineResult;

/**
 * What one round trip did to each record sent, computed once from its replies by {@link #of}, a pure
 * function. A record whose writes all succeeded is done. A record with a {@link FailureClass#PERMANENT}
 * failure and no transient one is a dead letter. A record with a {@link FailureClass#TRANSIENT}
 * failure is to be sent again, together with every later record of the round trip that writes one
 * of its keys, so that per key the writes stay in offset order.
 * <p>
 * A failed command fails every record it carries ({@link WritePlan}): with coalescing, every record
 * folded into it.
 * <p>
 * The pipeline retries by it and the circuit breaker counts a round trip with transient failures
 * as failed by it.
 *
 * A record that is done but one of whose writes Redis reported as stale ({@link PipelineResult#stale()})
 * is in {@code stale}: it changed nothing, because Redis holds a newer version.
 *
 * @param retry the records to send again, in their original order
 * @param permanent the records Redis rejected, as dead letters
 * @param stale the records done without effect, because Redis holds a newer version
 * @param result the round trip's replies
 */
record Outcomes(List<MappedRecord> retry, List<DeadLetter> permanent, List<ConsumerRecord<byte[], byte[]>> stale,
		PipelineResult result) {

	/**
	 * @param plan the round trip's commands and the records each carries
	 * @param result the replies to the plan's commands, in the same order
	 */
	static Outcomes of(WritePlan plan, PipelineResult result) {
		if (result.succeeded() && result.stale().isEmpty()) {
			return new Outcomes(List.of(), List.of(), List.of(), result);
		}
		List<MappedRecord> records = plan.records();
		boolean[] staleWrite = new boolean[records.size()];
		for (int index : result.stale()) {
			for (int r : plan.carriedBy(index)) {
				staleWrite[r] = true;
			}
		}
		Throwable[] transientCause = new Throwable[records.size()];
		Throwable[] permanentCause = new Throwable[records.size()];
		for (PipelineResult.Failure failure : result.failures()) {
			Throwable[] causes = FailureClass.of(failure.cause()) == FailureClass.TRANSIENT ? transientCause
					: permanentCause;
			for (int r : plan.carriedBy(failure.index())) {
				if (causes[r] == null) {
					causes[r] = failure.cause();
				}
			}
		}
		List<MappedRecord> retry = new ArrayList<>(0);
		List<DeadLetter> permanent = new ArrayList<>(0);
		List<ConsumerRecord<byte[], byte[]>> stale = new ArrayList<>(0);
		Set<ByteBuffer> retriedKeys = new HashSet<>();
		for (int r = 0; r < records.size(); r++) {
			MappedRecord record = records.get(r);
			boolean sharesRetriedKey = !retriedKeys.isEmpty() && writesAnyOf(record, retriedKeys);
			if (transientCause[r] != null || sharesRetriedKey) {
				retry.add(record);
				record.writes().forEach(write -> retriedKeys.add(ByteBuffer.wrap(write.key())));
			}
			else if (permanentCause[r] != null) {
				permanent.add(new DeadLetter(record.record(), "Redis rejected a write: " + permanentCause[r].getMessage(),
						permanentCause[r]));
			}
			else if (staleWrite[r]) {
				stale.add(record.record());
			}
		}
		return new Outcomes(retry, permanent, stale, result);
	}

	/** Whether some record must be sent again. */
	boolean hasTransientFailures() {
		return !retry.isEmpty();
	}

	private static boolean writesAnyOf(MappedRecord record, Set<ByteBuffer> keys) {
		for (RedisWrite write : record.writes()) {
			if (keys.contains(ByteBuffer.wrap(write.key()))) {
				return true;
			}
		}
		return false;
	}
}
