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

import java.util.List;
import java.util.Locale;

import io.lettuce.core.RedisCommandExecutionException;

/**
 * Whether a failed Redis command can succeed when sent again. Classification fails safe:
 * an error reply is {@link #PERMANENT} only when the record's own data provably caused
 * it; everything else, an error reply Sawmill does not know included, is
 * {@link #TRANSIENT}.
 * <p>
 * <table>
 * <caption>Error replies and their class (matched on the reply's start, ignoring
 * case)</caption>
 * <tr>
 * <th>reply</th>
 * <th>class</th>
 * <th>why</th>
 * </tr>
 * <tr>
 * <td>{@code WRONGTYPE}</td>
 * <td>permanent</td>
 * <td>the record's key holds another type</td>
 * </tr>
 * <tr>
 * <td>{@code ERR value is not an integer or out of range},
 * {@code ERR value is out of range}, {@code ERR value is not a valid float},
 * {@code ERR hash value is not an integer}, {@code ERR hash value is not a float}</td>
 * <td>permanent</td>
 * <td>a number the record supplied (or the value its key holds) is not one</td>
 * </tr>
 * <tr>
 * <td>{@code ERR increment or decrement would overflow},
 * {@code ERR increment would produce NaN
 *     or Infinity}, {@code ERR resulting score is not a number}</td>
 * <td>permanent</td>
 * <td>the record's increment meets the key's value</td>
 * </tr>
 * <tr>
 * <td>{@code ERR invalid expire time}</td>
 * <td>permanent</td>
 * <td>the record's TTL</td>
 * </tr>
 * <tr>
 * <td>{@code ERR string exceeds maximum allowed size},
 * {@code ERR offset is out of range},
 * {@code ERR bit offset is not an integer or out of range},
 * {@code ERR bit is not an integer or
 *     out of range}, {@code ERR index out of range}, {@code ERR no such key}</td>
 * <td>permanent</td>
 * <td>an offset, index or size from the record</td>
 * </tr>
 * <tr>
 * <td>{@code ERR The ID specified in XADD is equal or smaller},
 * {@code ERR Invalid stream ID}</td>
 * <td>permanent</td>
 * <td>the stream entry ID the record supplied</td>
 * </tr>
 * <tr>
 * <td>{@code LOADING}, {@code BUSY}, {@code TRYAGAIN}, {@code CLUSTERDOWN},
 * {@code READONLY}, {@code MASTERDOWN}, {@code MOVED}, {@code ASK}, {@code NOREPLICAS},
 * {@code OOM}, {@code MISCONF}, {@code ERR max number of clients}</td>
 * <td>transient</td>
 * <td>a well-known outage: Redis is starting, failing over, resharding, full, or cannot
 * persist</td>
 * </tr>
 * <tr>
 * <td>{@code ERR Function not found}</td>
 * <td>transient</td>
 * <td>Redis lost the Function library a write calls (a restart without persistence, a
 * failover, {@code FUNCTION FLUSH}): the writer loads it again, and the retry finds
 * it</td>
 * </tr>
 * <tr>
 * <td>{@code NOAUTH}, {@code WRONGPASS}, {@code NOPERM}</td>
 * <td>transient (logged)</td>
 * <td>a configuration problem, never the record's fault</td>
 * </tr>
 * <tr>
 * <td>{@code ERR unknown command}, {@code ERR wrong number of arguments},
 * {@code ERR syntax
 *     error}, {@code NOSCRIPT}</td>
 * <td>transient (logged)</td>
 * <td>the mapper and the server disagree (a renamed or missing command or module, an
 * older Redis, a mapper bug): every record would fail alike, so dead-lettering would
 * drain the topic into the dead-letter topic</td>
 * </tr>
 * <tr>
 * <td>any other error reply (a proxy's, a module's, a future Redis')</td>
 * <td>transient (logged)</td>
 * <td>not provably the record's fault</td>
 * </tr>
 * <tr>
 * <td>no reply: connection refused or lost, timeout, cancelled</td>
 * <td>transient</td>
 * <td>an outage</td>
 * </tr>
 * </table>
 * <p>
 * A transient failure is retried with backoff and counts as a failed round trip for the
 * circuit breaker, which pauses the listener while it lasts. It never dead-letters a
 * record, except by elimination: a {@link #blamable} reply that one record gets in every
 * attempt while the others of its batch are written. A transient error reply that is not
 * a well-known outage is logged at WARN (at most once per reply kind every 30 s), so an
 * operator sees why the listener pauses. docs/reliability.md has the same table.
 */
