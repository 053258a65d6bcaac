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
package io.sawmill.bench.e2e.measure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.sawmill.bench.e2e.workload.Endpoint;
import io.sawmill.bench.e2e.workload.Route;
import io.sawmill.bench.e2e.workload.Workload;

/**
 * Reads Redis back after a drain of the route comparison, per {@link Route}, directly:
 * the key count, and for a sample of the ids written ({@link Verification#sampleIds})
 * what the last record of each must have left. What is checked:
 * <ul>
 * <li>mapping, hash, hash-replace: {@link Verification} (every sampled hash exactly its
 * last record's fields, its TTL);</li>
 * <li>string: one key per id, its value exactly the last record's JSON, its TTL;</li>
 * <li>sorted-set: one key whose cardinality is the ids written, each sampled id a member
 * with its last record's {@code version} as score; the key's TTL;</li>
 * <li>set: one key whose cardinality is the ids written, each sampled id a member; the
 * key's TTL;</li>
 * <li>list: one key per id, holding 1 to {@link Route#LIST_CAP} elements, the head
 * exactly the last record's JSON, its TTL (the elements behind the head are not
 * checked);</li>
 * <li>stream: one key, its length at least {@link Route#STREAM_CAP} (or every record,
 * when fewer) and at most one stream node ({@value #STREAM_NODE} entries) more, the
 * newest entry exactly the fields of its id's last record (all of an id's records are in
 * one partition, so the newest entry is the last record of its id), the key's TTL; which
 * entries were trimmed is not checked;</li>
 * <li>delete: no key.</li>
 * </ul>
 */
public final class RouteVerification {

	/**
	 * Redis' default {@code stream-node-max-entries}: how far {@code MAXLEN ~} may
	 * overshoot.
	 */
	static final int STREAM_NODE = 100;

	private static final long TIMEOUT_SECONDS = 60;

	private RouteVerification() {
	}

	/**
	 * @param topic the topic the records were read from, which names the key of the
	 * one-key types
	 */
	public static Verification.Result verify(Route route, Endpoint endpoint, Workload workload, long records,
			int sample, Duration ttl, String topic) {
		if (route == Route.MAPPING || route == Route.HASH || route == Route.HASH_REPLACE) {
			return Verification.verify(endpoint, workload, records, sample, ttl);
		}
		try (Verification.Direct direct = new Verification.Direct(endpoint)) {
			RedisClusterAsyncCommands<String, String> async = direct.async();
			Workload.Written written = workload.written(records);
			long keys = get(async.dbsize());
			if (route == Route.DELETE) {
				return new Verification.Result(keys == 0,
						String.format(Locale.ROOT, "%s: %,d keys, expected none", keys == 0 ? "OK" : "FAILED", keys));
			}
			String oneKey = switch (route) {
				case SORTED_SET -> "board:" + topic;
				case SET -> "members:" + topic;
				case STREAM -> "events:" + topic;
				default -> null;
			};
			long expectedKeys = oneKey == null ? written.keys() : 1;
			String size = oneKey == null ? "" : size(route, async, oneKey, workload, written, ttl);
			// a stream's check is its newest entry, in size(); its records are not
			// sampled
			List<Long> ids = route == Route.STREAM ? List.of() : Verification.sampleIds(written, sample);
			List<CompletionStage<String>> actual = new ArrayList<>();
			List<String> expected = new ArrayList<>();
			for (long id : ids) {
				String key = oneKey == null ? workload.key(id) : oneKey;
				// the TTL of the one key of a set or sorted set is checked once, in
				// size()
				actual.add(oneKey == null ? withTtl(value(route, async, key, id), async.ttl(key), ttl)
						: value(route, async, key, id));
				expected.add(expected(route, workload, written.lastRecord(id)));
			}
			int bad = 0;
			String example = "";
			for (int i = 0; i < ids.size(); i++) {
				String value = get(actual.get(i));
				if (!expected.get(i).equals(value) && bad++ == 0) {
					example = String.format(Locale.ROOT, "; e.g. id %d: %s, expected %s", ids.get(i), value,
							expected.get(i));
				}
			}
			boolean ok = keys == expectedKeys && !size.startsWith("FAILED") && bad == 0;
			String sampled = ids.isEmpty() ? "" : String.format(Locale.ROOT, "; %d of %d sampled %s right%s",
					ids.size() - bad, ids.size(), checked(route), example);
			return new Verification.Result(ok,
					String.format(Locale.ROOT, "%s: %,d of %,d keys%s%s", ok ? "OK" : "FAILED", keys, expectedKeys,
							size.isEmpty() ? "" : ", " + size.replace("FAILED ", ""), sampled));
		}
		catch (Exception ex) {
			return new Verification.Result(false, "FAILED: could not read Redis back: " + ex);
		}
	}

