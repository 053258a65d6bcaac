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
/**
 * The rows of a run and how they are written: the Markdown and CSV tables, the targets
 * judged on them (measured, never asserted), the comparisons' ratios and the PNG plots.
 * Reads {@code measure} and {@code workload}, never drives a run.
 */
package io.sawmill.bench.e2e.report;
