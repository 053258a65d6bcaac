package io.sawmill.mapping.route;

/** What a JSON {@code null} in a record's value does to a {@link RedisType#HASH} field. */
public enum NullFields {

	/** Ignored: the field keeps its earlier value. A producer cannot clear a field this way. */
	SKIP,

	/**
	 * {@code HDEL key field}: a null clears the field, one more command per record that has nulls.
	 * With {@link HashUpdate#REPLACE} a null field is absent anyway.
	 */
	DELETE;
}
