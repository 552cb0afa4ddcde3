/**
 * Find in one session, for the person's find bar: the messages that hold every word group of a query
 * (a word in any of its forms, a Chinese word or quoted phrase standing whole), in the order they were
 * said, a page at a time after a given message, each with an excerpt marking the match. A request
 * unpacks at most {@link MAX_FIND_PIECES} pieces of text; it counts the matches past the page too, so
 * the bar can say how many there are, and says whether that count reached the session's end.
 * @module @wishp3/dsh-sessions/host/search/session-find
 */
import type { Snippet } from '../../shared/wire.ts'
import type { ConversationText, MessageOrigin } from '../official/conversation.ts'
import { scannedForms, withForms } from './form-expansion.ts'
import { ROW_SPAN } from './index-file.ts'
import type { Expansions } from './match-expression.ts'
import { matchedGroups, piecesHolding, type SearchedSession } from './message-search.ts'
import { type MatchedGroup, snippetOf, weighedMatchCount } from './snippet.ts'
import { unpack } from './stored-text.ts'
import type { QueryTerm } from './terms.ts'

/** Most pieces of text (about 4,096 characters each) one request unpacks. */
export const MAX_FIND_PIECES = 128

/** Most matches one request returns with their excerpts. */
export const MAX_FIND_MATCHES = 50

/** One message that matches, in the session's order. */
export interface FoundMessage {
  /** Its number among the session's messages, from 1. */
  readonly message: number
  readonly snippet: Snippet
  /** The log event it came from, where known. */
  readonly origin?: MessageOrigin
}

/** A page of the matches after a message. */
export interface SessionFind {
  /** The first matches after the message asked, at most the limit asked. */
  readonly matches: readonly FoundMessage[]
  /** The matches counted after the message asked, the page's included. */
  readonly total: number
  /** Whether the count reached the session's end (else more may follow the pieces read). */
  readonly complete: boolean
}

/** Collects the matches of one piece's messages. `first`: the index (from 0) of the piece's first message. */
class Collector {
  readonly matches: FoundMessage[] = []
  total = 0
  private readonly groups: readonly MatchedGroup[]
  private readonly marked: readonly QueryTerm[]
  private readonly after: number
  private readonly limit: number

  constructor(terms: readonly QueryTerm[], expansions: Expansions, after: number, limit: number) {
    this.after = after
    this.limit = limit
    this.groups = matchedGroups(terms, expansions)
    this.marked = withForms(terms, expansions)
  }

  add(messages: readonly string[], origins: readonly (MessageOrigin | undefined)[], first: number): void {
    for (const [n, message] of messages.entries()) {
      const number = first + n + 1
      if (number <= this.after || weighedMatchCount(message, this.groups) === 0) continue
      this.total += 1
      if (this.matches.length >= this.limit) continue
      const snippet = snippetOf([message], this.marked)
      if (snippet === undefined) continue
      const origin = origins[n]
      this.matches.push({ message: number, snippet: { ...snippet, message: number }, ...(origin === undefined || origin.seq < 0 ? {} : { origin }) })
    }
  }
}

/** The matches after message `after` (0: from the start) of one indexed session. `no`: its number in the file. `placed`: whether its pieces are named in `places` and `inside` (else its few pieces are read in order). `expansions`: the query's prefixes and forms, as the index holds them. */
export function findInIndex(file: SearchedSession, no: number, placed: boolean, terms: readonly QueryTerm[], expansions: Expansions, after: number, limit: number): SessionFind {
  const from = no * ROW_SPAN
  const rows = placed
    ? piecesHolding(file, from, terms, expansions)
    : (file.statement('SELECT row FROM texts WHERE row >= ? AND row < ? ORDER BY row').all(from, from + ROW_SPAN) as { row: number }[]).map(({ row }) => row)
  // The piece holding message `after + 1` starts at or before it: the last candidate starting before it is read too.
  let start = rows.findIndex(row => row - from >= after)
  if (start < 0) start = rows.length
  if (start > 0 && after > 0) start -= 1
  const collector = new Collector(terms, expansions, after, limit)
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

/** The matches after message `after` of a conversation read whole (a session the index does not hold yet), as {@link findInIndex} gives them: a word's forms are those that start with its stem or are it. */
export function findInConversation(conversation: ConversationText, terms: readonly QueryTerm[], after: number, limit: number): SessionFind {
  const { asked, expansions } = scannedForms(terms)
  const collector = new Collector(asked, expansions, after, limit)
  const last = Math.min(conversation.messages.length, after + MAX_FIND_PIECES * 64)
  collector.add(conversation.messages.slice(0, last), conversation.origins?.slice(0, last) ?? [], 0)
  return { matches: collector.matches, total: collector.total, complete: last === conversation.messages.length }
}
