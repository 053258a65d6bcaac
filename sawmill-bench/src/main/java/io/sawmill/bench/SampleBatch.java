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
package io.sawmill.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.sawmill.mapping.RedisWrite;
import io.sawmill.testkit.SampleEvents;

/**
 * The writes of one batch of the test kit's sample events: HSET of each record's hash,
 * then EXPIRE 1 h.
 */
final class SampleBatch {

	private SampleBatch() {
	}

	static List<RedisWrite> of(int records) {
		List<RedisWrite> writes = new ArrayList<>(records * 2);
		for (long id = 0; id < records; id++) {
			RedisWrite.HashSet hset = RedisWrite.hset(SampleEvents.key(id), SampleEvents.hash(id));
			writes.add(hset);
			writes.add(RedisWrite.expire(hset.key(), Duration.ofHours(1)));
		}
		return writes;
	}

}
