/**
 * What drives a run: the options, producing the records, the three strategies (the Sawmill
 * service, the {@code executePipelined} loop and, in {@code measure}, the sequential sample), the
 * cells and the order of their drains, and the comparisons of Sawmill variants. Builds the rows
 * that {@code report} writes.
 */
package io.sawmill.bench.e2e.run;
