// The benchmarks' one percentile, run in Node by each bench. Convention: p in percent (0–100), as
// Node's own perf_hooks histograms take it (`histogram.percentile(99)`, which checkpoint-suspend
// reads beside this) and as the figures are named (p95, p99); a fraction (0.95) is refused rather
// than read as 0.95 %. Method: nearest rank on the sorted samples, index ⌊p/100 · n⌋ clamped to the
// last, so p50 of an even count is the upper middle and p100 the maximum — the figures every bench
// reported before they shared it, unchanged.

/** The p-th percentile (p in 0–100) of `xs`; NaN for no samples. */
export function percentile(xs: readonly number[], p: number): number {
  if (!(p >= 1 || p === 0) || p > 100) throw new RangeError(`percentile: p is in percent (0–100), got ${p}`);
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The median as the benches report it: percentile 50. */
export const median = (xs: readonly number[]): number => percentile(xs, 50);

/** Samples in ascending order, for a bench that prints them. */
export const ascending = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
