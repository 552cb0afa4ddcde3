/**
 * Find in one conversation, for the person's find bar: the messages that hold every word group of a
 * query (a word in any of its forms, a Chinese word or quoted phrase standing whole), in the order they
 * were said, a page at a time after a given message, each with an excerpt marking the match; the matches
 * past the page are counted too, so the bar can say how many there are. The search worker finds in an
 * indexed session the same way.
 * @module @wishp3/dsh-sessions/host/search/text/conversation-find
 */
import type { Snippet } from '../../../shared/wire.ts'
import type { ConversationText, MessageOrigin } from '../../official/conversation.ts'
import { scannedForms, withForms } from './form-expansion.ts'
import type { Expansions } from './match-expression.ts'
import { matchedGroups } from './conversation-search.ts'
import { type MatchedGroup, snippetOf, weighedMatchCount } from './snippet.ts'
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
export class FindCollector {
  readonly matches: FoundMessage[] = []
  total = 0
  private readonly groups: readonly MatchedGroup[]
  private readonly marked: readonly QueryTerm[]
  private readonly after: number
  private readonly limit: number

  constructor({ terms, expansions }: { readonly terms: readonly QueryTerm[]; readonly expansions: Expansions }, { after, limit }: { readonly after: number; readonly limit: number }) {
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

/** The matches after message `after` of a conversation read whole (a session the index does not hold yet), as the worker gives an indexed session's: a word's forms are those that start with its stem or are it. */
export function findInConversation(conversation: ConversationText, query: { readonly terms: readonly QueryTerm[]; readonly after: number; readonly limit: number }): SessionFind {
  const { terms, after, limit } = query
  const { asked, expansions } = scannedForms(terms)
  const collector = new FindCollector({ terms: asked, expansions }, { after, limit })
  const last = Math.min(conversation.messages.length, after + MAX_FIND_PIECES * 64)
  collector.add(conversation.messages.slice(0, last), conversation.origins?.slice(0, last) ?? [], 0)
  return { matches: collector.matches, total: collector.total, complete: last === conversation.messages.length }
}
