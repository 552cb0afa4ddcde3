/**
 * Waiting for a promise at most a while.
 * @module @wishp3/dsh-sessions/host/bounded-wait
 */

/** Waits for a promise, at most `ms`; its failure is ignored. */
export async function boundedWait(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([promise.catch(() => undefined), new Promise(resolve => { timer = setTimeout(resolve, ms) })])
  clearTimeout(timer)
}
