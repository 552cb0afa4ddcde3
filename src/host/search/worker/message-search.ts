/**
 * Search inside one indexed session, for the `read_session` tool: the pieces of the session's stored
 * text that may hold the query, named by `places` where the session has them and read in order where
 * it has none (a session of a few pieces), at most {@link MAX_SEARCHED_PIECES} pieces a query; then
 * its messages ranked as a conversation read whole is (see `text/conversation-search.ts`).
 * @module @wishp3/dsh-sessions/host/search/worker/message-search
 */
import type { StatementSync } from 'node:sqlite'
import { ROW_SPAN } from './index-file.ts'
import { withForms } from '../text/form-expansion.ts'
import { type Expansions, matchOf } from '../text/match-expression.ts'
import { snippetOf, weighedMatchCount } from '../text/snippet.ts'
import { unpack } from '../text/stored-text.ts'
import type { QueryTerm } from '../text/terms.ts'
import { matchedGroups, type MessageMatch, messageScore, type SessionMatches } from '../text/conversation-search.ts'

/** Most pieces of text (about 4,096 characters each) one query reads. */
export const MAX_SEARCHED_PIECES = 64

/** One session of the index: its number in the file, and whether its pieces are named in `places` and `inside` (else its few pieces are read in order). */
export interface IndexedSession {
  readonly no: number
  readonly placed: boolean
}

/** A query inside one session: its terms, their expansions as the index holds them (prefixes asked as their terms, see `prefix-expansion.ts`; words' other forms, see `form-expansion.ts`), and the most matches returned. */
export interface SessionQuery {
  readonly terms: readonly QueryTerm[]
  readonly expansions: Expansions
  readonly limit: number
}

/** What the search reads of the index. */
export interface SearchedSession {
  statement(sql: string): StatementSync
}

/** The pieces of one session's rows that hold every term, in order, where a term may be named in `places` (the first piece of a segment that holds a word; every piece that holds a pair) or in `inside` (a word's later pieces): each term's pieces from both, then the pieces every term has. */
export function piecesHolding(file: SearchedSession, from: number, asked: { readonly terms: readonly QueryTerm[]; readonly expansions: Expansions }): number[] {
  const { terms, expansions } = asked
  const rowsOf = file.statement('SELECT rowid AS row FROM places WHERE places MATCH ?1 AND rowid >= ?2 AND rowid < ?3 UNION SELECT rowid AS row FROM inside WHERE inside MATCH ?1 AND rowid >= ?2 AND rowid < ?3')
  let common: Set<number> | undefined
  for (const term of terms) {
    const rows = new Set((rowsOf.all(matchOf([term], expansions), from, from + ROW_SPAN) as { row: number }[]).map(({ row }) => row))
    common = common === undefined ? rows : new Set([...common].filter(row => rows.has(row)))
    if (common.size === 0) break
  }
  return [...common ?? []].sort((a, b) => a - b)
}

/** The messages of one session that hold every group of a query, the densest first. */
export function searchMessages(file: SearchedSession, session: IndexedSession, query: SessionQuery): SessionMatches {
  const { no, placed } = session
  const { terms: asked, expansions, limit } = query
  const from = no * ROW_SPAN
  const rows = placed
    ? piecesHolding(file, from, { terms: asked, expansions }).slice(0, MAX_SEARCHED_PIECES + 1).map(row => ({ row }))
    : file.statement('SELECT row FROM texts WHERE row >= ? AND row < ? ORDER BY row LIMIT ?').all(from, from + ROW_SPAN, MAX_SEARCHED_PIECES + 1) as { row: number }[]
  const groups = matchedGroups(asked, expansions)
  const marked = withForms(asked, expansions)
  const text = file.statement('SELECT body FROM texts WHERE row = ?')
  const found: MessageMatch[] = []
  for (const { row } of rows.slice(0, MAX_SEARCHED_PIECES)) {
    const body = text.get(row) as { body: Uint8Array } | undefined
    if (body === undefined) continue
    const [messages, origins] = unpack(body.body)
    for (const [n, message] of messages.entries()) {
      const count = weighedMatchCount(message, groups)
      if (count === 0) continue
      const snippet = snippetOf([message], marked)
      if (snippet === undefined) continue
      const origin = origins[n]
      const number = row - from + n + 1
      found.push({
        message: number,
        snippet: { ...snippet, message: number },
        ...(origin === null || origin === undefined || origin[0] < 0 ? {} : { origin: { seq: origin[0], time: origin[1], role: origin[2] } }),
        score: messageScore(count, message.length),
      })
    }
  }
  found.sort((a, b) => b.score - a.score || a.message - b.message)
  return { matches: found.slice(0, limit), more: rows.length > MAX_SEARCHED_PIECES }
}
