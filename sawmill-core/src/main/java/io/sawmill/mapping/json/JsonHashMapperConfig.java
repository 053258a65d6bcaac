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
package io.sawmill.mapping.json;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.KeyEncoding;
import io.sawmill.mapping.internal.KeyTemplate;
import io.sawmill.mapping.internal.VersionSource;

/**
 * Immutable configuration of {@link JsonHashMapper}: which key each record goes to, which
 * fields it writes, how long the hash lives, and whether its writes are version-guarded.
 * Build with {@link #custom()}; invalid values fail at {@link Builder#build()} with a
 * message naming the value.
 */
public final class JsonHashMapperConfig {

	/** No TTL: the hash does not expire. */
	public static final Duration DEFAULT_TTL = Duration.ZERO;

	/** Nested objects are flattened into fields named {@code parent.child}. */
	public static final String DEFAULT_PATH_SEPARATOR = ".";

	/** How long a deleted key's version is kept, with version-guarded writes. */
	public static final Duration DEFAULT_TOMBSTONE_RETENTION = Duration.ofHours(1);

	private final KeyTemplate keyTemplate;

	private final KeyEncoding keyEncoding;

	private final List<String> fields;

	private final Duration ttl;

	private final String pathSeparator;

	private final @Nullable VersionSource version;

	private final Duration tombstoneRetention;

	private JsonHashMapperConfig(Builder builder, String keyTemplate) {
		this.keyTemplate = KeyTemplate.parse(keyTemplate, builder.keyEncoding);
		this.keyEncoding = builder.keyEncoding;
		this.fields = List.copyOf(builder.fields);
		this.ttl = builder.ttl;
		this.pathSeparator = builder.pathSeparator;
		this.version = builder.version == null ? null : VersionSource.parse(builder.version);
		this.tombstoneRetention = builder.tombstoneRetention;
	}

	public static Builder custom() {
		return new Builder();
	}

	public static Builder from(JsonHashMapperConfig base) {
		Builder builder = new Builder();
		builder.keyTemplate = base.keyTemplate.source();
		builder.keyEncoding = base.keyEncoding;
		builder.fields = base.fields;
		builder.ttl = base.ttl;
		builder.pathSeparator = base.pathSeparator;
		builder.version = base.version == null ? null : base.version.source();
		builder.tombstoneRetention = base.tombstoneRetention;
		return builder;
	}

	KeyTemplate keyTemplate() {
		return keyTemplate;
	}

	/** The key template as configured, e.g. {@code user:{userId}}. */
	public String keyTemplateSource() {
		return keyTemplate.source();
	}

	/** How {@code {@key}} writes the Kafka key; {@link KeyEncoding#UTF8} by default. */
	public KeyEncoding keyEncoding() {
		return keyEncoding;
	}

	/**
	 * Whether the key template contains {@code {@key}}. A template that does not, on a
	 * topic partitioned by another key, can send one Redis key's records through several
	 * partitions, whose order Kafka does not keep (docs/reliability.md).
	 */
	public boolean keyTemplateUsesRecordKey() {
		return keyTemplate.usesRecordKey();
	}

	/** The selected top-level fields; empty means all. */
	public List<String> fields() {
		return fields;
	}

	/** The TTL set on every hash written; {@link Duration#ZERO} means none. */
	public Duration ttl() {
		return ttl;
	}

	public String pathSeparator() {
		return pathSeparator;
	}

	/**
	 * Where each record's version comes from ({@code timestamp} or {@code field:<path>});
	 * empty when writes are not version-guarded.
	 */
	public Optional<String> version() {
		return Optional.ofNullable(version).map(VersionSource::source);
	}

	@Nullable VersionSource versionSource() {
		return version;
	}

	/**
	 * How long a deleted key's version is kept as a tombstone marker, with
	 * version-guarded writes.
	 */
	public Duration tombstoneRetention() {
		return tombstoneRetention;
	}

	public static final class Builder {

		private @Nullable String keyTemplate;

