/**
 * Bare session ids in a text: whole runs of `[A-Za-z0-9_-]` in one of the id forms the rc.8 host
 * mints.
 * @module @wishp3/dsh-sessions/host/references/session-ids
 */
import { isSessionId } from '../sessions/session-id.ts'
import { type Span, SpanLookup } from './spans.ts'

export { isSessionId } from '../sessions/session-id.ts'

/** A bare session id: a maximal `[A-Za-z0-9_-]` run in one of the host's id forms. */
export interface BareSessionId {
  readonly start: number
  readonly end: number
  readonly id: string
}

const ID_RUN = /[A-Za-z0-9_-]+/g

/** Finds bare session ids outside the given spans. A run of `[A-Za-z0-9_-]` counts only as a whole, so an id never matches with an id character on either side. */
export function scanBareSessionIds(text: string, masked: readonly Span[] = []): BareSessionId[] {
  const found: BareSessionId[] = []
  const claimed = new SpanLookup(masked)
  for (const match of text.matchAll(ID_RUN)) {
    const start = match.index
    const end = start + match[0].length
    if (!isSessionId(match[0]) || claimed.overlaps(start, end)) continue
    found.push({ start, end, id: match[0] })
  }
  return found
}
