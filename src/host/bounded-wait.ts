/**
 * Waiting for a promise at most a while: what a stop uses, so a write still
 * under way cannot hold the host's shutdown.
 * @module @wishp3/dsh-sessions/host/bounded-wait
 */

/**
 * Waits for a promise, at most `ms`; its failure is ignored.
 * @param promise - what is waited for.
 * @param ms - the longest wait.
 */
export async function boundedWait(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([promise.catch(() => undefined), new Promise(resolve => { timer = setTimeout(resolve, ms) })])
  clearTimeout(timer)
}
