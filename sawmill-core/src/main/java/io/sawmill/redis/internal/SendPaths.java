package io.sawmill.redis.internal;

import io.sawmill.redis.PipelineConfig;

/**
 * The ways a batch goes on the wire, one writer's each, for a {@link DedicatedConnection} to choose
 * from by its topology: whole chunks to a standalone channel ({@link ChannelSend}), per master to a
 * cluster's channels ({@link SlotSend}), through Lettuce's API when no channel can be reached
 * ({@link EndpointSend}), and transactions ({@link TransactionSend}).
 */
record SendPaths(ChannelSend channel, SlotSend slot, EndpointSend endpoint, TransactionSend transactions) {

	static SendPaths of(PipelineConfig config) {
		return new SendPaths(new ChannelSend(config), new SlotSend(config), new EndpointSend(config),
				new TransactionSend(config));
	}
}
