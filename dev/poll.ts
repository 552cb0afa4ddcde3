/**
 * The one place the tests and their tools pause: between two looks at a
 * condition, under a deadline. A wait that runs out fails naming what it
 * waited for.
 */

/**
 * Resolves once `condition` holds.
 * @param condition - checked at once, then after every pause.
 * @param what - named in the timeout error.
 * @param timeoutMs - how long to wait.
 * @param intervalMs - the pause between two looks.
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, intervalMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, intervalMs))
  }
}
