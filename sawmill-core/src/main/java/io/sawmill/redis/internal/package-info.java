/**
 * The Lettuce writer: a connection per writer thread, one type per Redis topology, each with its
 * send path. Not an API.
 */
@NullMarked
package io.sawmill.redis.internal;

import org.jspecify.annotations.NullMarked;
