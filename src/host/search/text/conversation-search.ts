/**
 * Search inside one conversation read whole: the messages that hold every word group of a query, with
 * the find bar's matching (a word in any of its forms, a Chinese word or quoted phrase standing whole),
 * the densest matches first. The search worker ranks an indexed session's messages the same way.
 * @module @wishp3/dsh-sessions/host/search/text/conversation-search
 */
import type { Snippet } from '../../../shared/wire.ts'
import type { ConversationText, MessageOrigin } from '../../official/conversation.ts'
import { scannedForms, withForms } from './form-expansion.ts'
import { type Expansions, groupsOf, groupText, isRun } from './match-expression.ts'
import { type MatchedGroup, snippetOf, weighedMatchCount } from './snippet.ts'
import type { QueryTerm } from './terms.ts'

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

/** A query's groups as messages are tested for them (see `weighedMatchCount`): each word with its other forms the index holds (see `form-expansion.ts`). */
export function matchedGroups(asked: readonly QueryTerm[], expansions: Expansions): MatchedGroup[] {
  return groupsOf(asked).map(group => (isRun(group) ? { run: groupText(group) } : { typed: group, others: withForms(group, expansions).slice(group.length) }))
}

/** A message's score: its matches, less for a longer message. */
export function messageScore(count: number, length: number): number {
  return count / (1 + Math.log2(1 + length / 256))
}

/** The messages of a conversation read whole (a session the index does not hold yet) that hold every group of a query, as the worker ranks an indexed session's; a word's forms are those that start with its stem or are it (see `scannedForms`). */
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
    found.push({ message: n + 1, snippet: { ...snippet, message: n + 1 }, ...(origin === undefined || origin.seq < 0 ? {} : { origin }), score: messageScore(count, message.length) })
  }
  found.sort((a, b) => b.score - a.score || a.message - b.message)
  return { matches: found.slice(0, limit), more: false }
}
