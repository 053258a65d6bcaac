package io.sawmill.it.support;

import java.util.concurrent.atomic.AtomicLong;

import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

/**
 * Counts the socket flushes of every Redis connection the application opens, at the bottom of
 * Lettuce's Netty pipeline: each flush is one write of queued commands to the socket, so a
 * pipelined batch shows one flush per chunk however many commands it holds.
 */
@Configuration(proxyBeanMethods = false)
public class FlushCounter {

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
					@Override
					public void flush(ChannelHandlerContext ctx) {
						flushes.incrementAndGet();
						ctx.flush();
					}
				});
			}
		});
	}
}
