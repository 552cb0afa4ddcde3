/** Percentiles of measured samples. */

/**
 * The nearest-rank percentile.
 * @param samples - measured values.
 * @param p - the percentile as a fraction (0.5, 0.95).
 * @returns the value at that rank.
 */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
}
