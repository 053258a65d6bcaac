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

import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import io.sawmill.admin.internal.SawmillOperations;

/**
 * The {@code sawmill} endpoint's write operations on {@link SawmillOperations}: arguments
 * checked, bad ones a 400.
 */
final class SawmillEndpointOperations {

	private static final Set<String> PARTS = Set.of("pause", "resume", "redrive");

	private SawmillEndpointOperations() {
	}

	static boolean handles(String part) {
		return PARTS.contains(part);
	}

	static Map<String, Object> act(SawmillOperations operations, String part, @Nullable String topic,
			@Nullable Integer partition, @Nullable Long from, @Nullable Long to) throws Exception {
		try {
			return switch (part) {
				case "pause" -> operations.pause(topic);
				case "resume" -> operations.resume(topic);
				default -> {
					if (topic == null || partition == null || from == null || to == null) {
						throw new IllegalArgumentException("redrive needs topic, partition, from and to (offsets, to "
								+ "exclusive), e.g. {\"topic\":\"orders.DLT\",\"partition\":0,\"from\":100,\"to\":200}");
					}
					yield operations.redrive(topic, partition, from, to);
				}
			};
		}
		catch (IllegalArgumentException ex) {
			String reason = String.valueOf(ex.getMessage());
			throw new InvalidEndpointRequestException(reason, reason);
		}
	}

}
