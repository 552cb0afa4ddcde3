/**
 * What of a session is searchable, the same text a session-reference snapshot shows.
 * @module @wishp3/dsh-sessions/host/search/conversation
 */

/** The searchable text of one session. */
export interface ConversationText {
  /** The latest `session/title`, if any. */
  readonly title: string | undefined
  /** Message texts, oldest first. */
  readonly messages: readonly string[]
  /** Where each message comes from, in the order of `messages`; absent in text an older index file holds. */
  readonly origins?: readonly MessageOrigin[]
  /** Every message of the session, those past the kept characters included; absent where not counted. */
  readonly total?: number
}

/** The log event a message comes from. */
export interface MessageOrigin {
  /** The event's sequence number in its session's log (-1 where the event carried none). */
  readonly seq: number
  /** The event's time, Unix epoch milliseconds (0 where the event carried none). */
  readonly time: number
  readonly role: MessageRole
}

/** Who wrote a message. */
export type MessageRole = 'user' | 'assistant'

/** A session's text with who wrote each message, as the `read_session` tool reads it. */
export interface RoledConversation extends ConversationText {
  /** The role of each message, in the order of `messages`. */
  readonly roles: readonly MessageRole[]
}

/** Most characters of one session kept for search, as many as `read_session` reads; later messages are left out (and counted). */
export const MAX_SESSION_TEXT = 16 * 1024 * 1024

interface LooseEvent {
  readonly type?: unknown
  readonly seq?: unknown
  readonly time?: unknown
  readonly data?: unknown
}

function textBlocks(content: unknown): string {
  if (!Array.isArray(content)) return ''
  const texts: string[] = []
  for (const block of content as { type?: unknown; text?: unknown }[]) {
    if (block !== null && typeof block === 'object' && block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
  }
  return texts.join('\n')
}

/** The searchable text one event adds. Returns the message text; `undefined` for an event that adds none. */
export function messageText(event: LooseEvent): string | undefined {
  const data = event.data as { source?: { kind?: unknown }; content?: unknown; message?: { content?: unknown } } | null | undefined
  if (data === null || typeof data !== 'object') return undefined
  let text = ''
  if (event.type === 'user/message') {
    if (data.source?.kind !== 'user') return undefined
    text = textBlocks(data.content)
  } else if (event.type === 'assistant/message') {
    text = textBlocks(data.message?.content)
  }
  return text === '' ? undefined : text
}

/** The title an event sets. Returns the title; `undefined` for another event. */
export function titleOf(event: LooseEvent): string | undefined {
  if (event.type !== 'session/title') return undefined
  const title = (event.data as { title?: unknown } | null | undefined)?.title
  return typeof title === 'string' ? title : undefined
}

/** Folds events, oldest first, into a session's searchable text, up to a number of characters ({@link MAX_SESSION_TEXT} unless told). */
export class ConversationBuilder {
  private title: string | undefined
  private readonly messages: string[] = []
  private readonly roles: MessageRole[] = []
  private readonly origins: MessageOrigin[] = []
  private size = 0
  private total = 0
  private readonly maxText: number

  /** @param maxText - most characters kept; later messages are left out. */
  constructor(maxText: number = MAX_SESSION_TEXT) {
    this.maxText = maxText
  }

  /** Adds one event. */
  add(event: LooseEvent): void {
    const title = titleOf(event)
    if (title !== undefined) {
      this.title = title
      return
    }
    const text = messageText(event)
    if (text === undefined) return
    this.total += 1
    if (this.size >= this.maxText) return
    const kept = text.length > this.maxText - this.size ? text.slice(0, this.maxText - this.size) : text
    this.messages.push(kept)
    const role = event.type === 'user/message' ? 'user' : 'assistant'
    this.roles.push(role)
    this.origins.push({
      seq: typeof event.seq === 'number' && Number.isSafeInteger(event.seq) ? event.seq : -1,
      time: typeof event.time === 'number' && Number.isFinite(event.time) ? event.time : 0,
      role,
    })
    this.size += kept.length
  }

  /** The text so far. */
  result(): ConversationText {
    return { title: this.title, messages: [...this.messages], origins: [...this.origins], total: this.total }
  }

  /** The title and count so far, and the messages added since the last call, which the builder then lets go. */
  taken(): ConversationText {
    this.roles.length = 0
    return { title: this.title, messages: this.messages.splice(0), origins: this.origins.splice(0), total: this.total }
  }

  /** The text so far, with who wrote each message. */
  roledResult(): RoledConversation {
    return { title: this.title, messages: [...this.messages], origins: [...this.origins], roles: [...this.roles], total: this.total }
  }
}

/** The searchable text of a list of events. */
export function conversationOf(events: Iterable<LooseEvent>, maxText: number = MAX_SESSION_TEXT): ConversationText {
  const builder = new ConversationBuilder(maxText)
  for (const event of events) builder.add(event)
  return builder.result()
}

/** A session's text with who wrote each message. */
export function roledConversationOf(events: Iterable<LooseEvent>, maxText: number): RoledConversation {
  const builder = new ConversationBuilder(maxText)
  for (const event of events) builder.add(event)
  return builder.roledResult()
}
