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

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A Jackson 2 tree (what many deserializers still return) read as a Jackson 3 one, by its
 * JSON text. Apart so that Jackson 2 is needed only when a deserializer returns one.
 */
final class Jackson2Trees {

	private Jackson2Trees() {
	}

	static boolean isTree(Object value) {
		return value instanceof JsonNode;
	}

	static String json(Object tree) {
		return tree.toString();
	}

}
