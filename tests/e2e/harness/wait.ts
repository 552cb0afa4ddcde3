/** Polling for conditions outside a test body (hooks cannot use `expect.poll`), on the shared poll of `tests/wait.ts`. */
import { until as poll } from '../../wait.ts'

/**
 * Resolves once `condition` holds.
 * @param condition - checked every 50 ms.
 * @param what - named in the timeout error.
 * @param timeoutMs - how long to wait.
 */
export function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  return poll(condition, what, timeoutMs, 50)
}

/**
 * Resolves once the asynchronous `condition` holds.
 * @param condition - checked every 250 ms.
 * @param what - named in the timeout error.
 * @param timeoutMs - how long to wait.
 */
export function untilAsync(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  return poll(condition, what, timeoutMs, 250)
}
