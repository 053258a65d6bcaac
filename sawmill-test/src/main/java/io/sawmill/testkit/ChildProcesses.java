package io.sawmill.testkit;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stops the servers the test kit started when the JVM that started them exits: normally, after an
 * uncaught failure, or on Ctrl-C or SIGTERM. Without it an interrupted benchmark left its
 * {@code redis-server} and Kafka JVM running. A JVM killed outright (SIGKILL, or halted when out of
 * memory) runs no shutdown hook, so its servers are left behind.
 */
final class ChildProcesses {

	private static final Set<Process> STARTED = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::stopAll, "sawmill-testkit-stop-servers"));
	}

	private ChildProcesses() {
	}

	/** Registers a process just started, to be stopped when this JVM exits if it still runs then. */
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
