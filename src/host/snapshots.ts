/**
 * Snapshots through the official session-reference service, read and
 * rendered once per send. A private instance of the official
 * `SessionReferenceResolver`, with the host instance's limits, reads through
 * the {@link SurfaceCache}; every rendering, budget and framing rule stays
 * the official one. It measures one source at a time (what a chip will add)
 * and prepares a message's sources together, attaching every source that can
 * be attached: a source that fails is left out on its own, and sources past
 * the limit are reported. Measures and prepared snapshots are kept for a
 * short while, keyed by the sources and their revisions, so the snapshot the
 * preflight prepared is the one the pre-step attaches while no source changed.
 * @module @wishp3/dsh-sessions/host/snapshots
 */
import { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ContentBlock, UserMessage } from '@deepseek-ai/dsh-llm'
import SessionReferenceResolver, {
  MAX_REFERENCES, type PreparedReferencedMessage, SessionReferenceError, type SessionReferenceInput,
} from '@deepseek-ai/dsh-session-reference'
import type {} from '@deepseek-ai/dsh-token-meter'
import { messageOf } from './errors.ts'
import { codeOf, type ReferenceFailure } from './failures.ts'
import type { ReferenceTarget } from './scope.ts'
import type { SessionIndex } from './session-index.ts'
import type { SurfaceCache } from './surface-cache.ts'

/** What one source adds to the context, or why it cannot be attached. */
export interface SourceMeasure {
  readonly sessionId: string
  readonly label: string
  /** Serialized bytes of the source's snapshot message. */
  readonly bytes?: number
  /** The host's token estimate of that message. */
  readonly tokens?: number
  /** Whether the source was cut to fit the byte budget. */
  readonly truncated?: boolean
  readonly failure?: ReferenceFailure
}

/** The outcome of attaching a message's sources. */
export interface Attachment {
  /** The readable content and the one snapshot of every attached source; absent when none could be attached. */
  readonly prepared?: PreparedReferencedMessage
  readonly attached: readonly SessionReferenceInput[]
  /** Sources left out, each with its reason. */
  readonly failures: readonly ReferenceFailure[]
}

/** Milliseconds a measure or a prepared snapshot is kept. */
const KEEP_MS = 60_000

/** Most measures or prepared snapshots kept; the oldest is dropped first. */
const KEEP_ENTRIES = 32

/** A small map whose entries expire. */
class Kept<T> {
  private readonly entries = new Map<string, { value: Promise<T>; expires: number }>()

  get(key: string): Promise<T> | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined || entry.expires <= Date.now()) {
      this.entries.delete(key)
      return undefined
    }
    return entry.value
  }

  /**
   * Keeps a computation; it is forgotten when it rejects or when `keep` refuses its value.
   * @param key - what identifies it.
   * @param value - the computation, shared by every caller until it is forgotten.
   * @param keep - whether a settled value may serve later callers.
   */
  set(key: string, value: Promise<T>, keep: (settled: T) => boolean = () => true): void {
    this.entries.delete(key)
    this.entries.set(key, { value, expires: Date.now() + KEEP_MS })
    if (this.entries.size > KEEP_ENTRIES) this.entries.delete(this.entries.keys().next().value!)
    const forget = () => { if (this.entries.get(key)?.value === value) this.entries.delete(key) }
    value.then(settled => { if (!keep(settled)) forget() }, forget)
  }
}

/**
 * A shared computation as one caller sees it: that caller's cancellation
 * ends its wait, never the computation other callers share.
 * @param work - the shared computation.
 * @param signal - the caller's cancellation.
 * @returns the computation's result, or a rejection when the caller cancels first.
 */
function awaitFor<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work
  return new Promise<T>((resolve, reject) => {
    const cancel = () => { reject(new SessionReferenceError('session reference preparation was cancelled', 'SESSION_REFERENCE_CANCELLED', { cause: signal.reason })) }
    if (signal.aborted) {
      cancel()
      return
    }
    signal.addEventListener('abort', cancel, { once: true })
    work.then(resolve, reject).finally(() => { signal.removeEventListener('abort', cancel) })
  })
}

