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

/** Stops a fault test's servers and clients after its tests, in the order given. */
final class ServerShutdown {

	private ServerShutdown() {
	}

	/**
	 * Closes each resource that was started (null ones were not), in order; a failure to
	 * close one does not keep the others running, and is thrown once all were tried.
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
