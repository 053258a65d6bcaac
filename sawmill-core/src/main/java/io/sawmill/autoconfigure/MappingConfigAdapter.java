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

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sawmill.mapping.json.JsonHashMapperConfig;
import io.sawmill.mapping.registry.internal.SchemaRegistryConfig;
import io.sawmill.mapping.route.internal.RouteConfig;
import io.sawmill.mapping.route.internal.Routes;

/**
 * Where {@code sawmill.mapping.*} and {@code sawmill.routes} become the mapper's configs:
 * one {@link JsonHashMapperConfig}, or a {@link RouteConfig} per route. A bad value fails
 * start-up with the property to change, as in {@link SawmillConfigAdapter}.
 */
final class MappingConfigAdapter {

	// the adapter's warnings keep the one logger name users set levels for
	private static final Logger log = LoggerFactory.getLogger(MappingConfigAdapter.class);

	private MappingConfigAdapter() {
	}

	static JsonHashMapperConfig mapping(SawmillProperties p) {
		if (p.getMapping().getKeyTemplate() == null) {
			throw new SawmillConfigurationException("sawmill.mapping.key-template is not set",
					"Set sawmill.mapping.key-template (e.g. 'user:{userId}', or '{@key}' for the Kafka key), "
							+ "or define a RecordMapper bean.");
		}
		JsonHashMapperConfig mapping = SawmillConfigAdapter.bind("sawmill.mapping.*",
				() -> JsonHashMapperConfig.custom()
					.keyTemplate(p.getMapping().getKeyTemplate())
					.keyEncoding(p.getMapping().getKeyEncoding())
					.fields(p.getMapping().getFields())
					.ttl(p.getMapping().getTtl())
					.version(p.getMapping().getVersion())
					.tombstoneRetention(p.getMapping().getTombstoneRetention())
					.build());
		// with a version, an older record through another partition is stale rather than
		// written over a newer one
		if (!mapping.keyTemplateUsesRecordKey() && mapping.version().isEmpty()) {
			log.warn(
					"sawmill.mapping.key-template '{}' does not use {@key}: if the topic is partitioned by another key, "
							+ "the records of one Redis key can come through several partitions, whose order Kafka does not keep, "
							+ "and an older version can overwrite a newer one. Use {@key} in the template, or have producers key "
							+ "the topic by the field(s) the template reads (docs/reliability.md, \"Key templates and ordering\").",
					mapping.keyTemplateSource());
		}
		return mapping;
	}

	/**
	 * The routes of {@code sawmill.routes}, each validated: a bad value fails start-up
	 * naming the route's index, its name and the value.
	 */
	static List<RouteConfig> routes(SawmillProperties p) {
		if (p.getMapping().getKeyTemplate() != null) {
			throw new SawmillConfigurationException("sawmill.routes and sawmill.mapping.key-template are both set",
					"Move sawmill.mapping.* into a route (sawmill.routes[n].key-template, ...), or remove sawmill.routes.");
		}
		if (p.getMapping().getVersion() != null) {
			throw new SawmillConfigurationException(
					"sawmill.mapping.version '" + p.getMapping().getVersion() + "' is set together with sawmill.routes",
					"Version-guarded writes work with the built-in mapping (sawmill.mapping.*) only: remove "
							+ "sawmill.mapping.version, or map with sawmill.mapping.* instead of routes.");
		}
		if (!p.getTopics().isEmpty()) {
			throw new SawmillConfigurationException(
					"sawmill.routes and sawmill.topics " + p.getTopics() + " are both set",
					"Name the topics in each route (sawmill.routes[n].topics) and remove sawmill.topics.");
		}
		List<RouteConfig> routes = new ArrayList<>();
		for (int i = 0; i < p.getRoutes().size(); i++) {
			SawmillProperties.Route r = p.getRoutes().get(i);
			String name = r.getName() != null ? r.getName() : "route-" + i;
			routes.add(SawmillConfigAdapter.bind("sawmill.routes[" + i + "]",
					() -> (r.getTopics().isEmpty() ? RouteConfig.custom(name)
							: RouteConfig.custom(name).topics(r.getTopics()))
						.topicPattern(r.getTopicPattern())
						.type(r.getType())
						.keyTemplate(r.getKeyTemplate())
						.keyEncoding(r.getKeyEncoding())
						.fields(r.getFields())
						.ttl(r.getTtl())
						.ttlField(r.getTtlField())
						.ttlHeader(r.getTtlHeader())
						.nullFields(r.getNullFields())
						.hashUpdate(r.getHashUpdate())
						.valueField(r.getValueField())
						.scoreField(r.getScoreField())
						.member(r.getMember())
						.listEnd(r.getListEnd())
						.maxLength(r.getMaxLength())
						.valueFormat(r.getValueFormat())
						.avroSchema(r.getAvroSchema())
						.valueDeserializer(r.getValueDeserializer())
						.valueDeserializerProperties(r.getValueDeserializerProperties())
						.keyFormat(r.getKeyFormat())
						.schemaRegistry(schemaRegistry(r.getSchemaRegistry()))
						.deadLetterTopic(r.getDeadLetterTopic())
						.build()));
		}
		for (RouteConfig route : routes) {
			if (!route.ordersByRecordKey()) {
				log.warn(
						"Route '{}': neither key-template '{}' nor member uses {@key}: if its topics are partitioned by another "
								+ "key, an older record can overwrite a newer one (docs/reliability.md, \"Key templates and ordering\").",
						route.name(), route.keyTemplateSource());
			}
		}
		return routes;
	}

	/**
	 * A route's {@code schema-registry}, or null when it has no URL; its other settings
	 * without a URL are refused, not ignored.
	 */
	private static @Nullable SchemaRegistryConfig schemaRegistry(SawmillProperties.Route.SchemaRegistry r) {
		if (r.getUrl() == null || r.getUrl().isBlank()) {
			if (r.getUsername() != null || r.getPassword() != null) {
				throw new IllegalArgumentException("schema-registry.username and password are set, but not "
						+ "schema-registry.url; set the URL of the registry's Confluent-compatible API");
			}
			return null;
		}
		try {
			return SchemaRegistryConfig.custom(r.getUrl())
				.basicAuth(r.getUsername(), r.getPassword())
				.requestTimeout(r.getRequestTimeout())
				.cacheSize(r.getCacheSize())
				.build();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("schema-registry." + ex.getMessage(), ex);
		}
	}

	/**
	 * The mapper of all routes (one consumer group, one container, dispatching by topic).
	 */
	static Routes routeMapper(SawmillProperties p) {
		List<RouteConfig> routes = routes(p);
		return SawmillConfigAdapter.bind("sawmill.routes", () -> Routes.of(routes));
	}

}
