/**
 * The data path of one consumer thread, from the poll to the commit: {@link
 * io.sawmill.listener.SawmillContainers} builds the container, each thread's {@code ConsumerLane}
 * maps a batch, writes it by its delivery mode and commits it.
 */
@NullMarked
package io.sawmill.listener;

import org.jspecify.annotations.NullMarked;
