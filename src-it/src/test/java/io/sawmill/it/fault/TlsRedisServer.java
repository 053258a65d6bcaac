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
package io.sawmill.it.fault;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sawmill.testkit.RedisServerProcess;

/**
 * A real {@code redis-server} that accepts TLS connections only
 * ({@code --port 0 --tls-port …}), with the given certificates and no client certificates
 * required. The test kit's {@link RedisServerProcess} always opens a plain port and waits
 * on it, so TLS needs its own launcher.
 */
final class TlsRedisServer implements AutoCloseable {

	private final Process process;

	private final Path dir;

	private final int port;

	private TlsRedisServer(Process process, Path dir, int port) {
		this.process = process;
		this.dir = dir;
		this.port = port;
	}

	static TlsRedisServer start(TestCertificates certificates, String... extraArgs) {
		Path binary = RedisServerProcess.locate()
			.orElseThrow(() -> new IllegalStateException("redis-server not found: apt-get install -y redis-server"));
		int port = RedisServerProcess.freePort();
		try {
			Path dir = Files.createTempDirectory("sawmill-redis-tls-");
			List<String> command = new ArrayList<>(List.of(binary.toString(), "--port", "0", "--tls-port",
					Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir",
					dir.toString(), "--protected-mode", "no", "--tls-cert-file",
					certificates.serverCertificate().toString(), "--tls-key-file", certificates.serverKey().toString(),
					"--tls-ca-cert-file", certificates.caCertificate().toString(), "--tls-auth-clients", "no"));
			command.addAll(List.of(extraArgs));
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(dir.resolve("redis.log").toFile())
				.start();
			TlsRedisServer redis = new TlsRedisServer(process, dir, port);
			redis.awaitListening(Duration.ofSeconds(20));
			return redis;
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not start redis-server with TLS: " + ex.getMessage(), ex);
		}
	}

	private void awaitListening(Duration timeout) throws IOException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw new IllegalStateException("redis-server exited with " + process.exitValue() + ": "
						+ Files.readString(dir.resolve("redis.log")));
			}
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
				return;
			}
			catch (IOException notYet) {
				try {
					Thread.sleep(20);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(ex);
				}
			}
		}
		throw new IllegalStateException("redis-server did not listen on TLS port " + port + " within " + timeout);
	}

	String host() {
		return "127.0.0.1";
	}

	int port() {
		return port;
	}

	@Override
	public void close() {
		process.destroyForcibly();
		try {
			process.waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
