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

/**
 * The ways a batch goes on the wire, one writer's each, for a {@link DedicatedConnection}
 * to choose from by its topology: whole chunks to a standalone channel
 * ({@link ChannelSend}), per master to a cluster's channels ({@link SlotSend}), through
 * Lettuce's API when no channel can be reached ({@link EndpointSend}), and transactions
 * to a standalone channel ({@link TransactionSend}) or to each slot's master
 * ({@link SlotTransactionSend}).
 */
record SendPaths(ChannelSend channel, SlotSend slot, EndpointSend endpoint, TransactionSend transactions,
		SlotTransactionSend slotTransactions) {

	static SendPaths of(PipelineConfig config) {
		TransactionSend transactions = new TransactionSend(config);
		return new SendPaths(new ChannelSend(config), new SlotSend(config), new EndpointSend(config), transactions,
				new SlotTransactionSend(transactions));
	}
}
