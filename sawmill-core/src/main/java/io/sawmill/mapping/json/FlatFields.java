package io.sawmill.mapping.json;

import java.util.ArrayList;
import java.util.List;

/**
 * The flattened scalar fields of one JSON value, in document order: {@code address.city → Oslo}.
 * Each path occurs once. Small and append-only; a lookup is a scan, which for the few placeholders
 * of a key template costs less than building a hash map per record.
 */
final class FlatFields {

	private final List<String> paths = new ArrayList<>(16);

	private final List<String> values = new ArrayList<>(16);

	private final boolean readAsTree;

	FlatFields(boolean readAsTree) {
		this.readAsTree = readAsTree;
	}

	/** Whether the value took the slow path: read as a Jackson tree rather than as a token stream. */
	boolean readAsTree() {
		return readAsTree;
	}

	void add(String path, String value) {
		paths.add(path);
		values.add(value);
	}

	int size() {
		return paths.size();
	}

	String path(int index) {
		return paths.get(index);
	}

	String value(int index) {
		return values.get(index);
	}

	/** The value at {@code path}, or null when the value has no such scalar field. */
	String get(String path) {
		for (int i = 0; i < paths.size(); i++) {
			if (paths.get(i).equals(path)) {
				return values.get(i);
			}
		}
		return null;
	}
}
