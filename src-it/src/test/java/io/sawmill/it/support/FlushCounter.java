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
package io.sawmill.it.support;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.lettuce.core.resource.NettyCustomizer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

/**
 * Counts the socket flushes of every Redis connection the application opens, at the
 * bottom of Lettuce's Netty pipeline (where commands are already encoded bytes): each
 * flush is one write of queued commands to the socket, so a pipelined batch shows one
 * flush per chunk however many commands it holds. Only flushes that carry data writes
 * (HSET) are counted, not those of connection handshakes, the RTT probe's PING or health
 * checks.
 */
@Configuration(proxyBeanMethods = false)
public class FlushCounter {

	/** RESP of an HSET command, as it appears in the encoded bytes. */
	private static final String HSET = "$4\r\nHSET\r\n";

	private final AtomicLong flushes = new AtomicLong();

	public long flushes() {
		return flushes.get();
	}

	@Bean
	ClientResourcesBuilderCustomizer flushCountingCustomizer() {
		return builder -> builder.nettyCustomizer(new NettyCustomizer() {
			@Override
			public void afterChannelInitialized(Channel channel) {
				channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {

					private boolean pendingDataWrite;

					@Override
					public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
						if (msg instanceof ByteBuf bytes && bytes.toString(StandardCharsets.US_ASCII).contains(HSET)) {
							pendingDataWrite = true;
						}
						super.write(ctx, msg, promise);
					}

					@Override
					public void flush(ChannelHandlerContext ctx) {
						if (pendingDataWrite) {
							flushes.incrementAndGet();
						}
						pendingDataWrite = false;
						ctx.flush();
					}
				});
			}
		});
	}

}
