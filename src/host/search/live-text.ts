/**
 * A live session's searchable text, followed event by event: each step gives the messages that came
 * since the previous one, so keeping a long live session current costs its new messages, not the whole
 * session.
 * @module @wishp3/dsh-sessions/host/search/live-text
 */
import { ConversationBuilder, type ConversationText } from '../official/conversation.ts'
import { MessageDigest } from './text/stored-text.ts'
import type { ContentAppend } from './worker-protocol.ts'

/** An event as the follower reads it (see `conversation.ts`). */
type LiveEvent = Parameters<ConversationBuilder['add']>[0]

/** What one step gives: the whole text, or what came after what the index was sent. */
export type LiveStep =
  | { readonly kind: 'whole'; readonly text: ConversationText }
  | { readonly kind: 'append'; readonly entry: Omit<ContentAppend, 'revision'> }

/** One live session's follower. */
export class LiveText {
  private builder = new ConversationBuilder()
  private digest = new MessageDigest()
  private taken = 0
  private last: LiveEvent | undefined
  private messages = 0
  private whole = true

  /** Takes the events that came since the last step. */
  step(events: readonly LiveEvent[]): LiveStep {
    if (events.length < this.taken || (this.taken > 0 && events[this.taken - 1] !== this.last)) this.restart()
    const after = { messages: this.messages, digest: this.digest.value() }
    for (let n = this.taken; n < events.length; n += 1) this.builder.add(events[n]!)
    this.taken = events.length
    this.last = events.at(-1)
    const text = this.builder.taken()
    for (const message of text.messages) this.digest.add(message)
    this.messages += text.messages.length
    if (this.whole) {
      this.whole = false
      return { kind: 'whole', text }
    }
    return { kind: 'append', entry: { ...text, after, digest: this.digest.value() } }
  }

  /** Forgets what was taken: the next step gives the whole text again (after a write that failed or was refused). */
  restart(): void {
    this.builder = new ConversationBuilder()
    this.digest = new MessageDigest()
    this.taken = 0
    this.last = undefined
    this.messages = 0
    this.whole = true
  }
}
