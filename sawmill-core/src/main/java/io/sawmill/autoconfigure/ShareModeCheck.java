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

import java.util.List;
import java.util.Set;

import io.sawmill.listener.Delivery;
import io.sawmill.listener.internal.ListenerConfig;
import io.sawmill.mapping.RecordMapper;
import io.sawmill.mapping.json.JsonHashMapper;
import io.sawmill.mapping.json.JsonHashMapperConfig;
import io.sawmill.mapping.route.RedisType;
import io.sawmill.mapping.route.internal.RouteConfig;
import io.sawmill.mapping.route.internal.Routes;

/**
 * Refuses share-group consumption ({@code sawmill.consumption.mode=share}) at start-up
 * where the final Redis state would depend on the order records are applied in, or where
 * a guarantee of the consumer group mode does not carry over, naming the reason and the
 * fix. A share group hands the records of one key to several threads, which write them in
 * any order, and delivers a record again after a crash or a lock expiry. Accepted:
 * <ul>
 * <li>the built-in JSON-to-hash mapping with a version guard
 * ({@code sawmill.mapping.version}) and a tombstone retention above zero: an older record
 * is a no-op, and a delete leaves a marker that keeps an older record from bringing the
 * key back;</li>
 * <li>routes whose every type is {@link RedisType#SET} (adds) or
 * {@link RedisType#DELETE};</li>
 * <li>a {@link RecordMapper} of the application's that declares itself
 * {@link RecordMapper#orderIndependent() order-independent}.</li>
 * </ul>
 */
final class ShareModeCheck {

	private static final Set<RedisType> ORDER_INDEPENDENT_TYPES = Set.of(RedisType.SET, RedisType.DELETE);

	private ShareModeCheck() {
	}

	/**
	 * @throws SawmillConfigurationException naming the reason and the fix
	 */
	static void check(ListenerConfig listener, RecordMapper mapper) {
		if (listener.delivery() == Delivery.EXACTLY_ONCE) {
			throw new SawmillConfigurationException(
					"sawmill.delivery=exactly-once does not apply to sawmill.consumption.mode=share: its watermark is a "
							+ "partition's offset, and a share group acknowledges records one by one, in any order, with "
							+ "no offset to keep",
					"Remove sawmill.delivery (at-least-once). Share mode accepts only writes whose result does not "
							+ "depend on order, which also makes a record written twice (after a crash or an expired "
							+ "lock) leave the state it left once; or use sawmill.consumption.mode=group for exactly-once.");
		}
		if (listener.topicPattern() != null) {
			throw new SawmillConfigurationException(
					"sawmill.consumption.mode=share cannot read a route's topic-pattern: a share consumer subscribes "
							+ "to topic names",
					"Name the route's topics (sawmill.routes[n].topics) instead of a topic-pattern.");
		}
		if (mapper instanceof JsonHashMapper json) {
			checkMapping(json.config());
		}
		else if (mapper instanceof Routes routes) {
			checkRoutes(routes.routes());
		}
		else if (!mapper.orderIndependent()) {
			throw new SawmillConfigurationException("sawmill.consumption.mode=share needs writes whose result does not "
					+ "depend on the order records are applied in, and the RecordMapper " + mapper.getClass().getName()
					+ " does not declare itself order-independent: two records of one key may be written by two "
					+ "threads in either order",
					"Make every write converge whatever the order (VersionGuard.upsert / VersionGuard.delete, SADD, "
							+ "DEL) and override RecordMapper.orderIndependent() to return true; or use "
							+ "sawmill.consumption.mode=group.");
		}
	}

	private static void checkMapping(JsonHashMapperConfig mapping) {
		if (mapping.version().isEmpty()) {
			throw new SawmillConfigurationException("sawmill.consumption.mode=share needs version-guarded writes, and "
					+ "sawmill.mapping.version is unset: two records of one key may be written by two threads in "
					+ "either order, and the older one would win",
					"Set sawmill.mapping.version (timestamp, or field:<path> of a version the producers set), or use "
							+ "sawmill.consumption.mode=group.");
		}
		if (mapping.tombstoneRetention().isZero()) {
			throw new SawmillConfigurationException(
					"sawmill.consumption.mode=share needs deleted keys to keep their version, and "
							+ "sawmill.mapping.tombstone-retention is 0: an older record written after a tombstone "
							+ "would bring the key back",
					"Set sawmill.mapping.tombstone-retention above how late a record can be written (e.g. 1h, the "
							+ "default), or use sawmill.consumption.mode=group.");
		}
	}

	private static void checkRoutes(List<RouteConfig> routes) {
		for (RouteConfig route : routes) {
			if (!ORDER_INDEPENDENT_TYPES.contains(route.type())) {
				throw new SawmillConfigurationException("sawmill.consumption.mode=share needs writes whose result does "
						+ "not depend on the order records are applied in, and route '" + route.name() + "' writes "
						+ route.type() + ": two records of one key may be written by two threads in either order",
						"Use routes of type SET or DELETE only, or sawmill.mapping.* with sawmill.mapping.version "
								+ "(version-guarded hashes), or a RecordMapper bean that declares itself "
								+ "order-independent; or use sawmill.consumption.mode=group.");
			}
		}
	}

}
