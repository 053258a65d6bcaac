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

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stops the servers the test kit started when the JVM that started them exits: normally,
 * after an uncaught failure, or on Ctrl-C or SIGTERM. Without it an interrupted benchmark
 * left its {@code redis-server} and Kafka JVM running. A JVM killed outright (SIGKILL, or
 * halted when out of memory) runs no shutdown hook, so its servers are left behind.
 */
final class ChildProcesses {

	private static final Set<Process> STARTED = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::stopAll, "sawmill-testkit-stop-servers"));
	}

	private ChildProcesses() {
	}

	/**
	 * Registers a process just started, to be stopped when this JVM exits if it still
	 * runs then.
	 */
	static Process stopOnExit(Process process) {
		STARTED.removeIf(each -> !each.isAlive());
		STARTED.add(process);
		return process;
	}

	private static void stopAll() {
		for (Process process : STARTED) {
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly();
		}
	}

}
