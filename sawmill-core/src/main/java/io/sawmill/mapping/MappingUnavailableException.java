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
package io.sawmill.mapping;

import org.jspecify.annotations.Nullable;

/**
 * A record cannot be mapped now because something outside it that its mapping needs
 * cannot be reached, e.g. a schema registry that does not answer. Unlike
 * {@link RecordMappingException} this is not the record's fault: the record is never
 * dead-lettered for it. The batch is not committed and is polled again after a backoff,
 * so the record waits until its mapping can be done.
 */
public class MappingUnavailableException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public MappingUnavailableException(String reason, @Nullable Throwable cause) {
		super(reason, cause);
	}

}
