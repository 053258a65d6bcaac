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

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaPackage;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.jspecify.annotations.NullMarked;

/**
 * The layering of sawmill-core's main code: mapping at the bottom, Spring Boot only at
 * the top.
 */
@AnalyzeClasses(packages = "io.sawmill", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

	/**
	 * No cycle between packages, each sub-package a package of its own (mapping.json
	 * apart from mapping).
	 */
	@ArchTest
	static final ArchRule shouldHaveNoCyclesBetweenPackages = slices().matching("io.sawmill.(**)")
		.should()
		.beFreeOfCycles();

	/**
	 * No cycle between classes in any package: the code reads top to bottom (a nested
	 * class is part of its top-level class).
	 */
	@ArchTest
	static final ArchRule shouldHaveNoCyclesBetweenClasses = slices().assignedFrom(new TopLevelClasses())
		.should()
		.beFreeOfCycles();

	@ArchTest
	static final ArchRule shouldKeepMappingFreeOfRedisListenerAndSpring = noClasses().that()
		.resideInAPackage("io.sawmill.mapping..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("io.sawmill.redis..", "io.sawmill.listener..", "io.sawmill.autoconfigure..",
				"io.sawmill.metrics..", "org.springframework..", "io.lettuce..")
		.because("a RecordMapper is plain code from a Kafka record to Redis writes, testable without either");

	@ArchTest
	static final ArchRule shouldDependOnSpringBootOnlyInAutoconfigure = noClasses().that()
		.resideOutsideOfPackage("io.sawmill.autoconfigure..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("org.springframework.boot..")
		.because("the data path must be usable without Spring Boot; only auto-configuration binds it to Boot");

	@ArchTest
	static final ArchRule shouldWriteThroughTheWriterInterfaceNotLettuce = noClasses().that()
		.resideInAPackage("io.sawmill.listener..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("io.lettuce..")
		.orShould()
		.dependOnClassesThat()
		.haveSimpleName("LettucePipelinedWriter")
		.because("the listener writes through the RedisBatchWriter interface, not through Lettuce");

	@ArchTest
	static final ArchRule shouldNotDependOnAutoconfigureFromTheDataPath = noClasses().that()
		.resideOutsideOfPackage("io.sawmill.autoconfigure..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("io.sawmill.autoconfigure..");

	/**
	 * Every package of sawmill-core is {@code @NullMarked}, so that NullAway checks all
	 * of its main code (the test kit on the class path is a module of its own, not
	 * checked).
	 */
	@ArchTest
	static void shouldMarkEveryPackageNullMarked(JavaClasses classes) {
		Set<String> unmarked = classes.stream()
			.filter((javaClass) -> !javaClass.getPackageName().startsWith("io.sawmill.testkit"))
			.map(JavaClass::getPackage)
			.filter((javaPackage) -> !javaPackage.isAnnotatedWith(NullMarked.class))
			.map(JavaPackage::getName)
			.collect(Collectors.toCollection(TreeSet::new));
		assertThat(unmarked).as("packages without @NullMarked in their package-info.java").isEmpty();
	}

	/** Each top-level class analysed, with its nested classes, is a slice. */
	private static final class TopLevelClasses implements SliceAssignment {

		@Override
		public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
			String name = javaClass.getName();
			int nested = name.indexOf('$');
			return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
		}

		@Override
		public String getDescription() {
			return "the top-level classes";
		}

	}

}