/** Limits of the official service this instance mirrors. */
interface Limits {
  readonly maxReferences: number
  readonly maxReferenceBytes: number
}

function limitsOf(service: SessionReferenceResolver): Limits {
  // rc.8 keeps the resolved limits private; they are read, and checked, so the private instance applies the same ones.
  const config: unknown = Reflect.get(service, 'config')
  const read = (key: string, fallback: number) => {
    const value = typeof config === 'object' && config !== null ? Reflect.get(config, key) : undefined
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : fallback
  }
  return { maxReferences: read('maxReferences', MAX_REFERENCES), maxReferenceBytes: read('maxReferenceBytes', 65_536) }
}

/** Prepares snapshots with the official service over cached reads. */
export class SnapshotPreparer {
  private instance: Promise<SessionReferenceResolver> | undefined
  private readonly isolated = new Context()
  private fiber: { dispose(): unknown } | undefined
  private readonly measures = new Kept<SourceMeasure>()
  private readonly snapshots = new Kept<UserMessage>()

  private readonly ctx: Context
  private readonly cache: SurfaceCache
  private readonly index: SessionIndex

  constructor(ctx: Context, cache: SurfaceCache, index: SessionIndex) {
    this.ctx = ctx
    this.cache = cache
    this.index = index
    ctx.effect(() => () => { void this.dispose() }, 'dsh-sessions: snapshot preparer')
  }

  /** The limit of distinct sources per message. */
  get maxReferences(): number {
    return limitsOf(this.ctx.sessionReferenceResolver).maxReferences
  }

  /**
   * What one source will add to the context.
   * @param target - the citing session.
   * @param reference - the source.
   * @param signal - cancellation.
   * @returns its size, token estimate and truncation, or its failure.
   */
  async measure(target: ReferenceTarget, reference: SessionReferenceInput, signal?: AbortSignal): Promise<SourceMeasure> {
    const key = await this.keyOf(target, [reference])
    const kept = key === undefined ? undefined : this.measures.get(key)
    if (kept !== undefined) return awaitFor(kept, signal)
    const measuring = this.measureNow(target, reference)
    // A failure is measured again next time: the source may come back.
    if (key !== undefined) this.measures.set(key, measuring, measure => measure.failure === undefined)
    return awaitFor(measuring, signal)
  }

  /** Measures one source; shared by every caller that asks meanwhile, so no one caller's cancellation applies. */
  private async measureNow(target: ReferenceTarget, reference: SessionReferenceInput): Promise<SourceMeasure> {
    const label = reference.label ?? reference.sessionId
    try {
      const prepared = await (await this.service()).prepare({ id: target.id } as Agent, [{ type: 'text', text: '' }], [reference])
      const message = prepared.additionalContext
      if (message === undefined) return { sessionId: reference.sessionId, label }
      const text = message.content.map(block => (block.type === 'text' ? block.text : '')).join('')
      const stats = message.source.kind === 'session-reference' ? message.source.references[0] : undefined
      const tokens = this.ctx.get('tokenMeter')?.estimateMessage(message)
      return {
        sessionId: reference.sessionId,
        label,
        bytes: Buffer.byteLength(text, 'utf8'),
        ...(tokens === undefined ? {} : { tokens }),
        truncated: stats?.truncated === true,
      }
    } catch (error) {
      const failure = failureOf(reference, error)
      // A source that cannot be read may be gone: the index forgets it only if the host says so.
      if (failure.code === 'SESSION_REFERENCE_READ_FAILED') await this.index.refresh(reference.sessionId)
      return { sessionId: reference.sessionId, label, failure }
    }
  }

