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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway certificate authority and a server certificate it signed, for
 * {@code 127.0.0.1} and {@code localhost}, made with the {@code openssl} command (PEM
 * files, valid for two days). Nothing is kept: each test run makes new ones in a
 * directory of its own.
 *
 * @param caCertificate the CA certificate a client trusts
 * @param serverCertificate the server certificate, signed by the CA
 * @param serverKey the server's private key (unencrypted)
 */
record TestCertificates(Path caCertificate, Path serverCertificate, Path serverKey) {

	/** A new CA in {@code dir} and a server certificate it signed. */
	static TestCertificates generate(Path dir) {
		try {
			Files.createDirectories(dir);
			Path caKey = dir.resolve("ca.key");
			Path ca = dir.resolve("ca.crt");
			Path key = dir.resolve("server.key");
			Path csr = dir.resolve("server.csr");
			Path certificate = dir.resolve("server.crt");
			Path extensions = dir.resolve("server.ext");
			openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey.toString(), "-out",
					ca.toString(), "-days", "2", "-subj", "/CN=Sawmill throwaway test CA");
			openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(), "-out", csr.toString(),
					"-subj", "/CN=localhost");
			Files.writeString(extensions,
					String.join("\n", "subjectAltName=IP:127.0.0.1,DNS:localhost", "basicConstraints=CA:FALSE",
							"keyUsage=digitalSignature,keyEncipherment", "extendedKeyUsage=serverAuth", ""));
			openssl(dir, "x509", "-req", "-in", csr.toString(), "-CA", ca.toString(), "-CAkey", caKey.toString(),
					"-CAcreateserial", "-out", certificate.toString(), "-days", "2", "-extfile", extensions.toString());
			return new TestCertificates(ca, certificate, key);
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not generate test certificates: " + ex.getMessage(), ex);
		}
	}

	/** Whether the {@code openssl} command can be run here. */
	static boolean opensslAvailable() {
		try {
			Process version = new ProcessBuilder("openssl", "version").redirectErrorStream(true).start();
			return version.waitFor(10, TimeUnit.SECONDS) && version.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private static void openssl(Path dir, String... args) throws IOException {
		List<String> command = new java.util.ArrayList<>(List.of("openssl"));
		command.addAll(List.of(args));
		Path log = dir.resolve("openssl.log");
		Process process = new ProcessBuilder(command).directory(dir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.start();
		try {
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IOException("openssl " + args[0] + " did not finish within 60 s");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
		if (process.exitValue() != 0) {
			throw new IOException("openssl " + String.join(" ", args) + " failed: " + Files.readString(log));
		}
	}
}
