/**
 * Search inside one session, for the `read_session` tool: the pieces of the session's stored text that
 * may hold the query, named by `places` where the session has them and read in order where it has none
 * (a session of a few pieces), at most {@link MAX_SEARCHED_PIECES} pieces a query; then every message
 * of them that holds the whole query, with the find bar's matching (a word in any of its forms, a
 * Chinese word or quoted phrase standing whole), the densest matches first.
 * @module @wishp3/dsh-sessions/host/search/message-search
 */
import type { StatementSync } from 'node:sqlite'
import type { Snippet } from '../../shared/wire.ts'
import type { ConversationText, MessageOrigin } from '../official/conversation.ts'
import { ROW_SPAN } from './index-file.ts'
import { scannedForms, withForms } from './form-expansion.ts'
import { type Expansions, groupsOf, groupText, isRun, matchOf } from './match-expression.ts'
import { type MatchedGroup, snippetOf, weighedMatchCount } from './snippet.ts'
import { unpack } from './stored-text.ts'
import type { QueryTerm } from './terms.ts'

/** Most pieces of text (about 4,096 characters each) one query reads. */
export const MAX_SEARCHED_PIECES = 64

/** One message that matches. */
export interface MessageMatch {
  /** Its number among the session's messages, from 1. */
  readonly message: number
  readonly snippet: Snippet
  /** The log event it came from, where the index knows it. */
  readonly origin?: MessageOrigin
  readonly score: number
}

/** What a search inside one session found. */
export interface SessionMatches {
  readonly matches: readonly MessageMatch[]
  /** Whether more pieces may hold the query than the search read. */
  readonly more: boolean
}

/** What the search reads of the index. */
export interface SearchedSession {
  statement(sql: string): StatementSync
}

/** The pieces of one session's rows that hold every term, in order, where a term may be named in `places` (the first piece of a segment that holds a word; every piece that holds a pair) or in `inside` (a word's later pieces): each term's pieces from both, then the pieces every term has. */
export function piecesHolding(file: SearchedSession, from: number, terms: readonly QueryTerm[], expansions: Expansions): number[] {
  const rowsOf = file.statement('SELECT rowid AS row FROM places WHERE places MATCH ?1 AND rowid >= ?2 AND rowid < ?3 UNION SELECT rowid AS row FROM inside WHERE inside MATCH ?1 AND rowid >= ?2 AND rowid < ?3')
  let common: Set<number> | undefined
  for (const term of terms) {
    const rows = new Set((rowsOf.all(matchOf([term], expansions), from, from + ROW_SPAN) as { row: number }[]).map(({ row }) => row))
    common = common === undefined ? rows : new Set([...common].filter(row => rows.has(row)))
    if (common.size === 0) break
  }
  return [...common ?? []].sort((a, b) => a - b)
}

/** A query's groups as messages are tested for them (see `weighedMatchCount`): each word with its other forms the index holds (see `form-expansion.ts`). */
export function matchedGroups(asked: readonly QueryTerm[], expansions: Expansions): MatchedGroup[] {
  return groupsOf(asked).map(group => (isRun(group) ? { run: groupText(group) } : { typed: group, others: withForms(group, expansions).slice(group.length) }))
}

/** A message's score: its matches, less for a longer message. */
function scoreOf(count: number, length: number): number {
  return count / (1 + Math.log2(1 + length / 256))
}

/** The messages of one session that hold every group of a query. `placed`: whether its pieces are named (in `places` and `inside` together); if not, they are read in order. `expansions`: prefixes asked as their terms (see `prefix-expansion.ts`) and words' other forms (see `form-expansion.ts`). */
export function searchMessages(file: SearchedSession, no: number, placed: boolean, asked: readonly QueryTerm[], expansions: Expansions, limit: number): SessionMatches {
  const from = no * ROW_SPAN
  const rows = placed
    ? piecesHolding(file, from, asked, expansions).slice(0, MAX_SEARCHED_PIECES + 1).map(row => ({ row }))
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
        score: scoreOf(count, message.length),
      })
    }
  }
  found.sort((a, b) => b.score - a.score || a.message - b.message)
  return { matches: found.slice(0, limit), more: rows.length > MAX_SEARCHED_PIECES }
}

/** The messages of a conversation read whole (a session the index does not hold yet) that hold every group of a query, as {@link searchMessages} ranks them; a word's forms are those that start with its stem or are it (see `scannedForms`). */
export function scanMessages(conversation: ConversationText, terms: readonly QueryTerm[], limit: number): SessionMatches {
  const { asked, expansions } = scannedForms(terms)
  const groups = matchedGroups(asked, expansions)
  const marked = withForms(asked, expansions)
  const found: MessageMatch[] = []
  for (const [n, message] of conversation.messages.entries()) {
    const count = weighedMatchCount(message, groups)
    if (count === 0) continue
    const snippet = snippetOf([message], marked)
    if (snippet === undefined) continue
    const origin = conversation.origins?.[n]
    found.push({ message: n + 1, snippet: { ...snippet, message: n + 1 }, ...(origin === undefined || origin.seq < 0 ? {} : { origin }), score: scoreOf(count, message.length) })
  }
  found.sort((a, b) => b.score - a.score || a.message - b.message)
  return { matches: found.slice(0, limit), more: false }
}
