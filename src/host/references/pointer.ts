/**
 * A pointer reference: in place of a session's snapshot, the model gets what the session is and how to
 * read it with the `read_session` tool, in the official snapshot's frame and source kind.
 * @module @wishp3/dsh-sessions/host/references/pointer
 */
import { basename } from 'node:path'
import type { SessionReferenceSource } from '@deepseek-ai/dsh-session-reference'
import type { ContentSearch } from '../search/content-search.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'
import type { CitedSource } from './cited-source.ts'
import { isShownMessage } from './part-surface.ts'
import type { SurfaceCache } from './surface-cache.ts'
import { DshSessionsError } from '../errors.ts'

/** Most characters of the first user message a pointer shows. */
export const FIRST_MESSAGE_CHARS = 40

/** What a pointer tells of its session. */
export interface PointerFacts {
  readonly title: string
  readonly cwd?: string
  readonly createdAt: number
  readonly lastActivity?: number
  readonly messages: number
  readonly firstUserMessage?: string
  /** The newest message's log event, through which the pointer was made. */
  readonly capturedThroughSeq: number | null
}

/** The reference statistics of one source, as the official snapshot message carries them. */
export type ReferenceStats = SessionReferenceSource['references'][number]

/** Reads what a pointer tells of a session: from the content index where it holds it, else from the session's surface. */
export class PointerReader {
  private readonly catalog: SessionCatalog
  private readonly content: ContentSearch
  private readonly surfaces: SurfaceCache

  constructor(catalog: SessionCatalog, content: ContentSearch, surfaces: SurfaceCache) {
    this.catalog = catalog
    this.content = content
    this.surfaces = surfaces
  }

  /** The facts of one source. Throws Error when the session is not known or cannot be read. */
  async read(source: CitedSource): Promise<PointerFacts> {
    const session = this.catalog.get(source.sessionId)
    if (session === undefined) throw new DshSessionsError(`session "${source.sessionId}" not found`, 'not-found')
    const [indexed, lastActivity] = await Promise.all([this.content.facts(source.sessionId), this.content.lastActivity(source.sessionId)])
    const about = { title: session.label, ...(session.cwd === undefined ? {} : { cwd: session.cwd }), createdAt: session.createdAt, ...(lastActivity === undefined ? {} : { lastActivity }) }
    if (indexed !== undefined) {
      return { ...about, messages: indexed.messages, ...(indexed.firstUserMessage === undefined ? {} : { firstUserMessage: indexed.firstUserMessage }), capturedThroughSeq: indexed.newest?.seq ?? null }
    }
    // Not in the index yet: the surface the snapshot would read.
    const surface = await this.surfaces.readSurface(source.sessionId)
    let messages = 0
    let firstUserMessage: string | undefined
    for (const event of surface.events) {
      if (!isShownMessage(event)) continue
      messages += 1
      if (firstUserMessage === undefined && event.type === 'user/message') firstUserMessage = event.data.content.flatMap(block => (block.type === 'text' ? [block.text] : [])).join('\n')
    }
    return { ...about, messages, ...(firstUserMessage === undefined ? {} : { firstUserMessage }), capturedThroughSeq: surface.capturedThroughSeq }
  }
}

/** A time to the minute, in UTC. */
const iso = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16)}Z`

function shortened(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const chars = [...flat]
  return chars.length <= FIRST_MESSAGE_CHARS ? flat : `${chars.slice(0, FIRST_MESSAGE_CHARS).join('').trimEnd()}…`
}

/** The entry a pointer adds to the snapshot's JSON list, beside the official entries. */
export function pointerEntry(source: CitedSource, facts: PointerFacts): Record<string, unknown> {
  const label = source.label ?? facts.title
  return {
    sessionId: source.sessionId,
    title: facts.title,
    ...(label === facts.title ? {} : { label }),
    ...(facts.cwd === undefined ? {} : { workspace: basename(facts.cwd) }),
    created: iso(facts.createdAt),
    ...(facts.lastActivity === undefined ? {} : { lastActive: iso(facts.lastActivity) }),
    messages: facts.messages,
    ...(facts.firstUserMessage === undefined ? {} : { firstMessage: shortened(facts.firstUserMessage) }),
    read: 'read_session reads and searches it',
  }
}

/** A pointer's reference statistics: none of its messages retained. */
export function pointerStats(source: CitedSource, facts: PointerFacts, inputIndex: number): ReferenceStats {
  return {
    sessionId: source.sessionId,
    label: source.label ?? facts.title,
    capturedThroughSeq: facts.capturedThroughSeq,
    compacted: false,
    originalMessages: facts.messages,
    retainedMessages: 0,
    omittedMessages: facts.messages,
    omittedBytes: 0,
    truncated: facts.messages > 0,
    inputIndex,
  }
}
