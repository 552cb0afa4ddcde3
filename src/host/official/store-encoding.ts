/**
 * The JSONL persistence service's check of its store's encoding, handed from the host's service to the
 * store reader's. rc.8's service checks once, at its first read, that no session folder holds a log of
 * the other encoding, and keeps the outcome in a private field: a second service over the same store would
 * open every session folder again, a cost in proportion to the store. The reader's service takes the
 * host's outcome instead, and reads exactly as the host's own service then does.
 * @module @wishp3/dsh-sessions/host/official/store-encoding
 */
import type JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'

/** The private field where rc.8's JSONL service keeps its check once begun. */
interface EncodingCheck {
  rootEncodingCheck?: Promise<void>
}

/** Whether a service has checked its store's encoding and found it sound; waits for a check under way. */
export async function encodingChecked(service: JsonlSessionPersistence): Promise<boolean> {
  const check = (service as unknown as EncodingCheck).rootEncodingCheck
  if (check === undefined) return false
  try {
    await check
    return true
  } catch {
    return false
  }
}

/** Takes a sound check of the same store as this service's own, so it does not look over the store again. */
export function takeEncodingCheck(service: JsonlSessionPersistence): void {
  (service as unknown as EncodingCheck).rootEncodingCheck = Promise.resolve()
}
