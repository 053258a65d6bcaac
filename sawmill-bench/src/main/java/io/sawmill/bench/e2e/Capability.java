package io.sawmill.bench.e2e;

import java.util.Locale;
import java.util.Map;

/**
 * A variant of the Sawmill cell in the capability comparison ({@code --capabilities}): Sawmill with
 * one of its write-path capabilities on, as the Spring properties that switch it on. Every variant
 * reads the same versioned records, so they differ only in what Sawmill does with them.
 */
enum Capability {

	/** Sawmill's defaults: every record's writes sent as they come. The baseline of every ratio. */
	PLAIN(Map.of(), Verification.Extras.NONE),

	/**
	 * Write coalescing: the writes of one key within a batch collapse into the fewest commands that
	 * leave the same final state. Pays off when a batch writes a key many times (hot keys); costs a
	 * pass over the batch when it does not.
	 */
	COALESCE(Map.of("sawmill.coalesce-writes", "true"), Verification.Extras.NONE),

	/**
	 * Version-guarded upsert on the records' {@code version} field: each write is a check and a write
	 * on the server, so a replayed older record cannot overwrite a newer one. The guard may keep its
	 * versions next to the data, which verification tolerates.
	 */
	VERSION(Map.of("sawmill.mapping.version", "field:version"), Verification.Extras.BOOKKEEPING),

	/**
	 * Exactly-once delivery: each partition's share of a batch in one {@code MULTI}/{@code EXEC} with
	 * the partition's offset watermark, and no batch in flight, so a repeated record applies nothing.
	 * Its watermarks (one key per partition) are kept next to the data, which verification tolerates.
	 * Not on a Redis Cluster, where Sawmill refuses it at start-up.
	 */
	EXACTLY_ONCE(Map.of("sawmill.delivery", "exactly-once"), Verification.Extras.BOOKKEEPING);

	private final Map<String, String> properties;
	private final Verification.Extras extras;

	Capability(Map<String, String> properties, Verification.Extras extras) {
		this.properties = properties;
		this.extras = extras;
	}

	/** The Spring properties that switch it on, on top of the cell's own. */
	Map<String, String> properties() {
		return properties;
	}

	/** What verification tolerates next to the workload's data. */
	Verification.Extras extras() {
		return extras;
	}

	/** "plain", "coalesce", "version" or "exactly-once", as on the command line. */
	String label() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	static Capability parse(String value) {
		for (Capability capability : values()) {
			if (capability.label().equals(value.trim().toLowerCase(Locale.ROOT))) {
				return capability;
			}
		}
		throw new IllegalArgumentException("--capabilities must be among plain, coalesce, version, exactly-once, but was " + value);
	}
}
