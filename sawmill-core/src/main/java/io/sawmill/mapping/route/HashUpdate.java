package io.sawmill.mapping.route;

/** How a {@link RedisType#HASH} route applies a record to an existing hash. */
public enum HashUpdate {

	/**
	 * {@code HSET} of the record's fields: fields absent from the record keep their earlier value.
	 * One command per record, the cheapest; partial updates ("patch" events) need this.
	 */
	MERGE,

	/**
	 * The hash becomes exactly the record's fields: they are written to a temporary key in the same
	 * Redis Cluster slot, which {@code RENAME} then moves over the key in one atomic step, so a
	 * reader sees the old hash or the new one, never a missing key or a mix. Three commands per
	 * record instead of one, and the temporary key needs a key without a '}' unless it has a hash
	 * tag. Use for full-state events ("snapshots").
	 */
	REPLACE;
}
