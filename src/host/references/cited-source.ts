/**
 * What a message cites of one session: the whole session, some of its messages, or a pointer the agent
 * follows on demand. A source with a selection is a part reference.
 * @module @wishp3/dsh-sessions/host/references/cited-source
 */
import type { SessionReferenceInput } from '@deepseek-ai/dsh-session-reference'
import { type MessageSelection, normalizeSelection } from '../../shared/message-reference.ts'

/** One cited session, whole or in part. */
export interface CitedSource extends SessionReferenceInput {
  /** The messages cited, by log sequence number; absent for the whole session. */
  readonly selection?: MessageSelection
  /** The session's title (or id), for labelling a part whose mention carries no label of its own. */
  readonly title?: string
  /** A pointer: the model gets what the session is, not its messages, and reads it with `read_session`. */
  readonly agent?: true
}

/** Whether a source cites the whole session. */
const isWhole = (source: CitedSource): boolean => source.selection === undefined && source.agent !== true

/** The sources of a message, one per session in order of first mention: a session cited whole anywhere is cited whole; a session cited only in parts is cited with every part, in one selection, labelled anew from its title and the messages' numbers; a pointer stands only for a session cited no other way. `cited`: every source as mentioned, in text order. */
export function mergeSources(cited: readonly CitedSource[]): CitedSource[] {
  const bySession = new Map<string, CitedSource>()
  for (const source of cited) {
    const known = bySession.get(source.sessionId)
    if (known === undefined) {
      bySession.set(source.sessionId, source)
      continue
    }
    if (isWhole(known) || source.agent === true) continue
    if (isWhole(source) || known.agent === true) {
      bySession.set(source.sessionId, source)
      continue
    }
    const { label: _written, ...rest } = known
    bySession.set(source.sessionId, { ...rest, selection: normalizeSelection([...known.selection!, ...source.selection!]) })
  }
  return [...bySession.values()]
}
