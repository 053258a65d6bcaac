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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.TypeDescriptor;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The IDE metadata that the configuration processor generates from {@code sawmill.*}
 * properties, merged with {@code META-INF/additional-spring-configuration-metadata.json}:
 * every property has a description, and a default exactly when the properties object has
 * one, equal to it; and docs/configuration.md lists every property with that default, and
 * nothing else.
 */
class ConfigurationMetadataTests {

	private static final Pattern YAML_ENTRY = Pattern.compile("^( *)([A-Za-z0-9-]+):\\s*([^#]*?)\\s*(#.*)?$");

	private static JsonNode metadata;

	private final ConversionService conversion = ApplicationConversionService.getSharedInstance();

	@BeforeAll
	static void readGeneratedMetadata() throws IOException, URISyntaxException {
		// the main classes' file: the processor writes another one for the test classes,
		// first on the class path
		URI classes = SawmillProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI();
		try (InputStream in = classes.resolve("META-INF/spring-configuration-metadata.json").toURL().openStream()) {
			metadata = JsonMapper.builder().build().readTree(in);
		}
	}

	@Test
	void shouldDescribeEverySawmillProperty() {
		assertThat(sawmillProperties()).isNotEmpty()
			.allSatisfy(property -> assertThat(property.path("description").asString(""))
				.as(property.get("name").asString())
				.isNotBlank());
	}

	@Test
	void shouldDeclareTheDefaultOfEveryPropertyThatHasOneAndNoneOtherwise() {
		List<String> problems = new ArrayList<>();
		for (JsonNode property : sawmillProperties()) {
			String name = property.get("name").asString();
			Object actual = defaultOf(name);
			JsonNode declared = property.get("defaultValue");
			if (declared == null) {
				if (!isUnset(actual)) {
					problems.add(name + " has default " + actual + " but the metadata declares none: add it to "
							+ "META-INF/additional-spring-configuration-metadata.json");
				}
			}
			else {
				TypeDescriptor type = new BeanWrapperImpl(rootObject(name)).getPropertyTypeDescriptor(path(name));
				Object converted = conversion.convert(declared.isString() ? declared.asString() : declared.toString(),
						TypeDescriptor.valueOf(String.class), type);
				if (!Objects.equals(converted, actual)) {
					problems.add(name + " declares default " + declared + " but is " + actual);
				}
			}
		}
		assertThat(problems).isEmpty();
	}

	@Test
	void shouldListEveryPropertyWithItsDefaultInTheConfigurationReferenceAndNothingElse() throws IOException {
		Map<String, String> documented = documented(Path.of("..", "docs", "configuration.md"));
		List<String> problems = new ArrayList<>();
		Set<String> known = new HashSet<>();
		metadata.path("groups").forEach(group -> known.add(group.get("name").asString()));
		for (JsonNode property : sawmillProperties()) {
			String name = property.get("name").asString();
			known.add(name);
			String value = documented.get(name);
			JsonNode declared = property.get("defaultValue");
			if (value == null) {
				problems.add(name + " is missing from docs/configuration.md");
			}
			else if (declared != null && !text(declared).equalsIgnoreCase(value)) {
				problems.add(name + " is documented as '" + value + "' but defaults to '" + text(declared) + "'");
			}
		}
		documented.keySet()
			.stream()
			.filter(name -> name.startsWith("sawmill") && !known.contains(name))
			.forEach(name -> problems.add(name + " is in docs/configuration.md but is no property"));
		assertThat(problems).isEmpty();
	}

	/**
	 * The YAML block of the configuration reference, as dotted names to the values
	 * written after them (quotes and comments dropped; empty for a group or an unset
	 * property).
	 */
	private static Map<String, String> documented(Path reference) throws IOException {
		String page = Files.readString(reference);
		int start = page.indexOf("```yaml");
		String block = page.substring(start + "```yaml".length(), page.indexOf("```", start + 1));
		Map<String, String> documented = new LinkedHashMap<>();
		List<String> path = new ArrayList<>();
		for (String line : block.split("\n")) {
			Matcher entry = YAML_ENTRY.matcher(line);
			if (entry.matches()) {
				int depth = entry.group(1).length() / 2;
				path.subList(Math.min(depth, path.size()), path.size()).clear();
				path.add(entry.group(2));
				documented.put(String.join(".", path), entry.group(3).replace("\"", ""));
			}
		}
		return documented;
	}

	/** A declared default as the reference writes it. */
	private static String text(JsonNode declared) {
		if (declared.isArray()) {
			List<String> elements = new ArrayList<>();
			declared.forEach(element -> elements.add(element.asString()));
			return "[" + String.join(", ", elements) + "]";
		}
		return declared.isString() ? declared.asString() : declared.toString();
	}

	@Test
	void shouldHintValuesForTheTemplateAndTheChoicesThatMatter() {
		List<String> hinted = new ArrayList<>();
		metadata.path("hints").forEach(hint -> hinted.add(hint.get("name").asString()));
		assertThat(hinted).contains("sawmill.mapping.key-template", "sawmill.pipeline.wait-for-replicas",
				"sawmill.dead-letter.topic-suffix", "sawmill.metrics.slo-buckets");
		List<String> names = sawmillProperties().stream().map(property -> property.get("name").asString()).toList();
		assertThat(names).as("every hint names a property").containsAll(hinted);
	}

	private static List<JsonNode> sawmillProperties() {
		List<JsonNode> properties = new ArrayList<>();
		metadata.path("properties").forEach(property -> {
			if (property.get("name").asString().startsWith("sawmill.")) {
				properties.add(property);
			}
		});
		return properties;
	}

	/**
	 * The value a freshly created properties object holds, read through the same getters
	 * Boot binds.
	 */
	private static Object defaultOf(String name) {
		return new BeanWrapperImpl(rootObject(name)).getPropertyValue(path(name));
	}

	/**
	 * A new instance of the {@code @ConfigurationProperties} class (a group without a
	 * source method) that binds the name.
	 */
	private static Object rootObject(String name) {
		String prefix = prefixOf(name);
		String type = null;
		for (JsonNode group : metadata.path("groups")) {
			if (!group.has("sourceMethod") && group.get("name").asString().equals(prefix)) {
				type = group.get("type").asString();
			}
		}
		assertThat(type).as("the properties class of " + name).isNotNull();
		try {
			return Class.forName(type).getDeclaredConstructor().newInstance();
		}
		catch (ReflectiveOperationException ex) {
			throw new AssertionError("cannot create " + type, ex);
		}
	}

	/**
	 * {@code sawmill.dead-letter.send-timeout} to the bean path
	 * {@code deadLetter.sendTimeout}.
	 */
	private static String path(String name) {
		String prefix = prefixOf(name);
		StringBuilder path = new StringBuilder();
		boolean upper = false;
		for (char c : name.substring(prefix.length() + 1).toCharArray()) {
			if (c == '-') {
				upper = true;
			}
			else {
				path.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return path.toString();
	}

	private static String prefixOf(String name) {
		String best = "";
		for (JsonNode group : metadata.path("groups")) {
			String prefix = group.get("name").asString();
			if (!group.has("sourceMethod") && name.startsWith(prefix + ".") && prefix.length() > best.length()) {
				best = prefix;
			}
		}
		return best;
	}

	private static boolean isUnset(Object value) {
		return value == null || (value instanceof Collection<?> collection && collection.isEmpty())
				|| (value instanceof Map<?, ?> map && map.isEmpty());
	}

}
