/**
 * What the end-to-end benchmark measures and checks: per-batch timings, the consumer's CPU and its
 * split by thread, Redis' command counts and its own ceiling, the sequential sample, and the
 * verification of what a drain left in Redis. Depends on {@code workload} only.
 */
package io.sawmill.bench.e2e.measure;
