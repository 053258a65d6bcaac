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
package io.sawmill.bench.startup;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * sawmill-app's container image as StartupTime starts it without a container engine: its
 * layers unpacked into a directory, keeping each file's time and mode, and its entry
 * point run from its working directory, with the image's absolute paths ({@code /app},
 * {@code /opt/java}) under that directory.
 *
 * @param root the directory the layers were unpacked into
 * @param entrypoint the image's entry point, as the image names it
 * @param workingDirectory the image's working directory, absolute in the image
 */
record ContainerImage(Path root, List<String> entrypoint, String workingDirectory) {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The image sawmill-app's every build writes (on an empty base). */
	static Path checkImage(Path app) {
		return app.resolve("jib-image-check.tar");
	}

	/** Unpacks the OCI tarball {@code image} into {@code root}, emptied first. */
	static ContainerImage unpack(Path image, Path root) {
		try {
			deleteRecursively(root);
			Map<String, byte[]> blobs = new HashMap<>();
			try (TarArchiveInputStream tar = new TarArchiveInputStream(Files.newInputStream(image))) {
				for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null;) {
					blobs.put(entry.getName(), tar.readAllBytes());
				}
			}
			JsonNode index = JSON.readTree(blobs.get("index.json"));
			JsonNode manifest = JSON.readTree(blob(blobs, index.get("manifests").get(0).get("digest").asString()));
			JsonNode config = JSON.readTree(blob(blobs, manifest.get("config").get("digest").asString())).get("config");
			for (JsonNode layer : manifest.get("layers")) {
				unpackLayer(blob(blobs, layer.get("digest").asString()), root);
			}
			List<String> entrypoint = new ArrayList<>();
			config.get("Entrypoint").forEach(argument -> entrypoint.add(argument.asString()));
			JsonNode workingDirectory = config.get("WorkingDir");
			return new ContainerImage(root, List.copyOf(entrypoint),
					workingDirectory == null ? "/" : workingDirectory.asString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot unpack " + image + " into " + root, ex);
		}
	}

	/**
	 * The entry point with {@code java} the image's own and every argument naming a path
	 * of the image under {@link #root()}; {@code jvmOptions} after {@code java}, as the
	 * chart's {@code JAVA_TOOL_OPTIONS}.
	 */
	List<String> command(List<String> jvmOptions) {
		List<String> command = new ArrayList<>();
		command.add(root.resolve("opt/java/bin/java").toString());
		command.addAll(jvmOptions);
		entrypoint.stream().skip(1).map(argument -> argument.replace("@/", "@" + root + "/")).forEach(command::add);
		return command;
	}

	/** Where the entry point runs. */
	Path directory() {
		return root.resolve(workingDirectory.substring(1));
	}

	private static byte[] blob(Map<String, byte[]> blobs, String digest) {
		return blobs.get("blobs/sha256/" + digest.substring("sha256:".length()));
	}

	private static void unpackLayer(byte[] layer, Path root) throws IOException {
		try (InputStream gz = new GZIPInputStream(new java.io.ByteArrayInputStream(layer));
				TarArchiveInputStream tar = new TarArchiveInputStream(gz)) {
			for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null;) {
				Path target = root.resolve(entry.getName()).normalize();
				if (!target.startsWith(root)) {
					throw new IOException("layer entry outside the image: " + entry.getName());
				}
				if (entry.isDirectory()) {
					Files.createDirectories(target);
					continue;
				}
				Files.createDirectories(target.getParent());
				Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
				Files.setPosixFilePermissions(target, permissions(entry.getMode()));
				// the archive checks its jars' file times: they must be the image's
				Files.setLastModifiedTime(target, FileTime.from(entry.getModTime().toInstant()));
			}
		}
	}

	private static Set<PosixFilePermission> permissions(int mode) {
		Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
		PosixFilePermission[] all = PosixFilePermission.values();
		for (int bit = 0; bit < 9; bit++) {
			if ((mode & (1 << (8 - bit))) != 0) {
				permissions.add(all[bit]);
			}
		}
		return permissions;
	}

	private static void deleteRecursively(Path root) throws IOException {
		if (!Files.exists(root)) {
			return;
		}
		try (var paths = Files.walk(root)) {
			for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
				Files.delete(path);
			}
		}
	}

}
