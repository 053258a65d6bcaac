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
package io.sawmill.redis.internal;

import java.nio.ByteBuffer;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;

/**
 * Accepts a reply of any shape (integer, status, bulk, array…) and keeps none of it: a
 * write's reply matters only when it is an error, which the base class records.
 */
class ErrorOnlyOutput extends CommandOutput<byte[], byte[], Object> {

	ErrorOnlyOutput() {
		super(ByteArrayCodec.INSTANCE, null);
	}

	@Override
	public void set(ByteBuffer bytes) {
	}

	@Override
	public void setSingle(ByteBuffer bytes) {
	}

	@Override
	public void setBigNumber(ByteBuffer bytes) {
	}

	@Override
	public void set(long integer) {
	}

	@Override
	public void set(double number) {
	}

	@Override
	public void set(boolean value) {
	}

}
