/**
 * The one reach into the official session-reference service beyond its public methods: its limits,
 * `prepare` by id, shared work cancelled as one caller, and the snapshot's framing read off the
 * service, each held by `tests/host/official-session-reference.spec.ts`.
 * @module @wishp3/dsh-sessions/host/official/session-reference
 */
import { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { SESSION_FORMAT_VERSION, SessionId } from '@deepseek-ai/dsh-session'
import type { SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import SessionReferenceResolver, {
  DEFAULT_MAX_REFERENCE_BYTES, MAX_REFERENCES, type PreparedReferencedMessage, SessionReferenceError, type SessionReferenceInput,
} from '@deepseek-ai/dsh-session-reference'
import { DshSessionsError } from '../errors.ts'

/** Limits of an official service instance. */
export interface ReferenceLimits {
  /** Most distinct sources one message may reference. */
  readonly maxReferences: number
  /** Byte budget of one source's snapshot. */
  readonly maxReferenceBytes: number
}

/** The limits an official service instance runs with. */
export function referenceLimits(service: SessionReferenceResolver): ReferenceLimits {
  const config: unknown = Reflect.get(service, 'config')
  const read = (key: string, fallback: number) => {
    const value = typeof config === 'object' && config !== null ? Reflect.get(config, key) : undefined
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : fallback
  }
  return { maxReferences: read('maxReferences', MAX_REFERENCES), maxReferenceBytes: read('maxReferenceBytes', DEFAULT_MAX_REFERENCE_BYTES) }
}

/** The official `prepare` of references alone (a message without content of its own) for a citing session known by id. `citingId`: the session the message is sent in; references to it are rejected. */
export function prepareFor(service: SessionReferenceResolver, asked: { readonly citingId: string; readonly references: SessionReferenceInput[] }, signal?: AbortSignal): Promise<PreparedReferencedMessage> {
  const { citingId, references } = asked
  const citing = { id: citingId } as Agent
  return service.prepare(citing, [], references, signal)
}

/** Shared work as one caller sees it: the caller's cancellation ends its wait with the official cancellation error, never the work other callers share; otherwise the work's own outcome. Returns the work's result, or a rejection when the caller cancels first (a rejection that is not an `Error` becomes one, as the official one does). */
export function settleWithCancellation<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work
  return new Promise<T>((resolve, reject) => {
    const cancel = (): void => { reject(new SessionReferenceError('session reference preparation was cancelled', 'SESSION_REFERENCE_CANCELLED', { cause: signal.reason })) }
    signal.addEventListener('abort', cancel, { once: true })
    work.then(
      value => {
        signal.removeEventListener('abort', cancel)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', cancel)
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
    if (signal.aborted) cancel()
  })
}

/** The text the official service puts before and after a snapshot's JSON. */
export interface SnapshotFraming {
  readonly before: string
  readonly after: string
}

/** The official snapshot framing, read off a snapshot the official service prepares, in a context of its own, of an empty session. Throws TypeError when the official snapshot is no longer a JSON array inside text. */
export async function snapshotFraming(): Promise<SnapshotFraming> {
  const ctx = new Context()
  const source = SessionId('session-0')
  const empty: SessionSurfaceSnapshot = { session: { version: SESSION_FORMAT_VERSION, id: source, createdAt: 0 }, capturedThroughSeq: null, events: [] }
  ctx.provide('sessionQuery', { readSurface: () => Promise.resolve(structuredClone(empty)) })
  const fiber = ctx.plugin(SessionReferenceResolver, {})
  try {
    await fiber
    const prepared = await prepareFor(ctx.sessionReferenceResolver, { citingId: 'session-1', references: [{ sessionId: source }] })
    const block = prepared.additionalContext?.content[0]
    const text = block?.type === 'text' ? block.text : ''
    const start = text.indexOf('[{')
    const end = text.lastIndexOf('}]')
    if (start <= 0 || end < start) throw new TypeError('the official snapshot is no longer a JSON array framed by text')
    return { before: text.slice(0, start), after: text.slice(end + 2) }
  } finally {
    await fiber.dispose()
  }
}

/** The official framing, read once, at the first call that needs it rather than at boot; a failed read is tried again at the next call. */
export class Framing {
  private loading: Promise<SnapshotFraming> | undefined
  private loaded: SnapshotFraming | undefined

  /** Reads the framing if it has not been read; a tool's `execute` awaits this before its result is rendered. */
  load(): Promise<SnapshotFraming> {
    this.loading ??= snapshotFraming().then(
      framing => (this.loaded = framing),
      (error: unknown) => {
        this.loading = undefined
        throw error
      },
    )
    return this.loading
  }

  /** The framing read by {@link Framing.load}. Throws Error when it has not been read yet. */
  current(): SnapshotFraming {
    if (this.loaded === undefined) throw new DshSessionsError('the snapshot framing has not been read', 'unavailable')
    return this.loaded
  }
}

/** Tool content holding session text. */
export function framedContent(framing: SnapshotFraming, value: unknown): ContentBlock[] {
  return [{ type: 'text', text: `${framing.before}${JSON.stringify(value).replaceAll('<', '\\u003c')}${framing.after}` }]
}
