/**
 * Bare session ids in a text: whole runs of `[A-Za-z0-9_-]` in one of the id forms the rc.8 host
 * mints.
 * @module @wishp3/dsh-sessions/host/references/session-ids
 */
import { type Span, SpanLookup } from './spans.ts'

/** A bare session id: a maximal `[A-Za-z0-9_-]` run in one of the host's id forms. */
export interface BareSessionId {
  readonly start: number
  readonly end: number
  readonly id: string
}

const ID_RUN = /[A-Za-z0-9_-]+/g

/** Id forms the rc.8 host mints: `session-<uuid>` (web, headless), `session-<32 hex>` (SDK client), `session-<n>` (core store default) and `<agent>-session-<uuid>` (configured agents). */
const SESSION_ID = /^(?:[A-Za-z0-9_-]+-)?session-(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}|[0-9]+)$/

/** Longest id {@link isSessionId} accepts, so a check of hostile input stays bounded. */
const MAX_SESSION_ID = 256

/** Whether a string is a whole session id of a form the rc.8 host mints. Returns true for a session id. */
export function isSessionId(value: string): boolean {
  return value.length <= MAX_SESSION_ID && SESSION_ID.test(value)
}

/** Finds bare session ids outside the given spans. A run of `[A-Za-z0-9_-]` counts only as a whole, so an id never matches with an id character on either side. */
export function scanBareSessionIds(text: string, masked: readonly Span[] = []): BareSessionId[] {
  const found: BareSessionId[] = []
  const claimed = new SpanLookup(masked)
  for (const match of text.matchAll(ID_RUN)) {
    const start = match.index
    const end = start + match[0].length
    if (!SESSION_ID.test(match[0]) || claimed.overlaps(start, end)) continue
    found.push({ start, end, id: match[0] })
  }
  return found
}
