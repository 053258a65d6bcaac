package io.sawmill.metrics;

import java.util.Locale;

/** What happened to a record; the {@code outcome} tag of {@code sawmill.records}. */
public enum RecordOutcome {

	/** Its writes were acknowledged by Redis and its offset committed. */
	WRITTEN,
	/** The mapper returned no writes; committed like the others. */
	SKIPPED,
	/** It could not be written (rejected by the mapper or by Redis) and the dead-letter topic is off: logged with its reason, committed. */
	INVALID,
	/** Its batch failed in Redis and the record is being written again. */
	RETRIED,
	/** Sent to the dead-letter topic with its reason. */
	DEAD_LETTERED,
	/**
	 * A version-guarded write found a newer version in Redis and changed nothing
	 * ({@code sawmill.mapping.version}); committed like a written record, never dead-lettered.
	 */
	STALE,
	/**
	 * With {@code sawmill.delivery=exactly-once}: the record came again after its writes were applied
	 * (its offset is below its partition's watermark in Redis), so it was not written again;
	 * committed like a written record.
	 */
	DUPLICATE;

	/** The tag value: the constant's name in lower case. */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}
}
