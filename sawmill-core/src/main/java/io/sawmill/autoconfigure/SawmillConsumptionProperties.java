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

import org.jspecify.annotations.Nullable;

import io.sawmill.listener.ConsumptionMode;
import io.sawmill.listener.internal.ShareConfig;

/**
 * How the service reads its topics: a consumer group, or a share group (KIP-932).
 */
public class SawmillConsumptionProperties {

	/**
	 * GROUP (a consumer group, one thread per partition at most) or SHARE (a share group,
	 * any number of threads; order-independent writes only).
	 */
	private ConsumptionMode mode = ConsumptionMode.GROUP;

	/**
	 * The share group's id with mode SHARE; unset takes the service's group id. Must not
	 * be the id of an existing consumer group.
	 */
	private @Nullable String shareGroupId;

	/**
	 * The share group's delivery count limit (the broker's
	 * group.share.delivery.count.limit, or the group's share.delivery.count.limit): a
	 * record Redis did not take on its last delivery is dead-lettered with its reason.
	 */
	private int deliveryLimit = ShareConfig.DEFAULT_DELIVERY_LIMIT;

	public ConsumptionMode getMode() {
		return mode;
	}

	public void setMode(ConsumptionMode mode) {
		this.mode = mode;
	}

	public @Nullable String getShareGroupId() {
		return shareGroupId;
	}

	public void setShareGroupId(@Nullable String shareGroupId) {
		this.shareGroupId = shareGroupId;
	}

	public int getDeliveryLimit() {
		return deliveryLimit;
	}

	public void setDeliveryLimit(int deliveryLimit) {
		this.deliveryLimit = deliveryLimit;
	}

}
