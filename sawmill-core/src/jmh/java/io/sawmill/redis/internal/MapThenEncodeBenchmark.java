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
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.sawmill.jmh.Records;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.json.JsonHashMapper;

/**
 * Whether it matters when a record's writes are encoded: the listener maps the whole batch first
 * and the writer encodes it afterwards, by which time a large batch's hashes have left the CPU's
 * caches; encoding each record's writes right after mapping it reads them while they are still
 * there. Both do the same work and allocate the same (chunks of 2,000 commands, as the writer's
 * default). Scores are per batch (a JMH operation count cannot follow a parameter): divide by
 * {@code batchSize} for a record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class MapThenEncodeBenchmark {

	private static final int COMMANDS_PER_CHUNK = 2_000;

	@Param({ "1000", "10000" })
	public int batchSize;

	private JsonHashMapper mapper;

	private List<ConsumerRecord<byte[], byte[]>> batch;

	@Setup
	public void setUp() {
		mapper = Records.mapper();
		batch = Records.batch(batchSize);
	}

	/** The order of Sawmill's data path: map the batch into one list of writes, then encode them all. */
	@Benchmark
	public long mapBatchThenEncode() {
		List<RedisWrite> writes = new ArrayList<>(batchSize * 2);
		for (ConsumerRecord<byte[], byte[]> record : batch) {
			writes.addAll(mapper.map(record));
		}
		long encoded = 0;
		RespEncoder chunk = null;
		for (int i = 0; i < writes.size(); i++) {
			if (i % COMMANDS_PER_CHUNK == 0) {
				encoded += chunk == null ? 0 : chunk.size();
				chunk = new RespEncoder(COMMANDS_PER_CHUNK * 144);
			}
			chunk.append(writes.get(i));
		}
		return encoded + chunk.size() + writes.size();
	}

	/** Each record's writes encoded right after it is mapped, into the same chunks. */
	@Benchmark
	public long mapAndEncodeEachRecord() {
		List<RedisWrite> writes = new ArrayList<>(batchSize * 2);
		long encoded = 0;
		RespEncoder chunk = null;
		for (ConsumerRecord<byte[], byte[]> record : batch) {
			for (RedisWrite write : mapper.map(record)) {
				if (writes.size() % COMMANDS_PER_CHUNK == 0) {
					encoded += chunk == null ? 0 : chunk.size();
					chunk = new RespEncoder(COMMANDS_PER_CHUNK * 144);
				}
				chunk.append(write);
				writes.add(write);
			}
		}
		return encoded + chunk.size() + writes.size();
	}
}