public enum FailureClass {

	/**
	 * Redis, the network or the configuration is not able to take the command now. The
	 * command is retried; such a failure dead-letters a record only by elimination
	 * ({@link #blamable}).
	 */
	TRANSIENT,

	/**
	 * The record's own data cannot be written, e.g. WRONGTYPE (the key holds a non-hash)
	 * or a number Redis rejects. Sending it again cannot help: the record is
	 * dead-lettered.
	 */
	PERMANENT;

	/** Replies a record's own data causes; matched on the reply's start, upper-cased. */
	private static final List<String> PERMANENT_PREFIXES = List.of("WRONGTYPE",
			"ERR VALUE IS NOT AN INTEGER OR OUT OF RANGE", "ERR VALUE IS OUT OF RANGE",
			"ERR VALUE IS NOT A VALID FLOAT", "ERR HASH VALUE IS NOT AN INTEGER", "ERR HASH VALUE IS NOT A FLOAT",
			"ERR INCREMENT OR DECREMENT WOULD OVERFLOW", "ERR INCREMENT WOULD PRODUCE NAN OR INFINITY",
			"ERR RESULTING SCORE IS NOT A NUMBER", "ERR INVALID EXPIRE TIME", "ERR STRING EXCEEDS MAXIMUM ALLOWED SIZE",
			"ERR OFFSET IS OUT OF RANGE", "ERR BIT OFFSET IS NOT AN INTEGER OR OUT OF RANGE",
			"ERR BIT IS NOT AN INTEGER OR OUT OF RANGE", "ERR INDEX OUT OF RANGE", "ERR NO SUCH KEY",
			"ERR THE ID SPECIFIED IN XADD IS EQUAL OR SMALLER", "ERR INVALID STREAM ID");

	/**
	 * Transient replies of a well-known outage, which the circuit breaker reports; the
	 * others are logged.
	 */
	private static final List<String> OUTAGE_PREFIXES = List.of("LOADING", "BUSY", "TRYAGAIN", "CLUSTERDOWN",
			"READONLY", "MASTERDOWN", "MOVED", "ASK", "NOREPLICAS", "OOM", "MISCONF", "ERR MAX NUMBER OF CLIENTS",
			"ERR FUNCTION NOT FOUND");

	/**
	 * Replies that name a configuration problem (authentication, an ACL), never a
	 * record's own fault, even when only some records' keys get them.
	 */
	private static final List<String> CONFIGURATION_PREFIXES = List.of("NOAUTH", "WRONGPASS", "NOPERM");

	/**
	 * Whether {@code cause} is a transient error reply that may still be a record's own
	 * fault: neither on the permanent list nor a well-known outage nor a configuration
	 * problem ({@code NOAUTH}, {@code WRONGPASS}, {@code NOPERM}), e.g. a module's or a
	 * proxy's reply, or a wrong command the mapper made for this record only. A record
	 * whose write gets the same such reply in every attempt while the other records of
	 * its batch are written is dead-lettered by elimination (docs/reliability.md).
	 */
	public static boolean blamable(Throwable cause) {
		if (!(cause instanceof RedisCommandExecutionException error)) {
			return false;
		}
		String upper = String.valueOf(error.getMessage()).toUpperCase(Locale.ROOT);
		return !startsWithAny(upper, PERMANENT_PREFIXES) && !startsWithAny(upper, OUTAGE_PREFIXES)
				&& !startsWithAny(upper, CONFIGURATION_PREFIXES);
	}

	/**
	 * Classifies the cause of a failed command as Lettuce reported it, by the table
	 * above.
	 */
	public static FailureClass of(Throwable cause) {
		if (!(cause instanceof RedisCommandExecutionException error)) {
			return TRANSIENT;
		}
		String reply = String.valueOf(error.getMessage());
		String upper = reply.toUpperCase(Locale.ROOT);
		if (startsWithAny(upper, PERMANENT_PREFIXES)) {
			return PERMANENT;
		}
		if (!startsWithAny(upper, OUTAGE_PREFIXES)) {
			UnlistedReplies.warn(reply);
		}
		return TRANSIENT;
	}

	private static boolean startsWithAny(String reply, List<String> prefixes) {
		for (String prefix : prefixes) {
			if (reply.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

}
