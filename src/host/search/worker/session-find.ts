/**
 * Find in one indexed session: the pieces of its stored text that may hold the query, from the message
 * asked on, at most {@link MAX_FIND_PIECES} pieces a request, their messages collected as a conversation
 * read whole is (see `text/conversation-find.ts`); says whether the count reached the session's end.
 * @module @wishp3/dsh-sessions/host/search/worker/session-find
 */
import { ROW_SPAN } from './index-file.ts'
import { type IndexedSession, piecesHolding, type SearchedSession, type SessionQuery } from './message-search.ts'
import { unpack } from '../text/stored-text.ts'
import { FindCollector, MAX_FIND_PIECES, type SessionFind } from '../text/conversation-find.ts'

/** The matches after message `after` (0: from the start) of one indexed session, in order, at most `limit` with their excerpts. */
export function findInIndex(file: SearchedSession, session: IndexedSession, query: SessionQuery & { readonly after: number }): SessionFind {
  const { no, placed } = session
  const { terms, expansions, after, limit } = query
  const from = no * ROW_SPAN
  const rows = placed
    ? piecesHolding(file, from, { terms, expansions })
    : (file.statement('SELECT row FROM texts WHERE row >= ? AND row < ? ORDER BY row').all(from, from + ROW_SPAN) as { row: number }[]).map(({ row }) => row)
  // The piece holding message `after + 1` starts at or before it: the last candidate starting before it is read too.
  let start = rows.findIndex(row => row - from >= after)
  if (start < 0) start = rows.length
  if (start > 0 && after > 0) start -= 1
  const collector = new FindCollector({ terms, expansions }, { after, limit })
  const text = file.statement('SELECT body FROM texts WHERE row = ?')
  const end = Math.min(rows.length, start + MAX_FIND_PIECES)
  for (let at = start; at < end; at += 1) {
    const row = rows[at]!
    const body = text.get(row) as { body: Uint8Array } | undefined
    if (body === undefined) continue
    const [messages, origins] = unpack(body.body)
    collector.add(messages, origins.map(origin => (origin === null || origin === undefined ? undefined : { seq: origin[0], time: origin[1], role: origin[2] })), row - from)
  }
  return { matches: collector.matches, total: collector.total, complete: end === rows.length }
}
