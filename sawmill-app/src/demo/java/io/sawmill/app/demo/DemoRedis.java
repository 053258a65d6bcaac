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
package io.sawmill.app.demo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

import io.sawmill.testkit.RedisServerProcess;

/**
 * A real redis-server for the demo: the one on the PATH when there is one, otherwise the
 * binary shipped inside the {@code com.github.codemonstur:embedded-redis} jar (Redis 6.2
 * for Linux and macOS), so a machine with only a JDK can run the demo.
 */
final class DemoRedis {

	private DemoRedis() {
	}

	static RedisServerProcess start() {
		return RedisServerProcess.locate().map(binary -> {
			System.out.println("Redis: " + binary + " (from PATH)");
			return RedisServerProcess.startNew(binary);
		}).orElseGet(() -> {
			Path binary = extractBundled();
			System.out.println("Redis: no redis-server on PATH, using " + binary + " from the embedded-redis jar");
			return RedisServerProcess.startNew(binary);
		});
	}

	private static Path extractBundled() {
		String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
		boolean arm = arch.contains("aarch64") || arch.contains("arm64");
		String resource;
		if (os.contains("linux")) {
			resource = arm ? "/redis-server-6.2.7-linux-arm64" : "/redis-server-6.2.6-v5-linux-amd64";
		}
		else if (os.contains("mac")) {
			resource = arm ? "/redis-server-6.2.6-v5-darwin-arm64" : "/redis-server-6.2.6-v5-darwin-amd64";
		}
		else {
			throw new IllegalStateException("No redis-server on PATH and no bundled binary for " + os + "/" + arch
					+ ": install Redis and put redis-server on the PATH");
		}
		try (InputStream in = DemoRedis.class.getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("embedded-redis jar has no " + resource);
			}
			Path binary = Files.createTempFile("sawmill-redis-server-", "");
			Files.copy(in, binary, StandardCopyOption.REPLACE_EXISTING);
			binary.toFile().setExecutable(true);
			binary.toFile().deleteOnExit();
			return binary;
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not extract the bundled redis-server: " + ex.getMessage(), ex);
		}
	}

}
