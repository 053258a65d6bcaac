/**
 * What a run sends where: the records ({@link io.sawmill.bench.e2e.workload.Workload}, which ids they
 * write), the Redis endpoint a client sees, and the Sawmill variants the comparisons configure
 * ({@link io.sawmill.bench.e2e.workload.Capability}, {@link io.sawmill.bench.e2e.workload.Route}).
 * Pure data and pure functions; the bottom of the end-to-end benchmark's packages.
 */
package io.sawmill.bench.e2e.workload;
