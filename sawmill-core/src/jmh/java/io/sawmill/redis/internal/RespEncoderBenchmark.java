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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.sawmill.mapping.RedisWrite;

/**
 * Sawmill's own encoding, per record, as the writer does it for a chunk of 1,000 records: HSET
 * (id + 5 fields) and EXPIRE encoded by {@link RespEncoder} into one array, then each command's
 * slice copied into a pooled direct buffer, as the event loop does. Compare with
 * {@code io.sawmill.jmh.EncodingBenchmark} (Lettuce's command objects).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class RespEncoderBenchmark {

	private static final int RECORDS = 1_000;

	private final List<RedisWrite> writes = new ArrayList<>(2 * RECORDS);

	private ByteBuf buffer;

	@Setup
	public void setUp() {
		for (int r = 0; r < RECORDS; r++) {
			byte[] key = ("rec:" + (123456 + r)).getBytes(StandardCharsets.US_ASCII);
			Map<byte[], byte[]> fields = new LinkedHashMap<>();
			fields.put("id".getBytes(StandardCharsets.US_ASCII), Integer.toString(123456 + r).getBytes(StandardCharsets.US_ASCII));
			for (int f = 1; f <= 5; f++) {
				fields.put(("f" + f).getBytes(StandardCharsets.US_ASCII),
						"0123456789abcdef0123".getBytes(StandardCharsets.US_ASCII));
			}
			writes.add(RedisWrite.hset(key, fields));
			writes.add(RedisWrite.expire(key, Duration.ofHours(1)));
		}
		buffer = PooledByteBufAllocator.DEFAULT.directBuffer(256 * 1024);
	}

	@TearDown
	public void tearDown() {
		buffer.release();
	}

	/** Per record: encode its HSET and EXPIRE into the chunk's array, then copy both slices out. */
	@Benchmark
	@OperationsPerInvocation(RECORDS)
	public int encodeChunk() {
		RespEncoder encoder = new RespEncoder(writes.size() * 144); // the writer sizes by the last batch's average
		int[] offsets = new int[writes.size() + 1];
		for (int i = 0; i < writes.size(); i++) {
			offsets[i] = encoder.append(writes.get(i));
		}
		offsets[writes.size()] = encoder.size();
		buffer.clear();
		for (int i = 0; i < writes.size(); i++) {
			encoder.copyTo(buffer, offsets[i], offsets[i + 1] - offsets[i]);
		}
		return buffer.writerIndex();
	}
}
