/**
 * The canonical mention of a session (`@[Title](dsh-session:…)`), as the `@` menu would insert it.
 * @module @wishp3/dsh-sessions/client/copy/session-mention-lookup
 */
import type { SessionsApi } from '../api.ts'
import { Lookups } from './lookups.ts'

/** How long one lookup may take. */
const LOOKUP_TIMEOUT_MS = 10_000

/** Lookups kept; older ones are dropped first. */
const KEPT = 32

/** What a lookup needs. */
export interface ReferenceLookupDeps {
  readonly api: SessionsApi
}

/** Mentions of sessions, looked up ahead of the click. */
export interface ReferenceLookup {
  /** Starts a fresh lookup of a session's mention. */
  prefetch(sessionId: string): void
  /** The mention when the latest lookup has finished with one. */
  ready(sessionId: string): string | undefined
  /** The mention from the latest lookup, or from a new one when none ran or the latest found none; `undefined` when the host has none. */
  load(sessionId: string): Promise<string | undefined>
}

/** Builds the lookup. */
export function createReferenceLookup(deps: ReferenceLookupDeps): ReferenceLookup {
  const lookups = new Lookups(KEPT)
  // A session the host does not hold has no mention: the route refuses it, and the lookup finds none.
  const run = (sessionId: string) => () => deps.api.mention(sessionId, AbortSignal.timeout(LOOKUP_TIMEOUT_MS))
    .then(response => response.mention, () => undefined)
  return {
    prefetch: sessionId => { void lookups.start(sessionId, run(sessionId)) },
    ready: sessionId => lookups.ready(sessionId),
    load: sessionId => lookups.load(sessionId, run(sessionId)),
  }
}
