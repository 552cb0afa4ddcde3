/**
 * Snapshots through the official session-reference service, read and
 * rendered once per send. A private instance of the official
 * `SessionReferenceResolver`, with the host instance's limits, reads through
 * the {@link SurfaceCache}; every rendering, budget and framing rule stays
 * the official one. It measures one source at a time (what a chip will add)
 * and prepares a message's sources together, attaching every source that can
 * be attached: a source that fails is left out on its own, and sources past
 * the limit are reported. Prepared snapshots are kept in the one
 * {@link SnapshotCache}, so a measure and the attachment that follows use the
 * same preparation while no source changed.
 * @module @wishp3/dsh-sessions/host/references/snapshot-preparer
 */
import { Context } from '@deepseek-ai/cordis'
import { type ContentBlock, createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import SessionReferenceResolver, {
  type PreparedReferencedMessage, SessionReferenceError, type SessionReferenceInput,
} from '@deepseek-ai/dsh-session-reference'
import type {} from '@deepseek-ai/dsh-token-meter'
import { prepareFor, referenceLimits, settleWithCancellation } from '../official/session-reference.ts'
import type { ReferenceTarget } from '../sessions/scope.ts'
import type { SessionIndex } from '../sessions/session-index.ts'
import { failureOf, pastTheLimit, type ReferenceFailure } from './send-check.ts'
import { SnapshotCache } from './snapshot-cache.ts'
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

/**
 * A kept snapshot as one send attaches it: the same content and source under
 * a message identity of its own, since a session's log must not hold one
 * message twice (two sends citing the same unchanged source would, and the
 * host then fails to load that session's history).
 */
function attachable(snapshot: UserMessage): UserMessage {
  return createUserMessage({ source: snapshot.source, content: snapshot.content })
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
    return referenceLimits(this.ctx.sessionReferenceResolver).maxReferences
  }

  /**
   * What one source will add to the context.
   * @param target - the citing session.
   * @param reference - the source.
   * @param signal - cancellation.
   * @returns its size, token estimate and truncation, or its failure.
   */
  async measure(target: ReferenceTarget, reference: SessionReferenceInput, signal?: AbortSignal): Promise<SourceMeasure> {
    const label = reference.label ?? reference.sessionId
    let message: UserMessage
    try {
      message = await this.snapshotOf(target, [reference], signal)
    } catch (error) {
      if (signal?.aborted === true || isCancellation(error)) throw error
      const failure = failureOf(error, reference)
      // A source that cannot be read may be gone: the index forgets it only if the host says so.
      if (failure.code === 'not-found') await this.index.refresh(reference.sessionId)
      return { sessionId: reference.sessionId, label, failure }
    }
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
  private async snapshotOf(target: ReferenceTarget, references: readonly SessionReferenceInput[], signal?: AbortSignal): Promise<UserMessage> {
    const revisions = await Promise.all(references.map(reference => this.cache.revisionOf(reference.sessionId)))
    const key = revisions.every(revision => revision !== undefined)
      ? SnapshotCache.key(target.id, references.map((reference, n) => ({ reference, revision: revisions[n]! })))
      : undefined
    const kept = key === undefined ? undefined : this.snapshots.get(key)
    if (kept !== undefined) return settleWithCancellation(kept, signal)
    const preparing = this.service()
      .then(service => prepareFor(service, target.id, [], [...references]))
      .then(prepared => {
        if (prepared.additionalContext === undefined) throw new SessionReferenceError('no snapshot was prepared', 'SESSION_REFERENCE_READ_FAILED')
        return prepared.additionalContext
      })
    if (key !== undefined) this.snapshots.set(key, preparing)
    return settleWithCancellation(preparing, signal)
  }

  private service(): Promise<SessionReferenceResolver> {
    this.instance ??= (async () => {
      this.isolated.provide('sessionQuery', { readSurface: (id: Parameters<SurfaceCache['readSurface']>[0]) => this.cache.readSurface(id) })
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
