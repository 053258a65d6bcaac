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

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.jspecify.annotations.Nullable;

import io.sawmill.mapping.MappingUnavailableException;
import io.sawmill.mapping.RecordMappingException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Asks the registry's Confluent-compatible API for one schema by id
 * ({@code GET <url>/schemas/ids/<id>}). An id the registry does not know (404) is the
 * record's fault; no answer, a timeout or any other status is the registry's, so it is
 * {@link MappingUnavailableException}. Thread-safe.
 */
final class SchemaLookup {

	/** A schema as the registry stores it. */
	record Registered(int id, String type, String text, boolean hasReferences) {
	}

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final SchemaRegistryConfig config;

	private final HttpClient http;

	private final String authorization;

	SchemaLookup(SchemaRegistryConfig config) {
		this.config = config;
		this.http = HttpClient.newBuilder().connectTimeout(config.requestTimeout()).build();
		String username = config.username();
		this.authorization = username == null ? "" : "Basic " + Base64.getEncoder()
			.encodeToString((username + ":" + config.password()).getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * @throws RecordMappingException when the registry has no schema with this id
	 * @throws MappingUnavailableException when the registry cannot be asked
	 */
	Registered fetch(int id) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(config.url() + "/schemas/ids/" + id))
			.timeout(config.requestTimeout())
			.header("Accept", "application/vnd.schemaregistry.v1+json, application/json");
		if (!authorization.isEmpty()) {
			request.header("Authorization", authorization);
		}
		HttpResponse<String> response;
		try {
			response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw unavailable(id, ex.toString(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw unavailable(id, "interrupted", ex);
		}
		if (response.statusCode() == 404) {
			throw new RecordMappingException("schema id " + id + " is not in the " + config + ": " + response.body());
		}
		if (response.statusCode() != 200) {
			throw unavailable(id, "HTTP " + response.statusCode() + " " + response.body(), null);
		}
		try {
			JsonNode body = JSON.readTree(response.body());
			JsonNode references = body.path("references");
			return new Registered(id, body.path("schemaType").asString("AVRO"), body.path("schema").asString(),
					references.isArray() && !references.isEmpty());
		}
		catch (JacksonException ex) {
			throw unavailable(id, "the answer is not JSON: " + ex.getOriginalMessage(), ex);
		}
	}

	private MappingUnavailableException unavailable(int id, String why, @Nullable Throwable cause) {
		return new MappingUnavailableException("schema id " + id + " cannot be fetched from the " + config + ": " + why,
				cause);
	}

}
