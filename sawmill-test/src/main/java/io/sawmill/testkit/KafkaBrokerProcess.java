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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node Kafka broker (KRaft, broker and controller in one) in a JVM of its
 * own, started from Apache Kafka's own {@code kafka.Kafka} main on this JVM's classpath,
 * on free loopback ports and a log directory kept across {@link #kill()} and
 * {@link #start()}, so it can crash and come back as the same broker with the same data.
 * <p>
 * Its own JVM also keeps the broker's JIT compilation and garbage out of the JVM under
 * test, as in production, where brokers never share the consumer's process.
 */
public final class KafkaBrokerProcess implements LocalKafkaBroker {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

	private final Path dir;

	private final Path config;

	private final int port;

	private final List<String> jvmOptions;

	private int starts;

	private Process process;

	private KafkaBrokerProcess(Path dir, int port, int controllerPort, List<String> jvmOptions) throws IOException {
		this.dir = dir;
		this.port = port;
		this.jvmOptions = List.copyOf(jvmOptions);
		this.config = dir.resolve("server.properties");
		Files.writeString(config,
				String.join(System.lineSeparator(), "process.roles=broker,controller", "node.id=1",
						"controller.quorum.voters=1@127.0.0.1:" + controllerPort,
						"listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
						"advertised.listeners=PLAINTEXT://127.0.0.1:" + port, "controller.listener.names=CONTROLLER",
						"listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
						"inter.broker.listener.name=PLAINTEXT", "log.dirs=" + dir.resolve("data"),
						"offsets.topic.replication.factor=1", "offsets.topic.num.partitions=3",
						"transaction.state.log.replication.factor=1", "transaction.state.log.min.isr=1",
						"group.initial.rebalance.delay.ms=0", "auto.create.topics.enable=false", ""));
	}

	/**
	 * Formats a fresh log directory under {@code parent} and starts the broker on free
	 * ports, in a JVM with {@code -Xmx512m -XX:+UseSerialGC}.
	 */
	public static KafkaBrokerProcess start(Path parent) {
		return start(parent, List.of("-Xmx512m", "-XX:+UseSerialGC"));
	}

	/** As {@link #start(Path)}, with these options for the broker's JVM. */
	public static KafkaBrokerProcess start(Path parent, List<String> jvmOptions) {
		try {
			Files.createDirectories(parent);
			int port = RedisServerProcess.freePort();
			int controllerPort = RedisServerProcess.freePort();
			while (controllerPort == port) {
				controllerPort = RedisServerProcess.freePort();
			}
			KafkaBrokerProcess broker = new KafkaBrokerProcess(Files.createTempDirectory(parent, "kafka-"), port,
					controllerPort, jvmOptions);
			broker.format();
			broker.start();
			return broker;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private void format() throws IOException {
		Process format = java("kafka.tools.StorageTool", dir.resolve("format.log"), "format", "-t",
				Uuid.randomUuid().toString(), "-c", config.toString());
		try {
			if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
				format.destroyForcibly();
				throw new IllegalStateException(
						"kafka-storage format failed: " + Files.readString(dir.resolve("format.log")));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Starts the broker JVM on its ports and log directory, and waits until it answers.
	 */
	public synchronized void start() {
		if (process != null && process.isAlive()) {
			return;
		}
		try {
			process = java("kafka.Kafka", dir.resolve("broker-" + (++starts) + ".log"), config.toString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
				AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
				5_000))) {
			while (System.nanoTime() < deadline) {
				if (!process.isAlive()) {
					throw new IllegalStateException(
							"the Kafka broker exited with " + process.exitValue() + "; see " + dir);
				}
				try {
					admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
					return;
				}
				catch (Exception notYet) {
					Thread.sleep(200);
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		throw new IllegalStateException("the Kafka broker did not answer within " + START_TIMEOUT + "; see " + dir);
	}

	/**
	 * SIGKILL: the broker JVM dies at once, as in a crash; what it acknowledged is on
	 * disk (page cache).
	 */
	public synchronized void kill() {
		if (process != null) {
			process.destroyForcibly();
			try {
				process.waitFor(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * The broker JVM's process id, e.g. to read its CPU time; -1 when it is not running.
	 */
	public synchronized long pid() {
		return process != null && process.isAlive() ? process.pid() : -1;
	}

	private Process java(String mainClass, Path log, String... args) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(jvmOptions);
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
		command.addAll(List.of(args));
		return ChildProcesses
			.stopOnExit(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start());
	}

	@Override
	public String bootstrapServers() {
		return "127.0.0.1:" + port;
	}

	@Override
	public KafkaBrokerProcess createTopic(String name, int partitions) {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
			admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
			return this;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("creating topic " + name + " failed", ex);
		}
	}

	@Override
	public void close() {
		kill();
	}

}
