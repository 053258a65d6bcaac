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
package io.sawmill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public API of sawmill-core is the table in docs/architecture.md: every public
 * top-level type of the main code outside an {@code internal} package is in it, and every
 * type in it exists. No public member of those types, or of the public types nested in
 * them, names a type of an {@code internal} package.
 */
class PublicApiTests {

	private static final Pattern TYPE = Pattern.compile("`(?:[a-z]+\\.)*([A-Z]\\w+)`");

	@Test
	void shouldKeepThePublicTypesOutsideInternalPackagesToTheDocumentedApi() throws IOException {
		Set<String> names = api().stream().map(JavaClass::getSimpleName).collect(Collectors.toCollection(TreeSet::new));
		assertThat(names).containsExactlyInAnyOrderElementsOf(documentedApi());
	}

	@Test
	void shouldNotExposeInternalTypesInTheApi() {
		List<String> exposed = new ArrayList<>();
		for (JavaClass type : apiWithNestedTypes()) {
			for (JavaMember member : type.getMembers()) {
				if (!member.getModifiers().contains(JavaModifier.PUBLIC)
						&& !member.getModifiers().contains(JavaModifier.PROTECTED)) {
					continue;
				}
				List<JavaClass> signature = new ArrayList<>();
				if (member instanceof JavaCodeUnit unit) {
					signature.add(unit.getRawReturnType());
					signature.addAll(unit.getRawParameterTypes());
				}
				else if (member instanceof JavaField field) {
					signature.add(field.getRawType());
				}
				signature.stream()
					.filter((used) -> used.getPackageName().contains(".internal"))
					.forEach((used) -> exposed.add(member.getFullName() + " uses " + used.getName()));
			}
		}
		assertThat(exposed).isEmpty();
	}

	private static List<JavaClass> api() {
		return apiWithNestedTypes().stream().filter(JavaClass::isTopLevelClass).toList();
	}

	/** The API's types and the public types nested in them, e.g. the property groups. */
	private static List<JavaClass> apiWithNestedTypes() {
		return new ClassFileImporter().importPath(Path.of("target", "classes"))
			.stream()
			.filter((type) -> !type.getPackageName().contains(".internal"))
			.filter(PublicApiTests::isPublicWithEveryEnclosingType)
			.toList();
	}

	private static boolean isPublicWithEveryEnclosingType(JavaClass type) {
		return type.getModifiers().contains(JavaModifier.PUBLIC)
				&& type.getEnclosingClass().map(PublicApiTests::isPublicWithEveryEnclosingType).orElse(true);
	}

	private static Set<String> documentedApi() throws IOException {
		String doc = Files.readString(Path.of("..", "docs", "architecture.md"));
		int start = doc.indexOf("## Public API");
		String table = doc.substring(start,
				doc.indexOf("\n## ", start + 1) < 0 ? doc.length() : doc.indexOf("\n## ", start + 1));
		Set<String> names = new TreeSet<>();
		table.lines()
			.filter((line) -> line.startsWith("| ") && !line.startsWith("| package") && !line.startsWith("| ---"))
			.forEach((line) -> {
				String types = line.substring(line.indexOf('|', 1));
				Matcher matcher = TYPE.matcher(types);
				while (matcher.find()) {
					names.add(matcher.group(1));
				}
			});
		return names;
	}

}
