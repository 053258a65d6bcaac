package io.sawmill.bench.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.json.JsonHashMapper;

/**
 * The map step of Sawmill's data path: one JSON record (id + 5 fields × 20 bytes, the end-to-end
 * workload) into its HSET + EXPIRE, and a whole 1,000-record batch gathered into one list of writes
 * as the listener does. Scores are per record; run with {@code -prof gc} for bytes allocated per record
 * ({@code gc.alloc.rate.norm}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class MappingBenchmark {

	static final int BATCH = 1000;

	private JsonHashMapper mapper;
	private ConsumerRecord<byte[], byte[]> record;
	private List<ConsumerRecord<byte[], byte[]>> batch;

	@Setup
	public void setUp() {
		mapper = Records.mapper();
		batch = Records.batch(BATCH);
		record = batch.get(42);
	}

	/** JSON bytes → [HSET, EXPIRE]: parse, flatten, resolve the key, encode fields as UTF-8. */
	@Benchmark
	public List<RedisWrite> mapOneRecord() {
		return mapper.map(record);
	}

	/** The listener's loop over a batch: map each record and gather all writes in one list (per record). */
	@Benchmark
	@OperationsPerInvocation(BATCH)
	public List<RedisWrite> mapAndGroupBatch() {
		List<RedisWrite> writes = new ArrayList<>(BATCH * 2);
		for (ConsumerRecord<byte[], byte[]> each : batch) {
			writes.addAll(mapper.map(each));
		}
		return writes;
	}
}
