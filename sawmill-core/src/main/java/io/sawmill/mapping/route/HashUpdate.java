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

/** How a {@link RedisType#HASH} route applies a record to an existing hash. */
public enum HashUpdate {

	/**
	 * {@code HSET} of the record's fields: fields absent from the record keep their
	 * earlier value. One command per record, the cheapest; partial updates ("patch"
	 * events) need this.
	 */
	MERGE,

	/**
	 * The hash becomes exactly the record's fields: they are written to a temporary key
	 * in the same Redis Cluster slot, which {@code RENAME} then moves over the key in one
	 * atomic step, so a reader sees the old hash or the new one, never a missing key or a
	 * mix. Three commands per record instead of one, and the temporary key needs a key
	 * without a '}' unless it has a hash tag. Use for full-state events ("snapshots").
	 */
	REPLACE;

}
