package io.sawmill.it.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Set;
import java.util.TreeSet;

/** One GET of an actuator endpoint of the running app. */
public final class Scrape {

	private Scrape() {
	}

	public static String get(int port, String path) {
		try {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
						HttpResponse.BodyHandlers.ofString());
			return response.body();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** The names of every sample in a Prometheus text exposition. */
	public static Set<String> metricNames(String exposition) {
		Set<String> names = new TreeSet<>();
		for (String line : exposition.split("\n")) {
			if (!line.isBlank() && !line.startsWith("#")) {
				names.add(line.split("[{ ]", 2)[0]);
			}
		}
		return names;
	}
}
