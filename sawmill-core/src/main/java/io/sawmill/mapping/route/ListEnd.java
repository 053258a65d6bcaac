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
package io.sawmill.mapping.route;

/**
 * Which end of a {@link RedisType#LIST} a record's element is pushed to, and which end
 * the cap keeps.
 */
public enum ListEnd {

	/**
	 * {@code LPUSH}: the newest element first ({@code LRANGE key 0 9} reads the latest
	 * ten).
	 */
	LEFT,

	/** {@code RPUSH}: elements in arrival order, the newest last. */
	RIGHT;

}
