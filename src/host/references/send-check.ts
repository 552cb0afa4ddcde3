/**
 * What sending a message does with the sessions it names, decided in one place for the preflight route
 * and the pre-step.
 * @module @wishp3/dsh-sessions/host/references/send-check
 */
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { PreparedReferencedMessage } from '@deepseek-ai/dsh-session-reference'
import type { Config } from '../../config.ts'
import type { PreflightResponse, SourceOutcome } from '../../shared/wire.ts'
import type { ReferenceTarget } from '../sessions/scope.ts'
import { type CitedSource, mergeSources } from './cited-source.ts'
import type { ScopedMentionResolver } from './mention-resolver.ts'
import { failureOf, pastTheLimit, type ReferenceFailure, refusal } from './reference-failure.ts'
import type { SnapshotPreparer } from './snapshot-preparer.ts'

/** Most sources one preflight answer lists; the count of the rest is given. */
const MAX_LISTED_SOURCES = 32

/** One sent message, checked. */
export interface MessageCheck {
  /** The message's content with readable text. */
  readonly content: ContentBlock[]
  /** Whether any text differs from what was sent. */
  readonly changed: boolean
  /** The readable content and the one snapshot of every attached source; absent when none is attached. */
  readonly prepared?: PreparedReferencedMessage
  /** Every source that will not be attached, once each. */
  readonly failures: readonly ReferenceFailure[]
  /** Bare ids that named no session the scope shows and stay text (see `ResolvedText.idsAsText`), summed over the text blocks. */
  readonly idsAsText: number
  /** The attached chips' sources the text names too (a bare id or a typed title), each sent once in its chip's form. */
  readonly sameSource: readonly CitedSource[]
}

/** What the send check uses. */
export interface SendCheckDependencies {
  readonly resolver: ScopedMentionResolver
  readonly preparer: SnapshotPreparer
}

/** The send check. */
export class SendCheck {
  private readonly deps: SendCheckDependencies

  constructor(deps: SendCheckDependencies) {
    this.deps = deps
  }

  /** Checks a whole draft of `target` once. `chips`: the session ids the draft holds as chips; without it, every reference counts as a chip. `signal`: ends the check when the caller leaves. */
  async preflight(draft: { readonly target: ReferenceTarget; readonly text: string; readonly chips?: readonly string[] | undefined }, config: Config, signal: AbortSignal): Promise<PreflightResponse> {
    const { target, text, chips } = draft
    const { resolver, preparer } = this.deps
    const resolved = await resolver.resolveText(target, text, config)
    const isChip = (sessionId: string | undefined) => chips === undefined || (sessionId !== undefined && chips.includes(sessionId))
    const limit = preparer.maxReferences
    const measured = await Promise.all(resolved.references.slice(0, limit).map(reference => preparer.measure(target, reference, signal)))
    const failed = (failure: ReferenceFailure, chip: boolean): SourceOutcome => ({
      ...(failure.sessionId === undefined ? {} : { sessionId: failure.sessionId }),
      label: failure.label ?? failure.sessionId ?? '',
      chip,
      ok: false,
      code: failure.code,
      message: failure.message,
    })
    const past = pastTheLimit(resolved.references, limit)
    const sources: SourceOutcome[] = resolved.references.map((reference, n) => {
      const chip = isChip(reference.sessionId)
      const measure = measured[n]
      if (measure === undefined) return failed(past[n - limit]!, chip)
      if (measure.failure !== undefined) return failed(measure.failure, chip)
      const base = { sessionId: reference.sessionId, label: measure.label, chip, ...(reference.alsoInText === true ? { alsoInText: true } : {}) }
      return { ...base, ok: true, ...(measure.bytes === undefined ? {} : { bytes: measure.bytes }), ...(measure.tokens === undefined ? {} : { tokens: measure.tokens }), truncated: measure.truncated === true }
    })
    for (const failure of resolved.failures) sources.push(failed(failure, isChip(failure.sessionId)))
    const named = new Set(sources.flatMap(source => (source.sessionId === undefined ? [] : [source.sessionId])))
    const listed = sources.length <= MAX_LISTED_SOURCES
      ? { sources }
      : { sources: sources.slice(0, MAX_LISTED_SOURCES), omitted: sources.length - MAX_LISTED_SOURCES }
    if (named.size > limit) {
      const { code, message } = refusal('too-many', { limit })
      return { ok: false, code, message, ...listed }
    }
    const blocking = sources.find(source => !source.ok && (source.chip || config.failureMode === 'reject'))
    if (blocking !== undefined) {
      const about = { ...(blocking.sessionId === undefined ? {} : { sessionId: blocking.sessionId }), label: blocking.label }
      return { ok: false, code: blocking.code ?? 'unavailable', message: blocking.message ?? refusal('unavailable', {}).message, ...about, ...listed }
    }
    await preparer.attach(target, { content: [{ type: 'text', text: resolved.text }], references: resolved.references }, signal).catch(() => {})
    return { ok: true, text: resolved.text, references: resolved.references.slice(0, limit), ...listed }
  }

  /** Resolves one sent message's text blocks and attaches every source that can be attached; when a reference fails and `failureMode` is `reject`, nothing is attached. `signal`: cancellation of the step; a cancelled attachment throws. */
  async message(sent: { readonly target: ReferenceTarget; readonly content: readonly ContentBlock[] }, config: Config, signal?: AbortSignal): Promise<MessageCheck> {
    const { target, content } = sent
    const cited: CitedSource[] = []
    const failures: ReferenceFailure[] = []
    const failedIds = new Set<string>()
    let changed = false
    let idsAsText = 0
    const readable: ContentBlock[] = []
    for (const block of content) {
      if (block.type !== 'text') {
        readable.push(block)
        continue
      }
      const resolved = await this.deps.resolver.resolveText(target, block.text, config)
      changed ||= resolved.text !== block.text
      readable.push({ ...block, text: resolved.text })
      for (const failure of resolved.failures) {
        if (failure.sessionId !== undefined && failedIds.has(failure.sessionId)) continue
        if (failure.sessionId !== undefined) failedIds.add(failure.sessionId)
        failures.push(failure)
      }
      cited.push(...resolved.references)
      idsAsText += resolved.idsAsText
    }
    const references = mergeSources(cited)
    // Told only of the sources that are attached: a failed one is reported as failed.
    const sameSource = (failed: readonly ReferenceFailure[]): CitedSource[] => references.filter(reference => reference.alsoInText === true && !failed.some(failure => failure.sessionId === reference.sessionId))
    if (references.length === 0 || (failures.length > 0 && config.failureMode === 'reject')) return { content: readable, changed, failures, idsAsText, sameSource: [] }
    try {
      const attachment = await this.deps.preparer.attach(target, { content: readable, references: references }, signal)
      return {
        content: readable,
        changed,
        ...(attachment.prepared === undefined ? {} : { prepared: attachment.prepared }),
        failures: [...failures, ...attachment.failures],
        idsAsText,
        sameSource: sameSource([...failures, ...attachment.failures]),
      }
    } catch (error) {
      return { content: readable, changed, failures: [...failures, ...references.map(reference => failureOf(error, reference))], idsAsText, sameSource: [] }
    }
  }
}
