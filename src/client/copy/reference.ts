/**
 * The canonical mention of a session (`@[Title](dsh-session:…)`), as the `@`
 * menu would insert it: the host's candidates route formats it with the
 * official `formatSessionReferenceMention` from the same session index the
 * menu reads. The citing session is a new, unsent one in the source's own
 * workspace (a fresh id with the source's cwd), so the source is in scope
 * under either scope and is not the citing session itself; the query is the
 * source's id. The official formatter is not imported here: it needs
 * Node's `Buffer`, which the browser does not have.
 *
 * A lookup starts when a menu opens or a button is approached, so that the
 * click usually finds the mention ready and copies it inside the click.
 * @module @wishp3/dsh-sessions/client/copy/reference
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
  /** The working directory of a session the browser lists, when it has one. */
  cwdOf(sessionId: string): string | undefined
  /** A fresh session id for the citing session (default: {@link freshSessionId}). */
  newSessionId?(): string
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

/**
 * A fresh id in the host's `session-<uuid>` form, from `crypto.getRandomValues`
 * (which, unlike `randomUUID`, a page served over plain HTTP to a trusted
 * host also has).
 * @returns the id.
 */
export function freshSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = [...bytes].map(byte => byte.toString(16).padStart(2, '0')).join('')
  return `session-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * Builds the lookup.
 * @param deps - the routes, the session list's cwds and an id source.
 * @returns the lookup.
 */
export function createReferenceLookup(deps: ReferenceLookupDeps): ReferenceLookup {
  const lookups = new Lookups(KEPT)
  const run = (sessionId: string) => () => deps.api.candidates((deps.newSessionId ?? freshSessionId)(), sessionId, AbortSignal.timeout(LOOKUP_TIMEOUT_MS), deps.cwdOf(sessionId))
    .then(response => response.candidates.find(candidate => candidate.sessionId === sessionId)?.mention)
  return {
    prefetch: sessionId => { void lookups.start(sessionId, run(sessionId)) },
    ready: sessionId => lookups.ready(sessionId),
    load: sessionId => lookups.load(sessionId, run(sessionId)),
  }
}
