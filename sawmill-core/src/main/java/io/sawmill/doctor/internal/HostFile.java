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
package io.sawmill.doctor.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a file under {@code /proc} or {@code /sys} to its end. {@code Files.readString}
 * is not used: procfs reports a size of 0 for sysctl files, and on JDK 17 it then returns
 * only the first byte ({@code 4} for a {@code somaxconn} of 4096).
 */
final class HostFile {

	private HostFile() {
	}

	static String read(Path file) throws IOException {
		try (InputStream in = Files.newInputStream(file)) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
