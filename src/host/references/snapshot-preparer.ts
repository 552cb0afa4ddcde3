/**
 * Snapshots through the official session-reference service, read and rendered once per send.
 * @module @wishp3/dsh-sessions/host/references/snapshot-preparer
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { Context } from '@deepseek-ai/cordis'
import { type ContentBlock, createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import SessionReferenceResolver, {
  type PreparedReferencedMessage, SessionReferenceError, type SessionReferenceInput,
} from '@deepseek-ai/dsh-session-reference'
import type { SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import type {} from '@deepseek-ai/dsh-token-meter'
import { framedContent, Framing, prepareFor, referenceLimits, settleWithCancellation } from '../official/session-reference.ts'
import type { ReferenceTarget } from '../sessions/scope.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'
import { failureOf, pastTheLimit, type ReferenceFailure } from './reference-failure.ts'
import type { CitedSource } from './cited-source.ts'
import { type PointerReader, pointerEntry, pointerStats } from './pointer.ts'
import { formatNumbers } from '../../shared/message-reference.ts'
import { narrowSurface } from './part-surface.ts'
import { bothLeftOut, type LeftOut, NOTHING_LEFT_OUT, trimSurface, withLeftOut } from './retention.ts'
import { SnapshotCache } from './snapshot-cache.ts'
import type { SurfaceCache } from './surface-cache.ts'
import { DshSessionsError } from '../errors.ts'

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

/** A kept snapshot as one send attaches it: the same content and source under a message identity of its own, since a session's log must not hold one message twice (two sends citing the same unchanged source would, and the host then fails to load that session's history). */
function attachable(snapshot: UserMessage): UserMessage {
  return createUserMessage({ source: snapshot.source, content: snapshot.content })
}

/** A snapshot whose part sources name the log seqs of the messages they hold (`messageSeqs` beside the official fields of each `source.references` entry), so the browser can open the source at them. The model never sees a message's source; the browser reads it as the open JSON it is. */
function withMessageSeqs(snapshot: UserMessage, surfaces: ReadonlyMap<string, SessionSurfaceSnapshot>): UserMessage {
  if (snapshot.source.kind !== 'session-reference') return snapshot
  const references = snapshot.source.references.map(reference => {
    const surface = surfaces.get(reference.sessionId)
    return surface === undefined ? reference : Object.assign({}, reference, { messageSeqs: surface.events.map(event => event.seq) })
  })
  return createUserMessage({ source: { ...snapshot.source, references }, content: snapshot.content })
}

/** A snapshot whose statistics count what the trim of each source's surface left out. `snapshot`: the official snapshot of the trimmed surfaces. `leftOut`: what was left out of each source, by session id. Returns the snapshot of the whole surfaces; the same message when nothing was left out. */
function withLeftOutStats(snapshot: UserMessage, leftOut: ReadonlyMap<string, LeftOut>): UserMessage {
  if (snapshot.source.kind !== 'session-reference' || [...leftOut.values()].every(left => left.messages === 0)) return snapshot
  const references = snapshot.source.references.map(reference => {
    const left = leftOut.get(reference.sessionId)
    return left === undefined ? reference : withLeftOut(reference, left)
  })
  return createUserMessage({ source: { ...snapshot.source, references }, content: snapshot.content })
}

/** One preparation as the service's reads see it. */
interface Preparation {
  /** The narrowed surfaces of its part sources, by session id. */
  readonly parts: ReadonlyMap<string, SessionSurfaceSnapshot>
  /** The label each source's snapshot carries, by session id. */
  readonly labels: ReadonlyMap<string, string>
  /** The byte budget of one source's snapshot. */
  readonly maxBytes: number
  /** What the trim left out of each surface read, by session id. */
  readonly leftOut: Map<string, LeftOut>
}

function isCancellation(error: unknown): boolean {
  return error instanceof SessionReferenceError && error.code === 'SESSION_REFERENCE_CANCELLED'
}

/** Prepares snapshots with the official service over cached reads. */
export class SnapshotPreparer {
  private instance: Promise<SessionReferenceResolver> | undefined
  private readonly isolated = new Context()
  private fiber: { dispose(): unknown } | undefined
  private readonly snapshots = new SnapshotCache()
  /** The preparation running in this async context. */
  private readonly preparation = new AsyncLocalStorage<Preparation>()

  private readonly ctx: Context
  private readonly cache: SurfaceCache
  private readonly catalog: SessionCatalog
  private readonly pointers: PointerReader | undefined
  private readonly framing = new Framing()

