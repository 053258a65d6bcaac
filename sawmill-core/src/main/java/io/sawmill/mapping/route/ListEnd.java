package io.sawmill.mapping.route;

/** Which end of a {@link RedisType#LIST} a record's element is pushed to, and which end the cap keeps. */
public enum ListEnd {

	/** {@code LPUSH}: the newest element first ({@code LRANGE key 0 9} reads the latest ten). */
	LEFT,

	/** {@code RPUSH}: elements in arrival order, the newest last. */
	RIGHT;
}
