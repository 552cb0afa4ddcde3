/** Wall-clock measurement printed by the harness. */

/**
 * Runs `work` and reports its duration on stderr.
 * @param label - what is measured.
 * @param work - the measured work.
 * @returns the work's result.
 */
export async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await work()
  } finally {
    report(label, performance.now() - started)
  }
}

/**
 * Prints one measurement.
 * @param label - what was measured.
 * @param ms - its duration in milliseconds.
 */
export function report(label: string, ms: number): void {
  process.stderr.write(`[e2e] ${label}: ${(ms / 1000).toFixed(2)} s\n`)
}

/**
 * Prints one measured line as is.
 * @param text - what was measured and its figures.
 */
export function note(text: string): void {
  process.stderr.write(`[e2e] ${text}\n`)
}
