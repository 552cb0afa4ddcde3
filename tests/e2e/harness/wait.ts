/** Polling for conditions outside a test body (hooks cannot use `expect.poll`). */

/**
 * Resolves once `condition` holds.
 * @param condition - checked every 50 ms.
 * @param what - named in the timeout error.
 * @param timeoutMs - how long to wait.
 */
export async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

/**
 * Resolves once the asynchronous `condition` holds.
 * @param condition - checked every 250 ms.
 * @param what - named in the timeout error.
 * @param timeoutMs - how long to wait.
 */
export async function untilAsync(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 250))
  }
}
