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
package io.sawmill.mapping.route.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.mapping.internal.FieldSelection;
import io.sawmill.mapping.internal.FlatFields;
import io.sawmill.mapping.route.ValueFormat;

/**
 * Checks the first record a route maps against the value fields its configuration names,
 * and logs one WARN naming those the record lacks: a misspelt field is noticed on the
 * first record rather than as a stream of dead letters or silently unwritten fields. A
 * record is only an example (an optional field may be absent from it), so this never
 * fails the route. Thread-safe.
 */
final class FirstRecordCheck {

	private static final Logger log = LoggerFactory.getLogger(FirstRecordCheck.class);

	private final RouteConfig config;

	private final Set<String> named = new LinkedHashSet<>();

	private final AtomicBoolean checked = new AtomicBoolean();

	FirstRecordCheck(RouteConfig config) {
		this.config = config;
		if (config.valueFormat() == ValueFormat.STRING) {
			checked.set(true); // no fields to check
			return;
		}
		named.addAll(config.keyTemplate().fieldNames());
		if (config.member() != null) {
			named.addAll(config.member().fieldNames());
		}
		for (String field : new String[] { config.scoreField(), config.valueField(), config.ttlField() }) {
			if (field != null) {
				named.add(field);
			}
		}
		named.addAll(config.fields());
	}

	void check(ConsumerRecord<byte[], byte[]> record, FlatFields fields) {
		if (checked.get() || !checked.compareAndSet(false, true)) {
			return;
		}
		List<String> missing = new ArrayList<>();
		for (String field : named) {
			if (!present(field, fields)) {
				missing.add(field);
			}
		}
		if (!missing.isEmpty()) {
			log.warn("Route '{}': the first record it mapped ({}-{}@{}) has no field {} that the route's configuration "
					+ "names; check the spelling (records without a key, member or score field are dead-lettered, a "
					+ "missing selected field is not written)", config.name(), record.topic(), record.partition(),
					record.offset(), missing);
		}
	}

	private boolean present(String field, FlatFields fields) {
		List<String> one = List.of(field);
		for (int i = 0; i < fields.size(); i++) {
			if (FieldSelection.selects(one, fields.path(i), config.pathSeparator())) {
				return true;
			}
		}
		return fields.nulls().contains(field);
	}

}
