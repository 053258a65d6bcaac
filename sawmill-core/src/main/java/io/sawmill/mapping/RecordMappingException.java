package io.sawmill.mapping;

/**
 * A record could not be turned into Redis writes: invalid JSON, a missing key field, an unsupported
 * type. This is a property of the record, not of Redis, so retrying it never helps.
 */
public class RecordMappingException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public RecordMappingException(String reason) {
		super(reason);
	}

	public RecordMappingException(String reason, Throwable cause) {
		super(reason, cause);
	}
}