  /**
   * Attaches a message's sources: the first {@link maxReferences} in text
   * order, each that can be read and fits the budget; the rest are reported.
   * @param target - the citing session.
   * @param content - the readable message content.
   * @param references - distinct in-scope sources in text order.
   * @param signal - cancellation; a cancelled attachment throws.
   * @returns the prepared message, what was attached and what was left out.
   */
  async attach(target: ReferenceTarget, content: ContentBlock[], references: readonly SessionReferenceInput[], signal?: AbortSignal): Promise<Attachment> {
    const limit = this.maxReferences
    const failures: ReferenceFailure[] = references.slice(limit).map(reference => ({
      code: 'SESSION_REFERENCE_TOO_MANY',
      message: `a message may reference at most ${limit} sessions`,
      sessionId: reference.sessionId,
      label: reference.label ?? reference.sessionId,
    }))
    let candidates = references.slice(0, limit)
    if (candidates.length === 0) return { attached: [], failures }
    try {
      return { prepared: { content, additionalContext: await this.snapshotOf(target, candidates, signal) }, attached: candidates, failures }
    } catch (error) {
      if (signal?.aborted === true || (error instanceof SessionReferenceError && error.code === 'SESSION_REFERENCE_CANCELLED')) throw error
    }
    // One source failed the whole set: measure each (reads are cached) and prepare the ones that pass.
    const measured = await Promise.all(candidates.map(reference => this.measure(target, reference, signal)))
    for (const { failure } of measured) if (failure !== undefined) failures.push(failure)
    candidates = candidates.filter((_, n) => measured[n]!.failure === undefined)
    if (candidates.length === 0) return { attached: [], failures }
    try {
      return { prepared: { content, additionalContext: await this.snapshotOf(target, candidates, signal) }, attached: candidates, failures }
    } catch (error) {
      signal?.throwIfAborted()
      for (const reference of candidates) failures.push(failureOf(reference, error))
      return { attached: [], failures }
    }
  }

  /** The one snapshot message of these sources, prepared once while none of them changed. */
  private async snapshotOf(target: ReferenceTarget, references: readonly SessionReferenceInput[], signal?: AbortSignal): Promise<UserMessage> {
    const key = await this.keyOf(target, references)
    const kept = key === undefined ? undefined : this.snapshots.get(key)
    // The official service's messages are deeply frozen, so one may serve every send that cites the same sources.
    if (kept !== undefined) return awaitFor(kept, signal)
    // Shared by every caller that asks meanwhile, so no one caller's cancellation applies.
    const preparing = this.service()
      .then(service => service.prepare({ id: target.id } as Agent, [], [...references]))
      .then(prepared => {
        if (prepared.additionalContext === undefined) throw new SessionReferenceError('no snapshot was prepared', 'SESSION_REFERENCE_READ_FAILED')
        return prepared.additionalContext
      })
    if (key !== undefined) this.snapshots.set(key, preparing)
    return awaitFor(preparing, signal)
  }

  /** What identifies a preparation: the citing session, and each source with its label and revision; `undefined` when a revision cannot be told. */
  private async keyOf(target: ReferenceTarget, references: readonly SessionReferenceInput[]): Promise<string | undefined> {
    const revisions = await Promise.all(references.map(reference => this.cache.revisionOf(reference.sessionId)))
    if (revisions.some(revision => revision === undefined)) return undefined
    return JSON.stringify([target.id, references.map((reference, n) => [reference.sessionId, reference.label ?? null, revisions[n]])])
  }

  private service(): Promise<SessionReferenceResolver> {
    this.instance ??= (async () => {
      this.isolated.provide('sessionQuery', { readSurface: (id: Parameters<SurfaceCache['readSurface']>[0]) => this.cache.readSurface(id) })
      const fiber = this.isolated.plugin(SessionReferenceResolver, limitsOf(this.ctx.sessionReferenceResolver))
      this.fiber = fiber
      await fiber
      return this.isolated.sessionReferenceResolver
    })()
    return this.instance
  }

  private async dispose(): Promise<void> {
    this.instance = undefined
    await this.fiber?.dispose()
  }
}

function failureOf(reference: SessionReferenceInput, error: unknown): ReferenceFailure {
  return {
    code: codeOf(error, 'SESSION_REFERENCE_READ_FAILED'),
    message: messageOf(error),
    sessionId: reference.sessionId,
    label: reference.label ?? reference.sessionId,
  }
}
