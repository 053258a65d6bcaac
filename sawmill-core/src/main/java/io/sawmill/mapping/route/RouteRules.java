package io.sawmill.mapping.route;

import java.util.EnumSet;
import java.util.Set;

/**
 * The rules between a route's options, checked once its values are each valid: which options
 * apply to which {@link RedisType}, which a type needs, and which {@link ValueFormat} can feed which
 * type. Each broken rule is an {@link IllegalArgumentException} naming the route, the option as
 * written in YAML, and the value.
 */
final class RouteRules {

	private static final Set<RedisType> WITH_MEMBER = EnumSet.of(RedisType.SET, RedisType.SORTED_SET);
	private static final Set<RedisType> WITH_VALUE_FIELD = EnumSet.of(RedisType.STRING, RedisType.LIST);
	private static final Set<RedisType> WITH_FIELDS = EnumSet.of(RedisType.HASH, RedisType.STREAM);
	private static final Set<RedisType> WITH_MAX_LENGTH = EnumSet.of(RedisType.LIST, RedisType.STREAM);

	private RouteRules() {
	}

	static void check(RouteConfig route) {
		RedisType type = route.type();
		requireOnlyFor(route, "member", route.member() == null ? null : route.member().source(), WITH_MEMBER);
		requireOnlyFor(route, "score-field", route.scoreField(), EnumSet.of(RedisType.SORTED_SET));
		requireOnlyFor(route, "value-field", route.valueField(), WITH_VALUE_FIELD);
		requireOnlyFor(route, "fields", route.fields().isEmpty() ? null : route.fields(), WITH_FIELDS);
		requireOnlyFor(route, "max-length", route.maxLength() == 0 ? null : route.maxLength(), WITH_MAX_LENGTH);
		requireOnlyFor(route, "hash-update", route.hashUpdate() == HashUpdate.MERGE ? null : route.hashUpdate(),
				EnumSet.of(RedisType.HASH));
		requireOnlyFor(route, "null-fields", route.nullFields() == NullFields.SKIP ? null : route.nullFields(),
				EnumSet.of(RedisType.HASH));
		if (WITH_MEMBER.contains(type) && route.member() == null) {
			throw invalid(route.name(), "member", null, "must be set for type " + type + ", e.g. '{@key}' or '{productId}'");
		}
		if (type == RedisType.SORTED_SET && route.scoreField() == null) {
			throw invalid(route.name(), "score-field", null, "must be set for type SORTED_SET, e.g. 'score'");
		}
		if (route.ttlField() != null && route.ttlHeader() != null) {
			throw invalid(route.name(), "ttl-header", route.ttlHeader(),
					"cannot be set together with ttl-field '" + route.ttlField() + "'");
		}
		if (type == RedisType.DELETE && (!route.ttl().isZero() || route.ttlField() != null || route.ttlHeader() != null)) {
			throw invalid(route.name(), "ttl", route.ttl(), "type DELETE deletes keys, so it has no TTL");
		}
		checkValueFormat(route);
	}

	private static void checkValueFormat(RouteConfig route) {
		ValueFormat format = route.valueFormat();
		RedisType type = route.type();
		switch (format) {
			case STRING -> {
				if (EnumSet.of(RedisType.HASH, RedisType.STREAM, RedisType.SORTED_SET).contains(type)) {
					throw invalid(route.name(), "value-format", format,
							"type " + type + " needs value fields, which a STRING value does not have");
				}
				for (String option : new String[] { route.valueField(), route.ttlField() }) {
					if (option != null) {
						throw invalid(route.name(), "value-format", format, "a STRING value has no field '" + option + "'");
					}
				}
				if (route.keyTemplate().usesValueFields() || (route.member() != null && route.member().usesValueFields())) {
					throw invalid(route.name(), "value-format", format, "a STRING value has no fields, so the key-template "
							+ "and member can use {@key}, {@topic} and {@partition} only");
				}
			}
			case AVRO -> {
				if (route.avroSchema() == null) {
					throw invalid(route.name(), "avro-schema", null,
							"must be set for value-format AVRO (the writer's schema, as JSON)");
				}
			}
			case DESERIALIZER -> {
				if (route.valueDeserializer() == null) {
					throw invalid(route.name(), "value-deserializer", null,
							"must be set for value-format DESERIALIZER (a Kafka Deserializer class)");
				}
			}
			case JSON -> {
			}
		}
	}

	private static void requireOnlyFor(RouteConfig route, String option, Object value, Set<RedisType> types) {
		if (value != null && !types.contains(route.type())) {
			throw invalid(route.name(), option, value, "applies to type "
					+ String.join(" or ", types.stream().map(Enum::name).toList()) + " only, and this route's type is "
					+ route.type());
		}
	}

	static IllegalArgumentException invalid(String route, String option, Object value, String why) {
		return new IllegalArgumentException("route '" + route + "': " + option + " " + why + ", but was "
				+ (value instanceof String ? "'" + value + "'" : value));
	}
}
