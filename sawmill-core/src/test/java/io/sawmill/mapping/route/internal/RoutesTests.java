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

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

import io.sawmill.mapping.RecordMappingException;
import io.sawmill.mapping.RedisWrite;
import io.sawmill.mapping.route.HashUpdate;
import io.sawmill.mapping.route.ListEnd;
import io.sawmill.mapping.route.NullFields;
import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.ValueFormat;

class RoutesTests {

	private static Routes routes(String topic, RedisType type, String keyTemplate,
			UnaryOperator<RouteConfig.Builder> options) {
		return Routes.of(List
			.of(options.apply(RouteConfig.custom(topic).topics(List.of(topic)).type(type).keyTemplate(keyTemplate))
				.build()));
	}

	private static ConsumerRecord<byte[], byte[]> record(String topic, String key, String value) {
		return record(topic, key, value == null ? null : value.getBytes(UTF_8));
	}

	private static ConsumerRecord<byte[], byte[]> record(String topic, String key, byte[] value) {
		return new ConsumerRecord<>(topic, 0, 7L, key.getBytes(UTF_8), value);
	}

	/**
	 * Each write as the command line redis-cli would show, e.g.
	 * {@code HSET user:1 name Ann}.
	 */
	private static List<String> commands(List<RedisWrite> writes) {
		List<String> lines = new ArrayList<>();
		for (RedisWrite write : writes) {
			List<String> words = new ArrayList<>();
			if (write instanceof RedisWrite.HashSet hset) {
				words.add("HSET " + text(hset.key()));
				hset.fields().forEach((f, v) -> words.add(text(f) + " " + text(v)));
			}
			else if (write instanceof RedisWrite.Expire expire) {
				words.add("EXPIRE " + text(expire.key()) + " " + expire.ttl().toSeconds());
			}
			else if (write instanceof RedisWrite.Delete delete) {
				words.add("DEL " + text(delete.key()));
			}
			else if (write instanceof RedisWrite.Command command) {
				words.add(command.name() + " " + text(command.key()));
				command.args().forEach(arg -> words.add(text(arg)));
			}
			lines.add(String.join(" ", words));
		}
		return lines;
	}

	private static String text(byte[] bytes) {
		return new String(bytes, UTF_8);
	}

	@Test
	void hashMergeWritesTheFieldsAndDeletesNullFieldsWhenConfigured() {
		Routes routes = routes("users", RedisType.HASH, "user:{@key}",
				b -> b.nullFields(NullFields.DELETE).ttl(Duration.ofMinutes(1)));
		assertThat(commands(routes.map(record("users", "1", "{\"name\":\"Ann\",\"email\":null,\"a\":{\"b\":null}}"))))
			.containsExactly("HSET user:1 name Ann", "HDEL user:1 email a.b", "EXPIRE user:1 60");
		assertThat(commands(routes.map(record("users", "1", (String) null)))).containsExactly("DEL user:1");
	}

	@Test
	void hashReplaceWritesAsideAndRenamesOverTheKeyInTheSameClusterSlot() {
		Routes routes = routes("users", RedisType.HASH, "user:{@key}", b -> b.hashUpdate(HashUpdate.REPLACE));
		assertThat(commands(routes.map(record("users", "1", "{\"name\":\"Ann\"}")))).containsExactly(
				"DEL {user:1}:sawmill-replace", "HSET {user:1}:sawmill-replace name Ann",
				"RENAME {user:1}:sawmill-replace user:1");
		assertThat(commands(routes.map(record("users", "1", "{\"gone\":null}")))).containsExactly("DEL user:1");
		assertThat(routes.map(record("users", "1", "{\"name\":\"Ann\"}"))).allMatch(RedisWrite::idempotent);
	}

