package io.sawmill.doctor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a file under {@code /proc} or {@code /sys} to its end. {@code Files.readString} is not used:
 * procfs reports a size of 0 for sysctl files, and on JDK 17 it then returns only the first byte
 * ({@code 4} for a {@code somaxconn} of 4096).
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
