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
package io.sawmill.bench.e2e.workload;

import java.util.Locale;
import java.util.Map;

/**
 * A variant of the Sawmill cell in the capability comparison ({@code --capabilities}):
 * Sawmill with one of its write-path capabilities on, as the Spring properties that
 * switch it on. Every variant reads the same versioned records, so they differ only in
 * what Sawmill does with them.
 */
public enum Capability {

	/**
	 * Sawmill's defaults: every record's writes sent as they come. The baseline of every
	 * ratio.
	 */
	PLAIN(Map.of(), Extras.NONE),

	/**
	 * Write coalescing: the writes of one key within a batch collapse into the fewest
	 * commands that leave the same final state. Pays off when a batch writes a key many
	 * times (hot keys); costs a pass over the batch when it does not.
	 */
	COALESCE(Map.of("sawmill.coalesce-writes", "true"), Extras.NONE),

	/**
	 * Version-guarded upsert on the records' {@code version} field: each write is a check
	 * and a write on the server, so a replayed older record cannot overwrite a newer one.
	 * The guard may keep its versions next to the data, which verification tolerates.
	 */
	VERSION(Map.of("sawmill.mapping.version", "field:version"), Extras.BOOKKEEPING),

	/**
	 * Exactly-once delivery: each partition's share of a batch in one
	 * {@code MULTI}/{@code EXEC} with the partition's offset watermark, and no batch in
	 * flight, so a repeated record applies nothing. Its watermarks (one key per
	 * partition) are kept next to the data, which verification tolerates. Not on a Redis
	 * Cluster, where Sawmill refuses it at start-up.
	 */
	EXACTLY_ONCE(Map.of("sawmill.delivery", "exactly-once"), Extras.BOOKKEEPING);

	private final Map<String, String> properties;

	private final Extras extras;

	Capability(Map<String, String> properties, Extras extras) {
		this.properties = properties;
		this.extras = extras;
	}

	/** The Spring properties that switch it on, on top of the cell's own. */
	public Map<String, String> properties() {
		return properties;
	}

	/** What verification tolerates next to the workload's data. */
	public Extras extras() {
		return extras;
	}

	/** "plain", "coalesce", "version" or "exactly-once", as on the command line. */
	public String label() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	public static Capability parse(String value) {
		for (Capability capability : values()) {
			if (capability.label().equals(value.trim().toLowerCase(Locale.ROOT))) {
				return capability;
			}
		}
		throw new IllegalArgumentException(
				"--capabilities must be among plain, coalesce, version, exactly-once, but was " + value);
	}

	/** What Redis may hold besides the workload's keys and the records' fields. */
	public enum Extras {

		/**
		 * Nothing: exactly the workload's keys, each hash exactly its last record's
		 * fields.
		 */
		NONE,

		/**
		 * A capability's own bookkeeping next to the data (a version guard may keep a
		 * version per key, in the hash or in a key of its own): other keys and other hash
		 * fields are counted and named in the text but do not fail the check. The
		 * workload's keys and the records' fields must still be exactly right.
		 */
		BOOKKEEPING

	}

}