	@Test
	void theTemporaryKeyOfAReplaceKeepsTheKeysHashTag() {
		assertThat(text(RouteMapper.tempKey("{user}:1".getBytes(UTF_8)))).isEqualTo("{user}:1:sawmill-replace");
		assertThat(text(RouteMapper.tempKey("user:1".getBytes(UTF_8)))).isEqualTo("{user:1}:sawmill-replace");
		for (String noTag : List.of("a}b", "a{}b")) {
			assertThatThrownBy(() -> RouteMapper.tempKey(noTag.getBytes(UTF_8)))
				.isInstanceOf(RecordMappingException.class)
				.hasMessageContaining("hash tag");
		}
	}

	@Test
	void stringWritesOneFieldWithTheTtlOfTheHeaderOrTheFixedOne() {
		Routes routes = routes("flags", RedisType.STRING, "flag:{@key}",
				b -> b.valueField("state").ttlHeader("ttl").ttl(Duration.ofSeconds(60)));
		ConsumerRecord<byte[], byte[]> withHeader = record("flags", "f", "{\"state\":\"on\"}");
		withHeader.headers().add("ttl", "300".getBytes(UTF_8));
		assertThat(commands(routes.map(withHeader))).containsExactly("SET flag:f on PX 300000");
		assertThat(commands(routes.map(record("flags", "f", "{\"state\":\"off\"}"))))
			.containsExactly("SET flag:f off PX 60000");
		assertThatThrownBy(() -> routes.map(record("flags", "f", "{\"other\":1}")))
			.isInstanceOf(RecordMappingException.class)
			.hasMessage("value-field 'state' is missing or null");
	}

	@Test
	void sortedSetAddsTheMemberWithItsScoreAndATombstoneRemovesIt() {
		Routes routes = routes("scores", RedisType.SORTED_SET, "board:{@topic}",
				b -> b.scoreField("points").member("{@key}"));
		assertThat(commands(routes.map(record("scores", "p1", "{\"points\":15}"))))
			.containsExactly("ZADD board:scores 15 p1");
		assertThat(commands(routes.map(record("scores", "p1", (String) null)))).containsExactly("ZREM board:scores p1");
		assertThat(routes.map(record("scores", "p1", "{\"points\":15}"))).allMatch(RedisWrite::idempotent);
		assertThatThrownBy(() -> routes.map(record("scores", "p1", "{\"points\":\"many\"}")))
			.hasMessage("score-field 'points' must be a number, but was 'many'");
	}

	@Test
	void setAddsAndRemovesMembersOfStringValues() {
		Routes routes = routes("tags", RedisType.SET, "tags:{@topic}",
				b -> b.member("{@key}").valueFormat(ValueFormat.STRING));
		assertThat(commands(routes.map(record("tags", "t1", "not json")))).containsExactly("SADD tags:tags t1");
		assertThat(commands(routes.map(record("tags", "t1", (String) null)))).containsExactly("SREM tags:tags t1");
	}

	@Test
	void listPushesAndTrimsToTheCapAndSkipsTombstones() {
		Routes right = routes("feed", RedisType.LIST, "feed:{@key}", b -> b.listEnd(ListEnd.RIGHT).maxLength(3));
		assertThat(commands(right.map(record("feed", "f", "{\"msg\":1}")))).containsExactly("RPUSH feed:f {\"msg\":1}",
				"LTRIM feed:f -3 -1");
		assertThat(right.map(record("feed", "f", (String) null))).isEmpty();
		assertThat(right.map(record("feed", "f", "{}"))).extracting(RedisWrite::idempotent)
			.containsExactly(false, true);
		Routes left = routes("feed", RedisType.LIST, "feed:{@key}", b -> b.valueField("msg").maxLength(3));
		assertThat(commands(left.map(record("feed", "f", "{\"msg\":1}")))).containsExactly("LPUSH feed:f 1",
				"LTRIM feed:f 0 2");
	}

