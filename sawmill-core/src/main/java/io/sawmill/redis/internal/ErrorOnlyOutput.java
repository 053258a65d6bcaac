package io.sawmill.redis.internal;

import java.nio.ByteBuffer;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;

/**
 * Accepts a reply of any shape (integer, status, bulk, array…) and keeps none of it: a write's
 * reply matters only when it is an error, which the base class records.
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
