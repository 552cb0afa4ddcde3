/**
 * The messages of a session as references name them: a message's log sequence number and its number
 * (from 1) among the messages a snapshot shows, read off the session's current surface through the one
 * {@link SurfaceCache}.
 * @module @wishp3/dsh-sessions/host/references/source-messages
 */
import { SessionId } from '@deepseek-ai/dsh-session'
import type { SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import { formatMessageReference } from '../../shared/message-reference.ts'
import type { MessageHandle, MessageReferenceResponse, SentReference, SourceMessagesResponse, SourceSince } from '../../shared/wire.ts'
import { DshSessionsError } from '../errors.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'
import { isShownMessage } from './part-surface.ts'
import type { MessageSeqs } from './message-seqs.ts'
import type { SurfaceCache } from './surface-cache.ts'

/** Most messages one listing returns: the latest ones. */
export const MAX_LISTED_MESSAGES = 200

/** Most source logs one request reads at the same time. */
export const READS_AT_ONCE = 4

/** Longest excerpt of a listed message. */
const EXCERPT = 120

type SurfaceEvent = SessionSurfaceSnapshot['events'][number]

function idOf(event: SurfaceEvent): string | undefined {
  if (event.type === 'user/message') return event.data.id
  if (event.type === 'assistant/message') return event.data.message.id
  return undefined
}

function textOf(event: SurfaceEvent): string {
  const content = event.type === 'user/message' ? event.data.content : event.type === 'assistant/message' ? event.data.message.content : []
  return content.flatMap(block => (block.type === 'text' ? [block.text] : [])).join('\n')
}

/** The sources' messages. */
export class SourceMessages {
  private readonly cache: SurfaceCache
  private readonly catalog: SessionCatalog
  private readonly seqs: MessageSeqs
  private readonly readTitle: (sessionId: string) => Promise<string | undefined>

  /** `seqs`: where each session's messages are in its log, for `since`. `readTitle`: a session's title from its log, for one the index has none for yet. */
  constructor(reads: { readonly cache: SurfaceCache; readonly catalog: SessionCatalog }, seqs: MessageSeqs, readTitle: (sessionId: string) => Promise<string | undefined> = () => Promise.resolve(undefined)) {
    const { cache, catalog } = reads
    this.cache = cache
    this.catalog = catalog
    this.seqs = seqs
    this.readTitle = readTitle
  }

  /** Whether the session catalog holds the session (live ones included): only such a session is read. */
  private known(sessionId: string): boolean {
    return this.catalog.get(sessionId) !== undefined
  }

  private async surface(sessionId: string): Promise<SessionSurfaceSnapshot> {
    if (!this.known(sessionId)) throw new DshSessionsError(`session "${sessionId}" not found`, 'not-found')
    try {
      return await this.cache.readSurface(SessionId(sessionId))
    } catch (error) {
      throw new DshSessionsError(`session "${sessionId}" not found`, 'not-found', { cause: error })
    }
  }

  private async title(sessionId: string): Promise<string> {
    const known = this.catalog.get(sessionId)
    if (known?.title !== undefined) return known.title
    return (await this.readTitle(sessionId).catch(() => undefined)) ?? known?.label ?? sessionId
  }

  /** The reference to one message. `message`: the message's id, or its log seq. Throws DshSessionsError `not-found` when the session or a shown message of that id is not there. */
  async reference(sessionId: string, message: MessageHandle): Promise<MessageReferenceResponse> {
    const surface = await this.surface(sessionId)
    let number = 0
    for (const event of surface.events) {
      if (!isShownMessage(event)) continue
      number += 1
      if ('seq' in message ? event.seq !== message.seq : idOf(event) !== message.messageId) continue
      const label = `${await this.title(sessionId)} · #${number}`
      return { mention: formatMessageReference({ sessionId, selection: [[event.seq, event.seq]], label }), label, sessionId, seq: event.seq, number }
    }
    throw new DshSessionsError(`message ${'seq' in message ? message.seq : `"${message.messageId}"`} is not in session "${sessionId}"`, 'not-found')
  }

  /** The latest messages of a session. */
  async list(sessionId: string): Promise<SourceMessagesResponse> {
    const surface = await this.surface(sessionId)
    const shown = surface.events.filter(isShownMessage)
    const first = Math.max(0, shown.length - MAX_LISTED_MESSAGES)
    const messages = shown.slice(first).map((event, n) => ({
      seq: event.seq,
      number: first + n + 1,
      role: event.type === 'user/message' ? 'user' as const : 'assistant' as const,
      excerpt: [...textOf(event).replace(/\s+/g, ' ').trim()].slice(0, EXCERPT).join(''),
    }))
    return { sessionId, title: await this.title(sessionId), messages, total: shown.length }
  }

  /** What each source gained since its snapshot; a source that cannot be read gained nothing. */
  async since(sent: readonly SentReference[]): Promise<SourceSince[]> {
    const queue = [...new Set(sent.map(({ sessionId }) => sessionId))].filter(sessionId => this.known(sessionId))
    const done = new Map<string, readonly number[] | undefined>()
    const reader = async (): Promise<void> => {
      for (let sessionId = queue.shift(); sessionId !== undefined; sessionId = queue.shift()) {
        done.set(sessionId, await this.seqs.of(this.catalog.get(sessionId)!))
      }
    }
    await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, queue.length) }, reader))
    return sent.map(({ sessionId, capturedThroughSeq }): SourceSince => {
      const newer = done.get(sessionId)?.filter(seq => capturedThroughSeq === null || seq > capturedThroughSeq) ?? []
      return { sessionId, capturedThroughSeq, newMessages: newer.length, ...(newer[0] === undefined ? {} : { firstNewSeq: newer[0] }) }
    })
  }

}