	@Test
	void streamAppendsTheSelectedFieldsTrimmedApproximately() {
		Routes routes = routes("events", RedisType.STREAM, "events:{@key}",
				b -> b.fields(List.of("kind")).maxLength(1000));
		assertThat(commands(routes.map(record("events", "e", "{\"kind\":\"click\",\"noise\":1}"))))
			.containsExactly("XADD events:e MAXLEN ~ 1000 * kind click");
		assertThat(routes.map(record("events", "e", "{\"kind\":\"click\"}"))).noneMatch(RedisWrite::idempotent);
		assertThat(routes.map(record("events", "e", (String) null))).isEmpty();
	}

	@Test
	void deleteDeletesTheKeyOfEveryRecord() {
		Routes routes = routes("purge", RedisType.DELETE, "user:{@key}", UnaryOperator.identity());
		assertThat(commands(routes.map(record("purge", "1", "{}")))).containsExactly("DEL user:1");
		assertThat(commands(routes.map(record("purge", "1", (String) null)))).containsExactly("DEL user:1");
	}

	@Test
	void eachRecordIsMappedByTheRouteOfItsTopic() {
		Routes routes = Routes.of(List.of(
				RouteConfig.custom("a").topics(List.of("t1", "t2")).keyTemplate("a:{@key}").build(),
				RouteConfig.custom("b").topics(List.of("t3")).type(RedisType.DELETE).keyTemplate("b:{@key}").build()));
		assertThat(commands(routes.map(record("t2", "1", "{\"x\":1}")))).containsExactly("HSET a:1 x 1");
		assertThat(commands(routes.map(record("t3", "1", "{\"x\":1}")))).containsExactly("DEL b:1");
		assertThat(routes.topics()).containsExactly("t1", "t2", "t3");
		assertThatThrownBy(() -> routes.map(record("t9", "1", "{}"))).hasMessage("no route reads topic 't9'");
	}

	@Test
	void aTopicNoRouteNamesIsMappedByTheFirstRouteWhosePatternMatchesIt() {
		Routes routes = Routes.of(List.of(
				RouteConfig.custom("named").topics(List.of("audit")).keyTemplate("n:{@key}").build(),
				RouteConfig.custom("orders").topicPattern("orders-.*").keyTemplate("o:{@key}").build(),
				RouteConfig.custom("us").topicPattern(".*-us").type(RedisType.DELETE).keyTemplate("u:{@key}").build()));
		assertThat(commands(routes.map(record("orders-us", "1", "{\"x\":1}")))).containsExactly("HSET o:1 x 1");
		assertThat(commands(routes.map(record("payments-us", "1", "{}")))).containsExactly("DEL u:1");
		assertThat(commands(routes.map(record("audit", "1", "{\"x\":1}")))).containsExactly("HSET n:1 x 1");
		assertThat(routes.topics()).containsExactly("audit");
	}

	@Test
	void aPatternMustMatchTheWholeTopicName() {
		Routes routes = Routes
			.of(List.of(RouteConfig.custom("orders").topicPattern("orders").keyTemplate("o:{@key}").build()));
		assertThatThrownBy(() -> routes.map(record("orders-us", "1", "{}")))
			.hasMessage("no route reads topic 'orders-us'");
	}

