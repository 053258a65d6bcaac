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
package io.sawmill.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.boot.origin.SystemEnvironmentOrigin;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Fails start-up on a {@code sawmill.*} property that nothing binds, naming the nearest
 * valid name: a typo such as {@code sawmill.bach-size} would otherwise leave the default
 * in force without a word. Valid names are those of {@link SawmillProperties} and of any
 * other {@code @ConfigurationProperties} bean whose prefix starts with {@code sawmill},
 * in any relaxed form Boot binds ({@code sawmill.batchSize}, {@code SAWMILL_BATCH_SIZE},
 * {@code sawmill.topics[0]}). Registered on every application context that
 * {@code SpringApplication} starts ({@code META-INF/spring.factories}), whether or not
 * {@code sawmill.enabled} is true, so a misspelt {@code sawmill.enabled} is caught too;
 * it runs as a bean factory post-processor, once every bean is defined and before any is
 * created or anything connects.
 * <p>
 * Environment variables are checked too ({@code SAWMILL_BACH_SIZE} fails), except the
 * ones Kubernetes gives every pod for each Service in its namespace
 * ({@code <SERVICE>_SERVICE_HOST}, {@code <SERVICE>_SERVICE_PORT[_<NAME>]},
 * {@code <SERVICE>_PORT[_<port>_<protocol>[_PROTO|_PORT|_ADDR]]}): a Service named
 * {@code sawmill} (the chart's default release name), or {@code sawmill-…}, would
 * otherwise stop every pod from starting.
 */
final class UnknownPropertiesCheck
		implements ApplicationContextInitializer<ConfigurableApplicationContext>, BeanFactoryPostProcessor {

	private static final String PREFIX = "sawmill";

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of(PREFIX);

	private static final Pattern KUBERNETES_SERVICE_VARIABLE = Pattern.compile(
			"[A-Z0-9_]+_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT(_[0-9]+_(TCP|UDP|SCTP)(_PROTO|_PORT|_ADDR)?)?)");

	private @Nullable Environment environment;

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		this.environment = context.getEnvironment();
		context.addBeanFactoryPostProcessor(this);
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		SawmillPropertyNames names = new SawmillPropertyNames().with(PREFIX, SawmillProperties.class);
		for (String bean : beanFactory.getBeanDefinitionNames()) {
			Class<?> type = beanFactory.getType(bean, false);
			if (type != null && type != SawmillProperties.class) {
				MergedAnnotation<ConfigurationProperties> properties = MergedAnnotations.from(type)
					.get(ConfigurationProperties.class);
				String prefix = properties.isPresent() ? properties.getString("prefix") : "";
				if (!prefix.isEmpty() && ROOT.isAncestorOf(ConfigurationPropertyName.of(prefix))) {
					names.with(prefix, type);
				}
			}
		}
		check(Objects.requireNonNull(environment, "initialize runs before the bean factory is post-processed"), names);
	}

	/**
	 * Throws a {@link SawmillConfigurationException} listing every unknown
	 * {@code sawmill.*} name, environment variables included, but Kubernetes' Service
	 * variables.
	 */
	static void check(Environment environment, SawmillPropertyNames names) {
		TreeMap<String, String> unknown = new TreeMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			boolean environmentVariables = isEnvironmentVariables(source.getUnderlyingSource());
			iterable.filter(ROOT::isAncestorOf)
				.stream()
				.filter(name -> !names.isKnown(name, environmentVariables))
				.forEach(name -> {
					ConfigurationProperty property = source.getConfigurationProperty(name);
					if (!(environmentVariables && isKubernetesServiceVariable(property))) {
						unknown.putIfAbsent(name.toString(), describe(property));
					}
				});
		}
		if (!unknown.isEmpty()) {
			List<String> problems = new ArrayList<>();
			unknown.forEach((name, origin) -> problems.add(problem(name, origin, names.names())));
			throw new SawmillConfigurationException(String.join("\n", problems),
					"Correct or remove the propert" + (problems.size() == 1 ? "y" : "ies")
							+ ". Every sawmill.* property is listed, with its default, in the README's configuration "
							+ "section and in your IDE's completion (META-INF/spring-configuration-metadata.json).");
		}
	}

	/**
	 * Boot reads a source as environment variables only under these names
	 * (SpringConfigurationPropertySource).
	 */
	private static boolean isEnvironmentVariables(@Nullable Object source) {
		return source instanceof SystemEnvironmentPropertySource environment && (environment.getName()
			.equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)
				|| environment.getName().endsWith("-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME));
	}

	/**
	 * Whether the variable is one Kubernetes sets for a Service:
	 * {@code <NAME>_SERVICE_HOST}, {@code <NAME>_SERVICE_PORT[_<PORT NAME>]},
	 * {@code <NAME>_PORT} or
	 * {@code <NAME>_PORT_<port>_<TCP|UDP|SCTP>[_PROTO|_PORT|_ADDR]}.
	 */
	static boolean isKubernetesServiceVariable(@Nullable ConfigurationProperty property) {
		if (property == null) {
			return false;
		}
		String variable = property.getOrigin() instanceof SystemEnvironmentOrigin origin ? origin.getProperty()
				: property.getOrigin() instanceof PropertySourceOrigin origin ? origin.getPropertyName() : null;
		return variable != null && KUBERNETES_SERVICE_VARIABLE.matcher(variable).matches();
	}

	private static String describe(@Nullable ConfigurationProperty property) {
		return (property != null && property.getOrigin() != null) ? " (" + property.getOrigin() + ")" : "";
	}

	private static String problem(String name, String origin, List<String> valid) {
		String nearest = NearestName.of(name, valid);
		return "Unknown property " + name
				+ ((nearest != null) ? "; did you mean " + nearest + "?" : "; no sawmill property has a similar name.")
				+ origin;
	}

	/**
	 * The valid name closest to a misspelt one by edit distance, compared without dashes
	 * or case.
	 */
	static final class NearestName {

		private NearestName() {
		}

		static @Nullable String of(String name, List<String> valid) {
			String target = comparable(name);
			String best = null;
			int bestDistance = Integer.MAX_VALUE;
			for (String candidate : valid) {
				int distance = distance(target, comparable(candidate));
				if (distance < bestDistance) {
					best = candidate;
					bestDistance = distance;
				}
			}
			int lastElement = target.length() - target.lastIndexOf('.') - 1;
			return (bestDistance <= Math.max(2, lastElement / 3)) ? best : null;
		}

		/** Indices dropped, dashes and case ignored: how Boot compares names. */
		private static String comparable(String name) {
			ConfigurationPropertyName parsed = ConfigurationPropertyName.adapt(name, '.');
			StringBuilder out = new StringBuilder();
			for (int i = 0; i < parsed.getNumberOfElements(); i++) {
				if (!parsed.isNumericIndex(i)) {
					out.append(out.length() > 0 ? "." : "").append(parsed.getElement(i, Form.UNIFORM));
				}
			}
			return out.toString().toLowerCase(Locale.ROOT);
		}

		/** Levenshtein distance. */
		static int distance(String a, String b) {
			int[] previous = new int[b.length() + 1];
			int[] current = new int[b.length() + 1];
			for (int j = 0; j <= b.length(); j++) {
				previous[j] = j;
			}
			for (int i = 1; i <= a.length(); i++) {
				current[0] = i;
				for (int j = 1; j <= b.length(); j++) {
					int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
					current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
				}
				int[] swap = previous;
				previous = current;
				current = swap;
			}
			return previous[b.length()];
		}

	}

}
