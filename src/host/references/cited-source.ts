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
  /** Named in the text (a bare id or a typed `@Title`), not by a chip: it yields to a chip of the same session, whatever the chip's form. */
  readonly inText?: true
  /** A chip's source that the text names too: it is sent once, in the chip's form. */
  readonly alsoInText?: true
}

/** Whether a source cites the whole session. */
const isWhole = (source: CitedSource): boolean => source.selection === undefined && source.agent !== true

/** The sources of a message, one per session in order of first mention. The person's choice wins: a session a chip cites and the text names too (a bare id or a typed title) is cited as the chip cites it. Among chips, a session cited whole anywhere is cited whole; a session cited only in parts is cited with every part, in one selection, labelled anew from its title and the messages' numbers; a pointer stands only for a session cited no other way. `cited`: every source as mentioned, in text order. */
export function mergeSources(cited: readonly CitedSource[]): CitedSource[] {
  const bySession = new Map<string, CitedSource>()
  for (const source of cited) {
    const known = bySession.get(source.sessionId)
    if (known === undefined) {
      bySession.set(source.sessionId, source)
      continue
    }
    if (source.inText === true || known.inText === true) {
      const chip = source.inText === true ? known : source
      if (chip.inText !== true) bySession.set(source.sessionId, { ...chip, alsoInText: true })
      continue
    }
    const also = known.alsoInText === true ? { alsoInText: true as const } : {}
    if (isWhole(known) || source.agent === true) continue
    if (isWhole(source) || known.agent === true) {
      bySession.set(source.sessionId, { ...source, ...also })
      continue
    }
    const { label: _written, ...rest } = known
    bySession.set(source.sessionId, { ...rest, selection: normalizeSelection([...known.selection!, ...source.selection!]) })
  }
  return [...bySession.values()]
}
