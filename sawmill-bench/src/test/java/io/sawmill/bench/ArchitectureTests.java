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
package io.sawmill.bench;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * The shape of the benchmarks' main code: no cycles between packages or classes, the
 * end-to-end benchmark in layers.
 */
@AnalyzeClasses(packages = "io.sawmill.bench", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

	/** Every package, sub-packages included, is a slice of its own. */
	@ArchTest
	static final ArchRule shouldHaveNoCyclesBetweenPackages = slices().assignedFrom(new Packages())
		.should()
		.beFreeOfCycles();

	/**
	 * No two classes call each other (a nested class counts as part of the class it is
	 * declared in).
	 */
	@ArchTest
	static final ArchRule shouldHaveNoCyclesBetweenClasses = slices().assignedFrom(new TopLevelClasses())
		.should()
		.beFreeOfCycles();

	/**
	 * The end-to-end benchmark reads top to bottom: the entry point, what drives a run,
	 * its report, what it measures, its workload.
	 */
	@ArchTest
	static final ArchRule shouldLayerTheEndToEndBenchmark = layeredArchitecture().consideringOnlyDependenciesInLayers()
		.layer("entry point")
		.definedBy("io.sawmill.bench.e2e")
		.layer("run")
		.definedBy("io.sawmill.bench.e2e.run..")
		.layer("report")
		.definedBy("io.sawmill.bench.e2e.report..")
		.layer("measure")
		.definedBy("io.sawmill.bench.e2e.measure..")
		.layer("workload")
		.definedBy("io.sawmill.bench.e2e.workload..")
		.whereLayer("entry point")
		.mayNotBeAccessedByAnyLayer()
		.whereLayer("run")
		.mayOnlyBeAccessedByLayers("entry point")
		.whereLayer("report")
		.mayOnlyBeAccessedByLayers("entry point", "run")
		.whereLayer("measure")
		.mayOnlyBeAccessedByLayers("entry point", "run", "report")
		.whereLayer("workload")
		.mayOnlyBeAccessedByLayers("entry point", "run", "report", "measure");

	private static final class Packages implements SliceAssignment {

		@Override
		public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
			return javaClass.getPackageName().startsWith("io.sawmill.bench")
					? SliceIdentifier.of(javaClass.getPackageName()) : SliceIdentifier.ignore();
		}

		@Override
		public String getDescription() {
			return "packages of io.sawmill.bench";
		}

	}

	private static final class TopLevelClasses implements SliceAssignment {

		@Override
		public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
			if (!javaClass.getPackageName().startsWith("io.sawmill.bench")) {
				return SliceIdentifier.ignore();
			}
			String name = javaClass.getName();
			int nested = name.indexOf('$');
			return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
		}

		@Override
		public String getDescription() {
			return "top-level classes of io.sawmill.bench";
		}

	}

}
