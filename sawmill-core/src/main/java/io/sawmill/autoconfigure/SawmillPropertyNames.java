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

import java.beans.PropertyDescriptor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.ResolvableType;

/**
 * The property names that {@code @ConfigurationProperties} classes bind, read by
 * reflection over their getters (or record components), so that a name nothing binds can
 * be told apart from one that is merely written in another relaxed form. A nested object
 * of Sawmill's own packages is walked into; a list accepts an index
 * ({@code sawmill.topics[0]}); a map accepts any name below it. Immutable once built.
 */
final class SawmillPropertyNames {

	private static final int MAX_DEPTH = 8;

	private final Node root = Node.bean("");

	/**
	 * Adds the names that {@code type} binds below {@code prefix}, e.g.
	 * {@code "sawmill"}.
	 */
	SawmillPropertyNames with(String prefix, Class<?> type) {
		Node node = root;
		ConfigurationPropertyName name = ConfigurationPropertyName.of(prefix);
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			String element = name.getElement(i, Form.DASHED);
			node = node.children.computeIfAbsent(uniform(element), key -> Node.bean(element));
		}
		walk(node, type, 0);
		return this;
	}

	/**
	 * Whether {@code name} is bound by one of the classes. An environment variable's name
	 * is read with Boot's legacy rule as well, where {@code SAWMILL_BATCH_SIZE} is
	 * {@code sawmill.batch-size}.
	 */
	boolean isKnown(ConfigurationPropertyName name, boolean environmentVariable) {
		return matches(root, name, 0, environmentVariable);
	}

	/** Every name a user can set, dashed, e.g. {@code sawmill.retry.max-attempts}. */
	List<String> names() {
		List<String> names = new ArrayList<>();
		collect(root, "", names);
		return names;
	}

	private static boolean matches(Node node, ConfigurationPropertyName name, int index, boolean joinElements) {
		if (index == name.getNumberOfElements()) {
			return true;
		}
		switch (node.kind) {
			case MAP:
				return true;
			case LIST:
				return name.isNumericIndex(index) && matches(node.element(), name, index + 1, joinElements);
			case BEAN:
				StringBuilder key = new StringBuilder();
				int last = joinElements ? name.getNumberOfElements() - 1 : index;
				for (int end = index; end <= last; end++) {
					key.append(name.getElement(end, Form.UNIFORM));
					Node child = node.children.get(key.toString());
					if (child != null && matches(child, name, end + 1, joinElements)) {
						return true;
					}
				}
				return false;
			default:
				return false;
		}
	}

	private static void collect(Node node, String path, List<String> names) {
		if (node.kind == Kind.LIST && node.element().kind == Kind.BEAN) {
			collect(node.element(), path + "[0]", names);
		}
		else if (node.kind != Kind.BEAN) {
			names.add(path);
		}
		else {
			node.children.values()
				.forEach(child -> collect(child, path.isEmpty() ? child.dashed : path + "." + child.dashed, names));
		}
	}

	private static void walk(Node node, Class<?> type, int depth) {
		if (depth > MAX_DEPTH) {
			return;
		}
		if (type.isRecord()) {
			for (RecordComponent component : type.getRecordComponents()) {
				add(node, component.getName(), ResolvableType.forMethodReturnType(component.getAccessor()), depth);
			}
			return;
		}
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
			if (property.getReadMethod() != null && !"class".equals(property.getName())) {
				add(node, property.getName(), ResolvableType.forMethodReturnType(property.getReadMethod()), depth);
			}
		}
	}

	private static void add(Node parent, String javaName, ResolvableType type, int depth) {
		String dashed = toDashed(javaName);
		parent.children.put(uniform(dashed), node(dashed, type, depth));
	}

	private static Node node(String dashed, ResolvableType type, int depth) {
		Class<?> raw = type.resolve(Object.class);
		if (Map.class.isAssignableFrom(raw)) {
			return new Node(Kind.MAP, dashed);
		}
		if (raw.isArray() || Collection.class.isAssignableFrom(raw)) {
			Node list = new Node(Kind.LIST, dashed);
			ResolvableType element = raw.isArray() ? type.getComponentType() : type.asCollection().getGeneric(0);
			list.element = node(dashed, element, depth);
			return list;
		}
		if (isNested(raw)) {
			Node bean = Node.bean(dashed);
			walk(bean, raw, depth + 1);
			return bean;
		}
		return new Node(Kind.LEAF, dashed);
	}

	/**
	 * Sawmill's own property groups are bound field by field; everything else is one
	 * value.
	 */
	private static boolean isNested(Class<?> type) {
		return type.getPackageName().startsWith("io.sawmill") && !type.isEnum() && !type.isInterface();
	}

	private static String toDashed(String javaName) {
		StringBuilder dashed = new StringBuilder();
		for (char c : javaName.toCharArray()) {
			if (Character.isUpperCase(c) && dashed.length() > 0) {
				dashed.append('-');
			}
			dashed.append(Character.toLowerCase(c));
		}
		return dashed.toString();
	}

	private static String uniform(String element) {
		return element.replace("-", "").toLowerCase(Locale.ROOT);
	}

	private enum Kind {

		LEAF, BEAN, LIST, MAP

	}

	private static final class Node {

		final Kind kind;

		final String dashed;

		final Map<String, Node> children = new LinkedHashMap<>();

		/** The elements' node of a LIST; null for other kinds. */
		@Nullable Node element;

		Node(Kind kind, String dashed) {
			this.kind = kind;
			this.dashed = dashed;
		}

		static Node bean(String dashed) {
			return new Node(Kind.BEAN, dashed);
		}

		/** The elements' node, which every LIST has. */
		Node element() {
			return Objects.requireNonNull(element, "a LIST node has its element");
		}

	}

}
