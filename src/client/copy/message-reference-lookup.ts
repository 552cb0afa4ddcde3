/**
 * The reference to one message of a session (`@[Title · #n](dsh-messages:…)`), as the host's
 * message-reference route makes it from the message's id or log seq.
 * @module @wishp3/dsh-sessions/client/copy/message-reference-lookup
 */
import type { MessageHandle } from '../../shared/wire.ts'
import type { SessionsApi } from '../api.ts'
import { Lookups } from './lookups.ts'

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

/** Builds the lookup. */
export function createMessageReferenceLookup(api: Pick<SessionsApi, 'messageReference'>): MessageReferenceLookup {
  const lookups = new Lookups(KEPT)
  const keyOf = (sessionId: string, message: MessageHandle) => `${sessionId}\n${'seq' in message ? `seq ${message.seq}` : `id ${message.messageId}`}`
  const run = (sessionId: string, message: MessageHandle) => () => api.messageReference(sessionId, message, AbortSignal.timeout(LOOKUP_TIMEOUT_MS)).then(answer => answer.mention)
  return {
    prefetch: (sessionId, message) => { void lookups.load(keyOf(sessionId, message), run(sessionId, message)) },
    ready: (sessionId, message) => lookups.ready(keyOf(sessionId, message)),
    load: (sessionId, message) => lookups.load(keyOf(sessionId, message), run(sessionId, message)),
  }
}
