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
package io.sawmill.mapping.registry.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Immutable configuration of the schema registry a route reads framed values or keys
 * with: where its Confluent-compatible API is, how to log in, how long to wait for an
 * answer and how many schemas to keep. Build with {@link #custom(String)}; each setter
 * fails on a bad value, naming it.
 */
public final class SchemaRegistryConfig {

	/** How long one schema lookup may take before the registry counts as unreachable. */
	public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);

	/**
	 * How many parsed schemas a route keeps. A schema id always names the same schema, so
	 * a cached schema never goes stale; the least recently used is dropped first.
	 */
	public static final int DEFAULT_CACHE_SIZE = 1000;

	private final URI url;

	private final @Nullable String username;

	private final @Nullable String password;

	private final Duration requestTimeout;

	private final int cacheSize;

	private SchemaRegistryConfig(Builder b) {
		this.url = b.url;
		this.username = b.username;
		this.password = b.password;
		this.requestTimeout = b.requestTimeout;
		this.cacheSize = b.cacheSize;
	}

	/**
	 * @param url the base URL of the registry's Confluent-compatible API, e.g.
	 * {@code http://registry:8081} (Confluent, Karapace, Redpanda) or
	 * {@code http://registry:8080/apis/ccompat/v7} (Apicurio)
	 */
	public static Builder custom(String url) {
		return new Builder(url);
	}

	public URI url() {
		return url;
	}

	/** The user of HTTP basic authentication, or null for none. */
	public @Nullable String username() {
		return username;
	}

	public @Nullable String password() {
		return password;
	}

	public Duration requestTimeout() {
		return requestTimeout;
	}

	public int cacheSize() {
		return cacheSize;
	}

	@Override
	public String toString() {
		return "schema registry " + url + (username == null ? "" : " as " + username);
	}

	public static final class Builder {

		private final URI url;

		private @Nullable String username;

		private @Nullable String password;

		private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;

		private int cacheSize = DEFAULT_CACHE_SIZE;

		private Builder(@Nullable String url) {
			this.url = parse(url);
		}

		private static URI parse(@Nullable String url) {
			String text = url == null ? "" : url.strip();
			try {
				URI uri = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
				if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
						&& uri.getUserInfo() == null) {
					return uri;
				}
			}
			catch (URISyntaxException ex) {
				// reported below
			}
			throw new IllegalArgumentException(
					"url must be an http or https URL without user info (set username and password instead), "
							+ "e.g. 'http://registry:8081', but was '" + url + "'");
		}

		/** HTTP basic authentication; both set, or neither. */
		public Builder basicAuth(@Nullable String username, @Nullable String password) {
			boolean user = username != null && !username.isEmpty();
			boolean secret = password != null && !password.isEmpty();
			if (user != secret) {
				throw new IllegalArgumentException("username and password must be set together, but only the "
						+ (user ? "username" : "password") + " is set");
			}
			this.username = user ? username : null;
			this.password = secret ? password : null;
			return this;
		}

		public Builder requestTimeout(Duration requestTimeout) {
			if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
				throw new IllegalArgumentException("request-timeout must be positive, but was " + requestTimeout);
			}
			this.requestTimeout = requestTimeout;
			return this;
		}

		public Builder cacheSize(int cacheSize) {
			if (cacheSize < 1) {
				throw new IllegalArgumentException("cache-size must be at least 1, but was " + cacheSize);
			}
			this.cacheSize = cacheSize;
			return this;
		}

		public SchemaRegistryConfig build() {
			Objects.requireNonNull(url, "url");
			return new SchemaRegistryConfig(this);
		}

	}

}
