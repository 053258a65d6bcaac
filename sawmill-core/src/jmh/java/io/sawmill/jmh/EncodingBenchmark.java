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

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * Command encoding, per record: Lettuce's {@code CommandArgs} of an {@code HSET key id … f5 …} and an
 * {@code EXPIRE key 3600}, each built as a {@code Command} and encoded to RESP into a pooled direct
 * buffer, as Lettuce's channel writer does when Sawmill flushes. Run with {@code -prof gc} for bytes
 * allocated per record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class EncodingBenchmark {

	private byte[] key;
	private Map<byte[], byte[]> fields;
	private ByteBuf buffer;

	@Setup
	public void setUp() {
		key = "rec:123456".getBytes(StandardCharsets.US_ASCII);
		fields = new LinkedHashMap<>();
		fields.put("id".getBytes(StandardCharsets.US_ASCII), "123456".getBytes(StandardCharsets.US_ASCII));
		for (int f = 1; f <= 5; f++) {
			fields.put(("f" + f).getBytes(StandardCharsets.US_ASCII),
					Records.value(123456, f).getBytes(StandardCharsets.US_ASCII));
		}
		buffer = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
	}

	@TearDown
	public void tearDown() {
		buffer.release();
	}

	/** HSET + EXPIRE of one record: arguments, command objects and RESP bytes. */
	@Benchmark
	public int encodeHsetAndExpire() {
		buffer.clear();
		CommandArgs<byte[], byte[]> hsetArgs = new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(key).add(fields);
		new Command<>(CommandType.HSET, new IntegerOutput<>(ByteArrayCodec.INSTANCE), hsetArgs).encode(buffer);
		CommandArgs<byte[], byte[]> expireArgs = new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(key).add(3600L);
		new Command<>(CommandType.EXPIRE, new IntegerOutput<>(ByteArrayCodec.INSTANCE), expireArgs).encode(buffer);
		return buffer.writerIndex();
	}

	/** Only building the HSET's CommandArgs (no RESP bytes). */
	@Benchmark
	public Object buildHsetArgs() {
		return new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(key).add(fields);
	}
}
