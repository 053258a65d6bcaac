package io.sawmill.it.fault;

/** Stops a fault test's servers and clients after its tests, in the order given. */
final class ServerShutdown {

	private ServerShutdown() {
	}

	/**
	 * Closes each resource that was started (null ones were not), in order; a failure to close one
	 * does not keep the others running, and is thrown once all were tried.
	 */
	static void closeAll(AutoCloseable... resources) {
		IllegalStateException failure = null;
		for (AutoCloseable resource : resources) {
			if (resource == null) {
				continue;
			}
			try {
				resource.close();
			}
			catch (Exception ex) {
				if (failure == null) {
					failure = new IllegalStateException("could not stop every server of the test", ex);
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}
}
