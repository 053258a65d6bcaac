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
package io.sawmill.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * A JVM that started a real redis-server through the test kit stops it when that JVM is
 * terminated, as Ctrl-C on the benchmark does: no server is left running.
 */
class ChildProcessesTests {

	@Test
	void shouldStopTheRedisServerItStartedWhenTheJvmIsTerminated() throws Exception {
		Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), StartsRedis.class.getName())
			.redirectErrorStream(true)
			.start();
		try {
			String line = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))
				.readLine();
			assertThat(line).as("the child JVM's first line: the port of the redis-server it started").matches("\\d+");
			int port = Integer.parseInt(line);
			assertThat(accepts(port)).isTrue();

			jvm.destroy(); // SIGTERM, as on Ctrl-C or a container stop

			assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).as("the child JVM exited").isTrue();
			await().atMost(Duration.ofSeconds(10)).until(() -> !accepts(port));
		}
		finally {
			jvm.destroyForcibly();
		}
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
			return true;
		}
		catch (IOException refused) {
			return false;
		}
	}

	/**
	 * The child JVM: starts a redis-server, prints its port, and waits to be terminated
	 * (a minute at most).
	 */
	static final class StartsRedis {

		public static void main(String[] args) throws InterruptedException {
			RedisServerProcess redis = RedisServerProcess.startNew();
			System.out.println(redis.port());
			System.out.flush();
			Thread.sleep(60_000);
		}

	}

}
