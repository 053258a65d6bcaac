/**
 * The rows of a run and how they are written: the Markdown and CSV tables, the targets judged on
 * them (measured, never asserted), the comparisons' ratios and the PNG plots. Reads {@code measure}
 * and {@code workload}, never drives a run.
 */
package io.sawmill.bench.e2e.report;
