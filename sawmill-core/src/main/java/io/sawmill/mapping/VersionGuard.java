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
package io.sawmill.mapping;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Version-guarded writes to a Redis hash: a write is applied only when its version is
 * newer than or equal to the version the hash holds, and the check and the write are one
 * atomic step on the server (the Redis Function library {@value #LIBRARY}, Redis 7 or
 * later). An equal version is applied again, so a replayed record is harmless; an older
 * one changes nothing, and its record is counted {@code stale}.
 * <p>
 * The version is kept in the hash itself, in the field {@value #VERSION_FIELD}, so each
 * write touches one key (standalone, Sentinel and Cluster alike) and the version expires
 * with the hash. Readers see that field. A delete leaves a <em>tombstone marker</em> for
 * the retention given: a hash holding only {@value #VERSION_FIELD}, so that an older
 * record arriving late cannot bring the key back; readers tell a marker from a live hash
 * by that (it has no other field). A newer write replaces the marker. A hash without the
 * version field (written before the guard was on) takes any version.
 * <p>
 * Versions are non-negative 64-bit integers, compared exactly. The writes are
 * {@link RedisWrite.Function}s whose reply is 1 (applied) or 0 (stale); the writer loads
 * the library at start-up when the built-in mapping uses it
 * ({@code sawmill.mapping.version}), and again when Redis lost it. On a standalone or
 * Sentinel-managed Redis the writer sends each run of consecutive upserts and deletes as
 * one {@value #APPLY} call, which applies them in order with their replies kept apart: a
 * Redis Function call costs the server more than the writes it makes, and one call per
 * write halves what it can take.
 */
public final class VersionGuard {

	/** The name of the Redis Function library. */
	public static final String LIBRARY = "sawmill";

	/**
	 * {@code FCALL sawmill_upsert 1 key version ttlMillis field value [field value …]}.
	 */
	public static final String UPSERT = "sawmill_upsert";

	/** {@code FCALL sawmill_delete 1 key version retentionMillis}. */
	public static final String DELETE = "sawmill_delete";

	/**
	 * {@code FCALL sawmill_apply n key… (u|d count args…)…}: several upserts and deletes
	 * in one call, applied in order; the reply holds one element per key: 1, 0 (stale) or
	 * the error message.
	 */
	public static final String APPLY = "sawmill_apply";

	/** The hash field holding the key's version; a record must not write it itself. */
	public static final String VERSION_FIELD = "__sawmill_version";

	private static final byte[] VERSION_FIELD_BYTES = VERSION_FIELD.getBytes(StandardCharsets.UTF_8);

	private static final String SOURCE = readSource();

	private VersionGuard() {
	}

	/** The library's Lua source, for {@code FUNCTION LOAD REPLACE}. */
	public static String librarySource() {
		return SOURCE;
	}

	/**
	 * Sets {@code fields} on the hash at {@code key} (its other fields are kept) and its
	 * version, then its TTL, when {@code version} is not older than the hash's.
	 * @param ttl the hash's TTL; zero leaves the TTL as it is (none on a new hash)
	 * @throws IllegalArgumentException when {@code version} is negative, {@code fields}
	 * is empty or holds {@value #VERSION_FIELD}
	 */
	public static RedisWrite.Function upsert(byte[] key, long version, Duration ttl, Map<byte[], byte[]> fields) {
		Objects.requireNonNull(ttl, "ttl");
		if (fields.isEmpty()) {
			throw new IllegalArgumentException("a versioned upsert needs at least one field");
		}
		List<byte[]> args = new ArrayList<>(2 + 2 * fields.size());
		args.add(number(requireVersion(version)));
		args.add(number(requireNotNegative(ttl, "ttl").toMillis()));
		fields.forEach((name, value) -> {
			if (Arrays.equals(name, VERSION_FIELD_BYTES)) {
				throw new IllegalArgumentException("the field " + VERSION_FIELD + " is reserved for the version");
			}
			args.add(name);
			args.add(value);
		});
		return new RedisWrite.Function(UPSERT, key, args, true);
	}

	/**
	 * Deletes the hash at {@code key} when {@code version} is not older than the hash's,
	 * and keeps a tombstone marker holding the version for {@code retention}.
	 * @param retention how long the marker lives; zero keeps none (a late older record
	 * then recreates the key)
	 */
	public static RedisWrite.Function delete(byte[] key, long version, Duration retention) {
		return new RedisWrite.Function(DELETE, key,
				List.of(number(requireVersion(version)), number(requireNotNegative(retention, "retention").toMillis())),
				true);
	}

	/**
	 * Whether the writer may send {@code write} within a {@value #APPLY} call with its
	 * neighbours: an upsert or a delete of this library's.
	 */
	public static boolean batchable(RedisWrite write) {
		return write instanceof RedisWrite.Function function
				&& (UPSERT.equals(function.function()) || DELETE.equals(function.function()));
	}

	private static long requireVersion(long version) {
		if (version < 0) {
			throw new IllegalArgumentException("version must not be negative, but was " + version);
		}
		return version;
	}

	private static Duration requireNotNegative(Duration duration, String name) {
		Objects.requireNonNull(duration, name);
		if (duration.isNegative()) {
			throw new IllegalArgumentException(name + " must not be negative, but was " + duration);
		}
		return duration;
	}

	private static byte[] number(long value) {
		return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
	}

	private static String readSource() {
		try (InputStream in = VersionGuard.class.getResourceAsStream("sawmill-functions.lua")) {
			if (in == null) {
				throw new IllegalStateException("sawmill-functions.lua is missing from the classpath");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