  /** @param pointers - what pointers tell of their sessions; without it a pointer fails as unreadable. */
  constructor(ctx: Context, reads: { readonly cache: SurfaceCache; readonly catalog: SessionCatalog; readonly pointers?: PointerReader | undefined }) {
    const { cache, catalog, pointers } = reads
    this.ctx = ctx
    this.cache = cache
    this.catalog = catalog
    this.pointers = pointers
    ctx.effect(() => () => { void this.dispose() }, 'dsh-sessions: snapshot preparer')
  }

  /** The limit of distinct sources per message. */
  get maxReferences(): number {
    return referenceLimits(this.ctx.sessionReferenceResolver).maxReferences
  }

  /** What one source will add to the context. Returns its size, token estimate and truncation, or its failure. */
  async measure(target: ReferenceTarget, reference: CitedSource, signal?: AbortSignal): Promise<SourceMeasure> {
    let label = reference.label ?? reference.sessionId
    let message: UserMessage
    try {
      message = await this.snapshotOf(target, [reference], signal)
    } catch (error) {
      if (signal?.aborted === true || isCancellation(error)) throw error
      const failure = failureOf(error, reference)
      // A source that cannot be read may be gone: the index forgets it only if the host says so.
      if (failure.code === 'not-found') await this.catalog.refresh(reference.sessionId)
      return { sessionId: reference.sessionId, label, failure }
    }
    const text = message.content.map(block => (block.type === 'text' ? block.text : '')).join('')
    const stats = message.source.kind === 'session-reference' ? message.source.references[0] : undefined
    if (stats !== undefined) label = stats.label
    const tokens = this.ctx.get('tokenMeter')?.estimateMessage(message)
    return {
      sessionId: reference.sessionId,
      label,
      bytes: Buffer.byteLength(text, 'utf8'),
      ...(tokens === undefined ? {} : { tokens }),
      // A pointer holds none of its messages by design: it is not shortened.
      truncated: reference.agent !== true && stats?.truncated === true,
    }
  }

  /** Attaches a message's sources: the first {@link maxReferences} in text order, each that can be read and fits the budget; the rest are reported. */
  async attach(target: ReferenceTarget, message: { readonly content: ContentBlock[]; readonly references: readonly CitedSource[] }, signal?: AbortSignal): Promise<Attachment> {
    const { content, references } = message
    const limit = this.maxReferences
    const failures = pastTheLimit(references, limit)
    let candidates = references.slice(0, limit)
    if (candidates.length === 0) return { attached: [], failures }
    try {
      return { prepared: { content, additionalContext: attachable(await this.snapshotOf(target, candidates, signal)) }, attached: candidates, failures }
    } catch (error) {
      if (signal?.aborted === true || isCancellation(error)) throw error
    }
    // One source failed the whole set: measure each (reads are cached) and prepare the ones that pass.
    const measured = await Promise.all(candidates.map(reference => this.measure(target, reference, signal)))
    for (const { failure } of measured) if (failure !== undefined) failures.push(failure)
    candidates = candidates.filter((_, n) => measured[n]!.failure === undefined)
    if (candidates.length === 0) return { attached: [], failures }
    try {
      return { prepared: { content, additionalContext: attachable(await this.snapshotOf(target, candidates, signal)) }, attached: candidates, failures }
    } catch (error) {
      signal?.throwIfAborted()
      for (const reference of candidates) failures.push(failureOf(error, reference))
      return { attached: [], failures }
    }
  }

  /** The one snapshot message of these sources, prepared once while none of them changed; shared, so no one caller's cancellation ends it. */
  private async snapshotOf(target: ReferenceTarget, references: readonly CitedSource[], signal?: AbortSignal): Promise<UserMessage> {
    if (references.some(reference => reference.agent === true)) return settleWithCancellation(this.withPointers(target, references), signal)
    const revisions = await Promise.all(references.map(reference => this.cache.revisionOf(reference.sessionId)))
    const key = revisions.every(revision => revision !== undefined)
      ? SnapshotCache.key(target.id, references.map((reference, n) => ({ reference, revision: revisions[n]! })))
      : undefined
    const kept = key === undefined ? undefined : this.snapshots.get(key)
    if (kept !== undefined) return settleWithCancellation(kept, signal)
    const preparing = this.service()
      .then(async service => {
        const { inputs, surfaces } = await this.narrow(references)
        const labels = new Map<string, string>()
        // The service prepares the first of several inputs of one session, under that input's label.
        for (const input of inputs) if (!labels.has(input.sessionId)) labels.set(input.sessionId, input.label ?? input.sessionId)
        const preparation: Preparation = { parts: surfaces, labels, maxBytes: referenceLimits(service).maxReferenceBytes, leftOut: new Map() }
        const prepared = await this.preparation.run(preparation, () => prepareFor(service, { citingId: target.id, references: inputs }))
        if (prepared.additionalContext === undefined) throw new SessionReferenceError('no snapshot was prepared', 'SESSION_REFERENCE_READ_FAILED')
        const whole = withLeftOutStats(prepared.additionalContext, preparation.leftOut)
        return surfaces.size === 0 ? whole : withMessageSeqs(whole, surfaces)
      })
    if (key !== undefined) this.snapshots.set(key, preparing)
    return settleWithCancellation(preparing, signal)
  }

