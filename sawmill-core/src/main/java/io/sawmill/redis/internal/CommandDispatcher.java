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

import java.time.Duration;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.sawmill.mapping.RedisWrite;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * Queues one {@link RedisWrite} on a connection whose auto-flush is off; nothing is sent
 * yet.
 */
final class CommandDispatcher {

	private CommandDispatcher() {
	}

	static RedisFuture<?> dispatch(RedisClusterAsyncCommands<byte[], byte[]> commands, RedisWrite write) {
		if (write instanceof RedisWrite.HashSet hset) {
			return commands.hset(hset.key(), hset.fields());
		}
		if (write instanceof RedisWrite.Expire expire) {
			Duration ttl = expire.ttl();
			return ttl.toMillis() % 1000 == 0 ? commands.expire(expire.key(), ttl.toSeconds())
					: commands.pexpire(expire.key(), ttl.toMillis());
		}
		if (write instanceof RedisWrite.Delete delete) {
			return commands.del(delete.key());
		}
		if (write instanceof RedisWrite.Function function) {
			// the key added as a key, so that a cluster connection routes the call by its
			// slot
			CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).add(function.function())
				.add(1)
				.addKey(function.key());
			for (byte[] arg : function.args()) {
				args.add(arg);
			}
			return commands.dispatch(CommandType.FCALL, new FunctionReply(), args);
		}
		RedisWrite.Command command = (RedisWrite.Command) write;
		CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(command.key());
		for (byte[] arg : command.args()) {
			args.add(arg);
		}
		return commands.dispatch(keyword(command), new ErrorOnlyOutput(), args);
	}

	/**
	 * Whether a write's reply says it was not applied: a {@link RedisWrite.Function}'s
	 * reply 0.
	 */
	static boolean stale(@Nullable RedisWrite write, @Nullable Object reply) {
		return write instanceof RedisWrite.Function && reply instanceof Long integer && integer == 0;
	}

	/**
	 * A {@link RedisWrite.Function}'s reply: its integer, when it is one; any other shape
	 * is kept as null.
	 */
	private static final class FunctionReply extends ErrorOnlyOutput {

		@Override
		public void set(long integer) {
			output = integer;
		}

	}

	static ProtocolKeyword keyword(RedisWrite.Command command) {
		return new Keyword(command.name());
	}

	/** A command name not known to Lettuce's {@code CommandType}. */
	private record Keyword(String command) implements ProtocolKeyword {
		@Override
		public byte[] getBytes() {
			return command.toUpperCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
		}

		@Override
		public String toString() {
			return command;
		}
	}

}
