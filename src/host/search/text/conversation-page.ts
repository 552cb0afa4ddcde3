/**
 * One page of a session's conversation, as the `read_session` tool gives it.
 * @module @wishp3/dsh-sessions/host/search/text/conversation-page
 */

import type { MessageRole, RoledConversation } from '../../official/conversation.ts'

/** One numbered message of a page. */
export interface PagedMessage {
  /** Its number in the conversation, from 1. */
  readonly n: number
  readonly role: MessageRole
  readonly text: string
  /** Whether the text was cut to fit the page. */
  readonly cut?: true
}

/** One page. */
export interface ConversationPage {
  /** Messages in the conversation. */
  readonly total: number
  readonly messages: readonly PagedMessage[]
  /** The number to read from next; absent when the page reaches the end. */
  readonly next?: number
}

/** A page of messages. `conversation`: the conversation's message texts and roles, oldest first. `from`: the first message number wanted (from 1); past the end gives an empty page. `maxChars`: most characters of message text the page holds (at least one message starts it, cut if it must be). */
export function pageOf(conversation: Pick<RoledConversation, 'messages' | 'roles'>, from: number, maxChars: number): ConversationPage {
  const { messages, roles } = conversation
  const total = messages.length
  const page: PagedMessage[] = []
  let left = maxChars
  let n = Math.max(1, Math.floor(from))
  for (; n <= total; n += 1) {
    const text = messages[n - 1]!
    const role = roles[n - 1] ?? 'assistant'
    if (text.length <= left) {
      page.push({ n, role, text })
      left -= text.length
      continue
    }
    if (page.length === 0) {
      // A first message longer than the page is cut, at a code point, and read again from its number next time.
      const cut = [...text.slice(0, left + 1)].slice(0, -1).join('')
      page.push({ n, role, text: cut, cut: true })
      return { total, messages: page, ...(n < total ? { next: n + 1 } : {}) }
    }
    break
  }
  return { total, messages: page, ...(n <= total ? { next: n } : {}) }
}