  /** The snapshot of the sources that are not pointers, with each pointer's entry and statistics in its place among them. Throws SessionReferenceError (`SESSION_REFERENCE_READ_FAILED`) when a pointer's session cannot be read. */
  private async withPointers(target: ReferenceTarget, references: readonly CitedSource[]): Promise<UserMessage> {
    const snapshots = references.filter(reference => reference.agent !== true)
    const [official, facts, framing] = await Promise.all([
      snapshots.length === 0 ? undefined : this.snapshotOf(target, snapshots),
      Promise.all(references.map(async reference => {
        if (reference.agent !== true) return undefined
        try {
          if (this.pointers === undefined) throw new DshSessionsError('no pointer reader', 'unavailable')
          return await this.pointers.read(reference)
        } catch (error) {
          throw new SessionReferenceError(`failed to read referenced session: ${error instanceof Error ? error.message : String(error)}`, 'SESSION_REFERENCE_READ_FAILED', { cause: error })
        }
      })),
      this.framing.load(),
    ])
    const block = official?.content[0]
    const text = block?.type === 'text' ? block.text : undefined
    const entries = text === undefined ? [] : JSON.parse(text.slice(framing.before.length, text.length - framing.after.length)) as unknown[]
    const stats = official?.source.kind === 'session-reference' ? official.source.references : []
    let next = 0
    const merged = references.map((reference, n) => {
      const known = facts[n]
      if (known !== undefined) return { entry: pointerEntry(reference, known), stats: pointerStats(reference, known, n) }
      const at = next
      next += 1
      return { entry: entries[at], stats: { ...stats[at]!, inputIndex: n } }
    })
    return createUserMessage({
      source: { kind: 'session-reference', form: 'recall', version: 1, references: merged.map(one => one.stats) },
      content: framedContent(framing, merged.map(one => one.entry)),
    })
  }

  /** The official inputs of some sources: a part reference is read and narrowed to its messages here, and labelled with their numbers. Throws SessionReferenceError (`SESSION_REFERENCE_READ_FAILED`) when a cited message is gone or the source cannot be read. */
  private async narrow(references: readonly CitedSource[]): Promise<{ inputs: SessionReferenceInput[]; surfaces: Map<string, SessionSurfaceSnapshot> }> {
    const surfaces = new Map<string, SessionSurfaceSnapshot>()
    const inputs = await Promise.all(references.map(async (reference): Promise<SessionReferenceInput> => {
      if (reference.selection === undefined) return { sessionId: reference.sessionId, ...(reference.label === undefined ? {} : { label: reference.label }) }
      try {
        const { surface, numbers } = narrowSurface(await this.cache.readSurface(reference.sessionId), reference.selection)
        surfaces.set(reference.sessionId, surface)
        return { sessionId: reference.sessionId, label: reference.label ?? `${reference.title ?? reference.sessionId} · ${formatNumbers(numbers)}` }
      } catch (error) {
        throw new SessionReferenceError(`failed to read referenced session: ${error instanceof Error ? error.message : String(error)}`, 'SESSION_REFERENCE_READ_FAILED', { cause: error })
      }
    }))
    return { inputs, surfaces }
  }

  private service(): Promise<SessionReferenceResolver> {
    this.instance ??= (async () => {
      const readSurface = async (id: Parameters<SurfaceCache['readSurface']>[0]): Promise<SessionSurfaceSnapshot> => {
        const preparation = this.preparation.getStore()
        if (preparation === undefined) return this.cache.readSurface(id)
        const narrowed = preparation.parts.get(id)
        const read = narrowed === undefined ? await this.cache.readForSnapshot(id, preparation.maxBytes) : { surface: structuredClone(narrowed), leftOut: NOTHING_LEFT_OUT }
        const trimmed = trimSurface(read.surface, preparation.labels.get(id) ?? id, preparation.maxBytes)
        preparation.leftOut.set(id, bothLeftOut(read.leftOut, trimmed.leftOut))
        return trimmed.surface
      }
      this.isolated.provide('sessionQuery', { readSurface })
      const fiber = this.isolated.plugin(SessionReferenceResolver, referenceLimits(this.ctx.sessionReferenceResolver))
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
