package io.sawmill.it.support;

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
 * Counts the socket flushes of every Redis connection the application opens, at the bottom of
 * Lettuce's Netty pipeline (where commands are already encoded bytes): each flush is one write of
 * queued commands to the socket, so a pipelined batch shows one flush per chunk however many
 * commands it holds. Flushes of a lone PING (the RTT probe, health checks) are not counted.
 */
@Configuration(proxyBeanMethods = false)
public class FlushCounter {

	/** A PING is 14 bytes of RESP; one record's HSET + EXPIRE is well over 100. */
	private static final int PROBE_BYTES = 64;

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

					private long pendingBytes;

					@Override
					public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
						if (msg instanceof ByteBuf bytes) {
							pendingBytes += bytes.readableBytes();
						}
						super.write(ctx, msg, promise);
					}

					@Override
					public void flush(ChannelHandlerContext ctx) {
						if (pendingBytes > PROBE_BYTES) {
							flushes.incrementAndGet();
						}
						pendingBytes = 0;
						ctx.flush();
					}
				});
			}
		});
	}
}
