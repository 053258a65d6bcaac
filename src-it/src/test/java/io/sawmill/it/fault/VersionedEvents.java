package io.sawmill.it.fault;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;

import io.sawmill.testkit.SampleEvents;

/**
 * The known record set of a fault scenario: {@code records} records over {@code keys} keys, record
 * {@code i} being event {@code i % keys} at version {@code i / keys}. Each record is keyed by
 * {@link SampleEvents#userId(long)}, so every version of a key lands on one partition in order and
 * the last one produced is the one Redis must end up holding.
 */
record VersionedEvents(long records, int keys) {

	VersionedEvents {
		if (keys < 1 || records < keys) {
			throw new IllegalArgumentException("records must be at least keys (" + keys + "), but was " + records);
		}
	}

	long id(long record) {
		return record % keys;
	}

	int version(long record) {
		return (int) (record / keys);
	}

	/** The version of the last record produced for {@code id}. */
	int lastVersion(long id) {
		return (int) ((records - 1 - id) / keys);
	}

	/** The hash Redis must hold for {@code id} once every record is written. */
	Map<String, String> finalHash(long id) {
		return SampleEvents.hash(id, lastVersion(id));
	}

	ProducerRecord<byte[], byte[]> record(String topic, long record) {
		long id = id(record);
		return new ProducerRecord<>(topic, SampleEvents.userId(id).getBytes(StandardCharsets.UTF_8),
				SampleEvents.json(id, version(record)));
	}
}
