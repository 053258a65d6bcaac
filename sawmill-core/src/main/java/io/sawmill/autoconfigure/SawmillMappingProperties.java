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
package io.sawmill.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.KeyEncoding;
import io.sawmill.mapping.json.JsonHashMapperConfig;

/**
 * The built-in JSON-to-hash mapping, used when the application defines no RecordMapper
 * bean.
 */
public class SawmillMappingProperties {

	/**
	 * Redis key of each record, e.g. 'user:{userId}'; '{@key}' is the Kafka key, dot
	 * paths reach nested fields, '{{' and '}}' are literal braces.
	 */
	private @Nullable String keyTemplate;

	/**
	 * How '{@key}' writes the Kafka key: UTF8 (text keys; others are dead-lettered), HEX
	 * or BASE64 (URL-safe, unpadded) for binary keys.
	 */
	private KeyEncoding keyEncoding = KeyEncoding.DEFAULT;

	/**
	 * Top-level value fields to write to a hash or stream (objects are flattened with dot
	 * paths); empty writes all.
	 */
	private List<String> fields = new ArrayList<>();

	/** Time to live of every key written; 0 means no expiry. */
	private Duration ttl = Duration.ZERO;

	/**
	 * Version-guarded writes (Redis 7 Functions): 'timestamp' (Kafka record timestamp) or
	 * 'field:<json field>' (integer or ISO-8601 instant); an older record than Redis
	 * holds is skipped and counted stale. Unset: off.
	 */
	private @Nullable String version;

	/**
	 * With a version, how long a deleted key keeps its version so that a late older
	 * record cannot recreate it; 0 keeps none.
	 */
	private Duration tombstoneRetention = JsonHashMapperConfig.DEFAULT_TOMBSTONE_RETENTION;

	public @Nullable String getKeyTemplate() {
		return keyTemplate;
	}

	public void setKeyTemplate(@Nullable String keyTemplate) {
		this.keyTemplate = keyTemplate;
	}

	public KeyEncoding getKeyEncoding() {
		return keyEncoding;
	}

	public void setKeyEncoding(KeyEncoding keyEncoding) {
		this.keyEncoding = keyEncoding;
	}

	public List<String> getFields() {
		return fields;
	}

	public void setFields(List<String> fields) {
		this.fields = fields;
	}

	public Duration getTtl() {
		return ttl;
	}

	public void setTtl(Duration ttl) {
		this.ttl = ttl;
	}

	public @Nullable String getVersion() {
		return version;
	}

	public void setVersion(@Nullable String version) {
		this.version = version;
	}

	public Duration getTombstoneRetention() {
		return tombstoneRetention;
	}

	public void setTombstoneRetention(Duration tombstoneRetention) {
		this.tombstoneRetention = tombstoneRetention;
	}

}
