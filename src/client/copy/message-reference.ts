/**
 * The reference to one message of a session
 * (`@[Title · #n](dsh-messages:…)`), as the host's message-reference route
 * makes it from the message's id or log seq. A lookup starts when the action is
 * approached (pointer or focus), so that the click usually finds the
 * reference ready and copies it inside the click.
 * @module @wishp3/dsh-sessions/client/copy/message-reference
 */
import type { MessageHandle } from '../../shared/wire.ts'
import type { SessionsApi } from '../api.ts'

/** How long one lookup may take. */
const LOOKUP_TIMEOUT_MS = 10_000

/** Lookups kept; older ones are dropped first. */
const KEPT = 64

/** References of messages, looked up ahead of the click. */
export interface MessageReferenceLookup {
  /** Starts a lookup of a message's reference unless one is running or has found it. */
  prefetch(sessionId: string, message: MessageHandle): void
  /** The reference when a lookup has found it. */
  ready(sessionId: string, message: MessageHandle): string | undefined
  /** The reference, from the lookup running or a new one; `undefined` when the host has none. */
  load(sessionId: string, message: MessageHandle): Promise<string | undefined>
}

interface Lookup {
  readonly promise: Promise<string | undefined>
  value: string | undefined
  settled: boolean
}

/**
 * Builds the lookup.
 * @param api - the routes.
 * @returns the lookup.
 */
export function createMessageReferenceLookup(api: Pick<SessionsApi, 'messageReference'>): MessageReferenceLookup {
  const lookups = new Map<string, Lookup>()
  const keyOf = (sessionId: string, message: MessageHandle) => `${sessionId}\n${'seq' in message ? `seq ${message.seq}` : `id ${message.messageId}`}`
  const start = (key: string, sessionId: string, message: MessageHandle): Lookup => {
    const promise = api.messageReference(sessionId, message, AbortSignal.timeout(LOOKUP_TIMEOUT_MS)).then(answer => answer.mention, () => undefined)
    const lookup: Lookup = { promise, value: undefined, settled: false }
    void promise.then(value => {
      lookup.value = value
      lookup.settled = true
    })
    lookups.delete(key)
    lookups.set(key, lookup)
    for (const oldest of lookups.keys()) {
      if (lookups.size <= KEPT) break
      lookups.delete(oldest)
    }
    return lookup
  }
  const current = (sessionId: string, message: MessageHandle): Lookup => {
    const key = keyOf(sessionId, message)
    const known = lookups.get(key)
    if (known !== undefined && (!known.settled || known.value !== undefined)) return known
    return start(key, sessionId, message)
  }
  return {
    prefetch: (sessionId, message) => { current(sessionId, message) },
    ready: (sessionId, message) => lookups.get(keyOf(sessionId, message))?.value,
    load: (sessionId, message) => current(sessionId, message).promise,
  }
}
