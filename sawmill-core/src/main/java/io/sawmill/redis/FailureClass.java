package io.sawmill.redis;

import java.util.List;
import java.util.Locale;

import io.lettuce.core.RedisCommandExecutionException;

/**
 * Whether a failed Redis command can succeed when sent again.
 */
public enum FailureClass {

	/**
	 * Redis or the network is not able to take the command now: connection lost, timeout, LOADING,
	 * BUSY, TRYAGAIN, CLUSTERDOWN, READONLY (failover), MASTERDOWN, OOM, too many clients, and
	 * authentication or permission errors (a configuration problem, never the record's fault). The
	 * command is retried; a Redis outage never dead-letters a record.
	 */
	TRANSIENT,

	/**
	 * The command itself is wrong for the data it meets, e.g. WRONGTYPE (the key holds a non-hash) or
	 * a value Redis rejects. Sending it again cannot help: the record is dead-lettered.
	 */
	PERMANENT;

	private static final List<String> TRANSIENT_PREFIXES = List.of("LOADING", "BUSY", "TRYAGAIN", "CLUSTERDOWN",
			"READONLY", "MASTERDOWN", "OOM", "NOAUTH", "WRONGPASS", "NOPERM", "MOVED", "ASK", "ERR MAX NUMBER OF CLIENTS",
			"NOREPLICAS");

	/** Classifies the cause of a failed command as Lettuce reported it. */
	public static FailureClass of(Throwable cause) {
		if (cause instanceof RedisCommandExecutionException error) {
			String reply = String.valueOf(error.getMessage()).toUpperCase(Locale.ROOT);
			return TRANSIENT_PREFIXES.stream().anyMatch(reply::startsWith) ? TRANSIENT : PERMANENT;
		}
		return TRANSIENT;
	}
}
