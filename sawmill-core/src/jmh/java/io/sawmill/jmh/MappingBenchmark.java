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
package io.sawmill.jmh;

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
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.json.JsonHashMapper;

/**
 * The map step of Sawmill's data path: one JSON record (id + 5 fields × 20 bytes, the end-to-end
 * workload) into its HSET + EXPIRE, and a whole 1,000-record batch gathered into one list of writes
 * as the listener does; each also through the same mapping configured as a declarative HASH route
 * ({@link Records#hashRoute()}), whose throughput issue 20 asks to be the mapper's. Scores are per record; run with {@code -prof gc} for bytes allocated per record
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
	private RecordMapper hashRoute;
	private ConsumerRecord<byte[], byte[]> record;
	private List<ConsumerRecord<byte[], byte[]>> batch;

	@Setup
	public void setUp() {
		mapper = Records.mapper();
		hashRoute = Records.hashRoute();
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
		return mapAndGroup(mapper);
	}

	/** As {@link #mapOneRecord}, through the HASH route: the topic's route, then the same steps. */
	@Benchmark
	public List<RedisWrite> mapOneRecordWithHashRoute() {
		return hashRoute.map(record);
	}

	/** As {@link #mapAndGroupBatch}, through the HASH route (per record). */
	@Benchmark
	@OperationsPerInvocation(BATCH)
	public List<RedisWrite> mapAndGroupBatchWithHashRoute() {
		return mapAndGroup(hashRoute);
	}

	private List<RedisWrite> mapAndGroup(RecordMapper each) {
		List<RedisWrite> writes = new ArrayList<>(BATCH * 2);
		for (ConsumerRecord<byte[], byte[]> one : batch) {
			writes.addAll(each.map(one));
		}
		return writes;
	}
}
