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
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.netty.buffer.ByteBuf;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.VersionGuard;
import io.sawmill.mapping.internal.FieldMap;

/**
 * The RESP encoding of one chunk of commands (each an array of bulk strings), built by
 * the writing thread into one growing byte array: no per-argument objects, and every
 * length header copied from a table. Each {@link ReplySlot} later copies its own slice
 * into Lettuce's outgoing buffer, one copy per command instead of a dozen small writes.
 * <p>
 * Not thread-safe: filled by the writing thread before the chunk is handed to the
 * channel, which publishes it to the event loop.
 */
final class RespEncoder {

	private static final byte[] HSET = bulk("HSET");

	private static final byte[] EXPIRE = bulk("EXPIRE");

	private static final byte[] PEXPIRE = bulk("PEXPIRE");

	private static final byte[] DEL = bulk("DEL");

	private static final byte[] FCALL = bulk("FCALL");

	private static final byte[] ONE_KEY = bulk("1");

	private static final byte[] APPLY = bulk(VersionGuard.APPLY);

	private static final byte[] UPSERT_OPERATION = bulk("u");

	private static final byte[] DELETE_OPERATION = bulk("d");

	/**
	 * {@code *N\r\n} and {@code $N\r\n} for the common sizes, so a header is one copy.
	 */
	private static final byte[][] ARRAY_HEADERS = headers('*', 256);

	private static final byte[][] BULK_HEADERS = headers('$', 1024);

	private byte[] bytes;

	private int size;

	/** The TTL of the previous EXPIRE, whose digits are usually the next one's. */
	private long lastNumber;

	private byte @Nullable [] lastNumberBytes;

	/**
	 * @param expectedBytes the array's first size; it grows as the commands need
	 */
	RespEncoder(int expectedBytes) {
		this.bytes = new byte[Math.max(64, expectedBytes)];
	}

	/** The encoding so far; valid up to {@link #size()}. */
	byte[] bytes() {
		return bytes;
	}

	/** How many bytes the commands appended so far take. */
	int size() {
		return size;
	}

	/** Appends one command and returns the offset it starts at. */
	int append(RedisWrite write) {
		int start = size;
		encode(write, this);
		return start;
	}

	/**
	 * Appends one {@code FCALL sawmill_apply} of version-guarded writes
	 * ({@link VersionGuard#batchable}) and returns the offset it starts at: their keys,
	 * then per write its operation, the number of its arguments and those arguments.
	 */
	int appendApply(List<RedisWrite.Function> writes) {
		int start = size;
		int elements = 3 + writes.size();
		for (RedisWrite.Function write : writes) {
			elements += 2 + write.args().size();
		}
		arrayHeader(this, elements);
		writeBytes(FCALL);
		writeBytes(APPLY);
		bulkNumber(this, writes.size());
		for (RedisWrite.Function write : writes) {
			bulk(this, write.key());
		}
		for (RedisWrite.Function write : writes) {
			writeBytes(VersionGuard.UPSERT.equals(write.function()) ? UPSERT_OPERATION : DELETE_OPERATION);
			bulkNumber(this, write.args().size());
			for (byte[] arg : write.args()) {
				bulk(this, arg);
			}
		}
		return start;
	}

	/**
	 * Appends a command of the writer's own, its name and arguments given as bytes, and
	 * returns the offset it starts at.
	 */
	int appendCommand(byte[]... parts) {
		int start = size;
		arrayHeader(this, parts.length);
		for (byte[] part : parts) {
			bulk(this, part);
		}
		return start;
	}

	/** Appends a command encoded elsewhere and returns the offset it starts at. */
	int appendEncoded(byte[] command) {
		int start = size;
		writeBytes(command);
		return start;
	}

	/**
	 * A command without arguments ({@code MULTI}, {@code EXEC}), encoded once for
	 * {@link #appendEncoded}.
	 */
	static byte[] encodedCommand(String name) {
		byte[] bulk = bulk(name);
		byte[] command = new byte[ARRAY_HEADERS[1].length + bulk.length];
		System.arraycopy(ARRAY_HEADERS[1], 0, command, 0, ARRAY_HEADERS[1].length);
		System.arraycopy(bulk, 0, command, ARRAY_HEADERS[1].length, bulk.length);
		return command;
	}

