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
 * What a JSON {@code null} in a record's value does to a {@link RedisType#HASH} field.
 */
public enum NullFields {

	/**
	 * Ignored: the field keeps its earlier value. A producer cannot clear a field this
	 * way.
	 */
	SKIP,

	/**
	 * {@code HDEL key field}: a null clears the field, one more command per record that
	 * has nulls. With {@link HashUpdate#REPLACE} a null field is absent anyway.
	 */
	DELETE;

}