		private KeyEncoding keyEncoding = KeyEncoding.DEFAULT;

		private List<String> fields = List.of();

		private Duration ttl = DEFAULT_TTL;

		private String pathSeparator = DEFAULT_PATH_SEPARATOR;

		private @Nullable String version;

		private Duration tombstoneRetention = DEFAULT_TOMBSTONE_RETENTION;

		private Builder() {
		}

		/**
		 * The Redis key of each record: literal text with {@code {field}} placeholders
		 * taken from the JSON value (dot paths reach into nested objects) and
		 * {@code {@key}}, {@code {@topic}}, {@code {@partition}} taken from the record,
		 * e.g. {@code user:{userId}}. <code>&#123;&#123;</code> and
		 * <code>&#125;&#125;</code> are literal braces, e.g. {@code {{user}}:{userId}}
		 * for the Redis Cluster hash tag {@code {user}}.
		 */
		public Builder keyTemplate(@Nullable String keyTemplate) {
			this.keyTemplate = keyTemplate;
			return this;
		}

		/**
		 * How {@code {@key}} writes the Kafka key as text; {@link KeyEncoding#UTF8} by
		 * default.
		 */
		public Builder keyEncoding(KeyEncoding keyEncoding) {
			if (keyEncoding == null) {
				throw new IllegalArgumentException("keyEncoding must be one of UTF8, HEX or BASE64, but was null");
			}
			this.keyEncoding = keyEncoding;
			return this;
		}

		/**
		 * The top-level fields to write (each flattened if it is an object); empty writes
		 * all.
		 */
		public Builder fields(List<String> fields) {
			Objects.requireNonNull(fields, "fields");
			for (String field : fields) {
				if (field == null || field.isBlank()) {
					throw new IllegalArgumentException("fields must not contain blank names, but was " + fields);
				}
			}
			this.fields = fields;
			return this;
		}

		/** The TTL of every hash written; zero means the hash does not expire. */
		public Builder ttl(Duration ttl) {
			if (ttl == null || ttl.isNegative()) {
				throw new IllegalArgumentException("ttl must be zero (no expiry) or positive, but was " + ttl);
			}
			this.ttl = ttl;
			return this;
		}

		/** The separator between the names of nested fields; {@code .} by default. */
		public Builder pathSeparator(String pathSeparator) {
			if (pathSeparator == null || pathSeparator.isEmpty()) {
				throw new IllegalArgumentException("pathSeparator must not be empty, but was '" + pathSeparator + "'");
			}
			this.pathSeparator = pathSeparator;
			return this;
		}

		/**
		 * Version-guards every write ({@link io.sawmill.mapping.VersionGuard}):
		 * {@code timestamp} (the Kafka record timestamp) or {@code field:<path>} (a JSON
		 * field holding a non-negative integer or an ISO-8601 instant; a tombstone
		 * carries it in a Kafka header of that name); null turns it off.
		 */
		public Builder version(@Nullable String version) {
			if (version != null) {
				VersionSource.parse(version);
			}
			this.version = version;
			return this;
		}

		/**
		 * How long a deleted key keeps its version, with version-guarded writes, so that
		 * an older record arriving within that time cannot bring it back; zero keeps
		 * none.
		 */
		public Builder tombstoneRetention(Duration tombstoneRetention) {
			if (tombstoneRetention == null || tombstoneRetention.isNegative()) {
				throw new IllegalArgumentException(
						"tombstoneRetention must be zero (none) or positive, but was " + tombstoneRetention);
			}
			this.tombstoneRetention = tombstoneRetention;
			return this;
		}

		public JsonHashMapperConfig build() {
			if (keyTemplate == null || keyTemplate.isBlank()) {
				throw new IllegalArgumentException(
						"keyTemplate must be set, e.g. 'user:{userId}' or '{@key}', but was '" + keyTemplate + "'");
			}
			return new JsonHashMapperConfig(this, keyTemplate);
		}

	}

}