	/** Writes a slice of this encoding to Lettuce's buffer. */
	void copyTo(ByteBuf out, int offset, int length) {
		out.writeBytes(bytes, offset, length);
	}

	private void writeBytes(byte[] value) {
		ensure(value.length);
		System.arraycopy(value, 0, bytes, size, value.length);
		size += value.length;
	}

	private void ensure(int more) {
		if (size + more > bytes.length) {
			bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
		}
	}

	private static void encode(RedisWrite write, RespEncoder out) {
		if (write instanceof RedisWrite.HashSet hset) {
			arrayHeader(out, 2 + 2 * hset.fields().size());
			out.writeBytes(HSET);
			bulk(out, hset.key());
			if (hset.fields() instanceof FieldMap fields) {
				for (int i = 0; i < fields.size(); i++) {
					bulk(out, fields.name(i));
					bulk(out, fields.value(i));
				}
			}
			else {
				for (Map.Entry<byte[], byte[]> field : hset.fields().entrySet()) {
					bulk(out, field.getKey());
					bulk(out, field.getValue());
				}
			}
		}
		else if (write instanceof RedisWrite.Expire expire) {
			Duration ttl = expire.ttl();
			boolean seconds = ttl.toMillis() % 1000 == 0;
			arrayHeader(out, 3);
			out.writeBytes(seconds ? EXPIRE : PEXPIRE);
			bulk(out, expire.key());
			bulkNumber(out, seconds ? ttl.toSeconds() : ttl.toMillis());
		}
		else if (write instanceof RedisWrite.Delete delete) {
			arrayHeader(out, 2);
			out.writeBytes(DEL);
			bulk(out, delete.key());
		}
		else if (write instanceof RedisWrite.Function function) {
			arrayHeader(out, 4 + function.args().size());
			out.writeBytes(FCALL);
			bulk(out, function.function().getBytes(StandardCharsets.UTF_8));
			out.writeBytes(ONE_KEY);
			bulk(out, function.key());
			for (byte[] arg : function.args()) {
				bulk(out, arg);
			}
		}
		else {
			RedisWrite.Command command = (RedisWrite.Command) write;
			arrayHeader(out, 2 + command.args().size());
			bulk(out, command.name().toUpperCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
			bulk(out, command.key());
			for (byte[] arg : command.args()) {
				bulk(out, arg);
			}
		}
	}

	private static void arrayHeader(RespEncoder out, int elements) {
		out.writeBytes(elements < ARRAY_HEADERS.length ? ARRAY_HEADERS[elements] : header('*', elements));
	}

	private static void bulk(RespEncoder out, byte[] value) {
		int length = value.length;
		byte[] header = length < BULK_HEADERS.length ? BULK_HEADERS[length] : header('$', length);
		out.ensure(header.length + length + 2);
		byte[] bytes = out.bytes;
		int at = out.size;
		System.arraycopy(header, 0, bytes, at, header.length);
		at += header.length;
		System.arraycopy(value, 0, bytes, at, length);
		at += length;
		bytes[at++] = '\r';
		bytes[at++] = '\n';
		out.size = at;
	}

	private static void bulkNumber(RespEncoder out, long value) {
		if (value != out.lastNumber || out.lastNumberBytes == null) {
			out.lastNumber = value;
			out.lastNumberBytes = Long.toString(value).getBytes(StandardCharsets.US_ASCII);
		}
		bulk(out, out.lastNumberBytes);
	}

	private static byte[] header(char type, int count) {
		return (type + Integer.toString(count) + "\r\n").getBytes(StandardCharsets.US_ASCII);
	}

	private static byte[][] headers(char type, int count) {
		byte[][] headers = new byte[count][];
		for (int i = 0; i < count; i++) {
			headers[i] = header(type, i);
		}
		return headers;
	}

	private static byte[] bulk(String text) {
		byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
		return ("$" + bytes.length + "\r\n" + text + "\r\n").getBytes(StandardCharsets.US_ASCII);
	}

}