	@Test
	void aNamedTopicThatAnotherRoutesPatternMatchesFailsAtStartUp() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Routes
				.of(List.of(RouteConfig.custom("a").topics(List.of("orders-eu")).keyTemplate("a:{@key}").build(),
						RouteConfig.custom("b").topicPattern("orders-.*").keyTemplate("b:{@key}").build())))
			.withMessage(
					"topic 'orders-eu' of route 'a' matches topic-pattern 'orders-.*' of route 'b'; a topic belongs to one route");
	}

	@Test
	void aRouteHasTopicsOrATopicPatternNotBothAndAPatternMustCompile() {
		assertThatIllegalArgumentException().isThrownBy(
				() -> RouteConfig.custom("a").topics(List.of("t")).topicPattern("t.*").keyTemplate("a:{@key}").build())
			.withMessage("route 'a': topics name at least one topic, or set topic-pattern instead (one of the two, "
					+ "topic-pattern is 't.*'), but was [t]");
		assertThatIllegalArgumentException().isThrownBy(() -> RouteConfig.custom("a").keyTemplate("a:{@key}").build())
			.withMessageStartingWith("route 'a': topics name at least one topic, or set topic-pattern instead");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RouteConfig.custom("a").topicPattern("orders-(").keyTemplate("a:{@key}").build())
			.withMessageStartingWith(
					"route 'a': topic-pattern must be a Java regular expression (Unclosed group), but was 'orders-('");
	}

	@Test
	void invalidRoutesFailNamingTheRouteTheOptionAndTheValue() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RouteConfig.custom("scores")
				.topics(List.of("s"))
				.type(RedisType.SORTED_SET)
				.keyTemplate("b:{@key}")
				.member("{@key}")
				.build())
			.withMessage("route 'scores': score-field must be set for type SORTED_SET, e.g. 'score', but was null");
		assertThatIllegalArgumentException().isThrownBy(
				() -> RouteConfig.custom("users").topics(List.of("u")).keyTemplate("u:{@key}").valueField("x").build())
			.withMessage(
					"route 'users': value-field applies to type STRING or LIST only, and this route's type is HASH, but was 'x'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RouteConfig.custom("users").topics(List.of("u")).keyTemplate("u:{id").build())
			.withMessageStartingWith("route 'users': key-template 'u:{id' is invalid");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RouteConfig.custom("tags")
				.topics(List.of("t"))
				.type(RedisType.SET)
				.keyTemplate("t:{id}")
				.member("{@key}")
				.valueFormat(ValueFormat.STRING)
				.build())
			.withMessageContaining("route 'tags': value-format");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Routes
				.of(List.of(RouteConfig.custom("a").topics(List.of("t")).keyTemplate("a:{@key}").build(),
						RouteConfig.custom("b").topics(List.of("t")).keyTemplate("b:{@key}").build())))
			.withMessage("topic 't' is read by routes 'a' and 'b'; a topic belongs to one route");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> routes("p", RedisType.HASH, "p:{@key}",
					b -> b.valueFormat(ValueFormat.AVRO).avroSchema("{\"type\":")))
			.withMessageStartingWith("route 'p': avro-schema is not a valid Avro schema");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> routes("p", RedisType.HASH, "p:{@key}",
					b -> b.valueFormat(ValueFormat.DESERIALIZER).valueDeserializer("com.example.Missing")))
			.withMessageStartingWith("route 'p': value-deserializer 'com.example.Missing' cannot be created");
	}

	@Test
	void avroBinaryValuesAreReadWithTheConfiguredSchemaAndFlattened() throws IOException {
		Schema schema = new Schema.Parser().parse("""
				{"type":"record","name":"P","fields":[{"name":"name","type":"string"},
				 {"name":"email","type":["null","string"]},{"name":"tags","type":{"type":"array","items":"string"}},
				 {"name":"home","type":{"type":"record","name":"H","fields":[{"name":"city","type":"string"}]}}]}""");
		GenericRecord home = new GenericData.Record(schema.getField("home").schema());
		home.put("city", "Oslo");
		GenericRecord person = new GenericData.Record(schema);
		person.put("name", "Ann");
		person.put("email", null);
		person.put("tags", List.of("a", "b"));
		person.put("home", home);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
		new GenericDatumWriter<GenericRecord>(schema).write(person, encoder);
		encoder.flush();

		Routes routes = routes("people", RedisType.HASH, "p:{@key}",
				b -> b.valueFormat(ValueFormat.AVRO).avroSchema(schema.toString()).nullFields(NullFields.DELETE));
		assertThat(commands(routes.map(record("people", "1", out.toByteArray()))))
			.containsExactly("HSET p:1 name Ann tags [\"a\",\"b\"] home.city Oslo", "HDEL p:1 email");
		assertThatThrownBy(() -> routes.map(record("people", "2", new byte[] { 1, 2, 3 })))
			.isInstanceOf(RecordMappingException.class)
			.hasMessageStartingWith("value is not Avro of the route's schema P");
	}

	@Test
	void aConfiguredDeserializersMapIsMappedLikeAJsonObject() {
		Routes routes = routes("m", RedisType.HASH, "m:{@key}",
				b -> b.valueFormat(ValueFormat.DESERIALIZER)
					.valueDeserializer(KeyValueDeserializer.class.getName())
					.valueDeserializerProperties(Map.of("field", "said")));
		assertThat(commands(routes.map(record("m", "1", "hello")))).containsExactly("HSET m:1 said hello");
	}

	@Test
	void aConfiguredDeserializersJacksonTreeIsMappedLikeAJsonObject() {
		Routes routes = routes("t", RedisType.HASH, "t:{@key}",
				b -> b.valueFormat(ValueFormat.DESERIALIZER).valueDeserializer(TreeDeserializer.class.getName()));
		assertThat(commands(routes.map(record("t", "1", "{\"name\":\"Ann\",\"address\":{\"city\":\"Oslo\"}}"))))
			.containsExactly("HSET t:1 name Ann address.city Oslo");
	}

	@Test
	void aConfiguredDeserializersAvroRecordIsMappedLikeAJsonObject() {
		Routes routes = routes("a", RedisType.HASH, "a:{@key}",
				b -> b.valueFormat(ValueFormat.DESERIALIZER).valueDeserializer(PersonDeserializer.class.getName()));
		assertThat(commands(routes.map(record("a", "1", "Ann"))))
			.containsExactly("HSET a:1 name Ann address.city Oslo");
	}

	/**
	 * A JSON value as Jackson's tree, as a JSON deserializer that returns
	 * {@code JsonNode} does.
	 */
	public static final class TreeDeserializer implements Deserializer<tools.jackson.databind.JsonNode> {

		private static final tools.jackson.databind.json.JsonMapper JSON = tools.jackson.databind.json.JsonMapper
			.builder()
			.build();

		@Override
		public tools.jackson.databind.JsonNode deserialize(String topic, byte[] data) {
			return JSON.readTree(data);
		}

	}

	/**
	 * A name as an Avro {@code GenericRecord} with a nested record, as a schema
	 * registry's deserializer returns it.
	 */
	public static final class PersonDeserializer implements Deserializer<GenericRecord> {

		private static final Schema SCHEMA = new Schema.Parser()
			.parse("""
					{"type":"record","name":"Person","fields":[{"name":"name","type":"string"},
					 {"name":"address","type":{"type":"record","name":"Address","fields":[{"name":"city","type":"string"}]}}]}""");

		@Override
		public GenericRecord deserialize(String topic, byte[] data) {
			GenericRecord address = new GenericData.Record(SCHEMA.getField("address").schema());
			address.put("city", "Oslo");
			GenericRecord person = new GenericData.Record(SCHEMA);
			person.put("name", new String(data, UTF_8));
			person.put("address", address);
			return person;
		}

	}

	/**
	 * A value {@code hello} as the map {@code {<field>: hello}}, the field from its
	 * configuration.
	 */
	public static final class KeyValueDeserializer implements Deserializer<Map<String, String>> {

		private String field;

		@Override
		public void configure(Map<String, ?> configs, boolean isKey) {
			field = (String) configs.get("field");
		}

		@Override
		public Map<String, String> deserialize(String topic, byte[] data) {
			return Map.of(field, new String(data, UTF_8));
		}

		@Override
		public Map<String, String> deserialize(String topic, Headers headers, byte[] data) {
			return deserialize(topic, data);
		}

	}

}