	/**
	 * The one key's size against what the records must leave, and its TTL; for a stream
	 * also its newest entry. Prefixed "FAILED " when wrong.
	 */
	private static String size(Route route, RedisClusterAsyncCommands<String, String> async, String key,
			Workload workload, Workload.Written written, Duration ttl) throws Exception {
		long seconds = get(async.ttl(key));
		String ttlText = seconds > 0 && seconds <= ttl.toSeconds() ? "" : " with ttl " + seconds;
		if (route == Route.STREAM) {
			long length = get(async.xlen(key));
			long least = Math.min(written.records(), Route.STREAM_CAP);
			long most = Math.min(written.records(), Route.STREAM_CAP + STREAM_NODE);
			var newest = get(async.xrevrange(key, Range.unbounded(), Limit.create(0, 1)));
			Map<String, String> body = newest.isEmpty() ? Map.of() : newest.get(0).getBody();
			String id = body.get("id");
			boolean last = id != null && id.matches("\\d{1,9}") && Long.parseLong(id) < written.lastRecord().length
					&& written.lastRecord()[Integer.parseInt(id)] >= 0
					&& body.equals(workload.expectedHash(Long.parseLong(id), written.records()));
			return String.format(Locale.ROOT, "%s%s holds %,d entries (%,d to %,d)%s, its newest entry %s",
					length >= least && length <= most && last && ttlText.isEmpty() ? "" : "FAILED ", key, length, least,
					most, ttlText, last ? "the last record of id " + id : body + " not the last record of its id");
		}
		long members = get(route == Route.SET ? async.scard(key) : async.zcard(key));
		return String.format(Locale.ROOT, "%s%s holds %,d of %,d members%s",
				members == written.keys() && ttlText.isEmpty() ? "" : "FAILED ", key, members, written.keys(), ttlText);
	}

	/** What is read for a sampled id, as text comparable with {@link #expected}. */
	private static CompletionStage<String> value(Route route, RedisClusterAsyncCommands<String, String> async,
			String key, long id) {
		String member = Long.toString(id);
		return switch (route) {
			case STRING -> async.get(key);
			case SORTED_SET -> async.zscore(key, member)
				.thenApply(score -> score == null ? "no member " + member : "score " + score.longValue());
			case SET ->
				async.sismember(key, member).thenApply(present -> present ? "member " + member : "no member " + member);
			case LIST -> async.llen(key)
				.thenCombine(async.lindex(key, 0), (length, head) -> length >= 1 && length <= Route.LIST_CAP ? head
						: "length " + length + ", head " + head);
			default -> throw new IllegalArgumentException("not a route of its own verification: " + route);
		};
	}

	/**
	 * What the last record of an id, {@code seq}, must leave, as {@link #value} reads it.
	 */
	private static String expected(Route route, Workload workload, long seq) {
		return switch (route) {
			case STRING, LIST -> new String(workload.json(seq), StandardCharsets.US_ASCII);
			case SORTED_SET -> "score " + workload.hash(seq).get("version");
			case SET -> "member " + workload.hash(seq).get("id");
			default -> throw new IllegalArgumentException("not a route of its own verification: " + route);
		};
	}

	private static String checked(Route route) {
		return switch (route) {
			case STRING -> "values+TTLs";
			case SORTED_SET -> "scores";
			case SET -> "members";
			case LIST -> "list heads+lengths+TTLs";
			default -> throw new IllegalArgumentException("no sample of " + route);
		};
	}

	/** The value, or it with the TTL when that is not in (0, ttl]. */
	private static CompletionStage<String> withTtl(CompletionStage<String> value, CompletionStage<Long> seconds,
			Duration ttl) {
		return value.thenCombine(seconds,
				(text, left) -> left > 0 && left <= ttl.toSeconds() ? text : text + " with ttl " + left);
	}

	private static <T> T get(CompletionStage<T> stage) throws Exception {
		return stage.toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
	}

}
