/**
 * What sending a message does with the sessions it names, decided in one
 * place for the preflight route and the pre-step. Each source that will not
 * be attached carries one code of the closed {@link SendCheckCode} set; the
 * official service's codes map onto it in one table, and each code has its
 * host sentence in one table (the browser has its own, localized, per code).
 *
 * - {@link SendCheck.preflight} checks a whole draft once: every session it
 *   names, attached or not, with what each adds to the context, and whether
 *   the send is blocked (more sessions named than a message may reference,
 *   a chip's source that cannot be attached, or, under `failureMode:
 *   reject`, any reference that cannot be). It then prepares the snapshot
 *   the step will attach, so the step finds it ready while no source changes.
 * - {@link SendCheck.message} resolves one sent message and attaches every
 *   source that can be attached; the pre-step decides what the failures do.
 * @module @wishp3/dsh-sessions/host/references/send-check
 */
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import {
  type PreparedReferencedMessage, SessionReferenceError, type SessionReferenceErrorCode, type SessionReferenceInput,
} from '@deepseek-ai/dsh-session-reference'
import type { Config } from '../../config.ts'
import type { OutcomeReference, PreflightResponse, SendCheckCode, SourceOutcome } from '../../shared/wire.ts'
import { messageOf } from '../errors.ts'
import type { ReferenceTarget } from '../sessions/scope.ts'
import { type CitedSource, mergeSources } from './cited-source.ts'
import type { ScopedMentionResolver } from './mention-resolver.ts'
import type { SnapshotPreparer } from './snapshot-preparer.ts'

export type { SendCheckCode } from '../../shared/wire.ts'

/** Why one source is not attached. */
export interface ReferenceFailure {
  readonly code: SendCheckCode
  readonly message: string
  /** The session the failing reference names, when known. */
  readonly sessionId?: string
  /** How the message names that session (title or id), when known. */
  readonly label?: string
}

/** What each official service code means for a send. */
const FROM_OFFICIAL: Readonly<Record<SessionReferenceErrorCode, SendCheckCode>> = {
  SESSION_REFERENCE_INVALID_CONFIG: 'unavailable',
  SESSION_REFERENCE_INVALID_REFERENCE: 'invalid-reference',
  SESSION_REFERENCE_SELF_REFERENCE: 'self-reference',
  SESSION_REFERENCE_TOO_MANY: 'too-many',
  SESSION_REFERENCE_READ_FAILED: 'not-found',
  SESSION_REFERENCE_BUDGET_EXCEEDED: 'too-large',
  SESSION_REFERENCE_CANCELLED: 'cancelled',
}

/** What a sentence may name. */
interface About {
  readonly sessionId?: string
  readonly label?: string
  /** The limit of sources per message. */
  readonly limit?: number
  /** A malformed reference as written. */
  readonly uri?: string
}

/** The host's sentence for each code, logged and sent beside the code. */
const SENTENCES: Readonly<Record<SendCheckCode, (about: About) => string>> = {
  'out-of-scope': ({ sessionId }) => `the current workspace has no session "${sessionId}"`,
  'self-reference': () => 'a session cannot reference itself',
  'too-many': ({ limit }) => `a message may reference at most ${limit} sessions`,
  'not-found': ({ sessionId }) => `session "${sessionId}" not found`,
  'too-large': () => 'the session snapshot cannot fit the byte budget',
  'invalid-reference': ({ uri }) => `invalid session reference ${uri}`,
  'cancelled': () => 'preparing the reference was cancelled',
  'unavailable': () => 'the session snapshot could not be prepared',
}

/** Most sources one preflight answer lists; the count of the rest is given. */
const MAX_LISTED_SOURCES = 32

/**
 * A failure of a source this plugin refuses, with the code's sentence.
 * @param code - why.
 * @param about - the session, its name and what the sentence names.
 * @returns the failure.
 */
export function refusal(code: SendCheckCode, about: About): ReferenceFailure {
  return {
    code,
    message: SENTENCES[code](about),
    ...(about.sessionId === undefined ? {} : { sessionId: about.sessionId }),
    ...(about.label === undefined ? {} : { label: about.label }),
  }
}

/**
 * The code of a thrown value.
 * @param error - what was thrown.
 * @param fallback - the code when it is not an official session-reference error.
 * @returns the code.
 */
export function codeOf(error: unknown, fallback: SendCheckCode): SendCheckCode {
  return error instanceof SessionReferenceError ? FROM_OFFICIAL[error.code] : fallback
}

/**
 * The failure of a source whose preparation threw; the official service's own words are kept, they name the cause.
 * @param error - what was thrown.
 * @param reference - the source, when one is concerned.
 * @param fallback - the code when it is not an official session-reference error.
 * @returns the failure.
 */
export function failureOf(error: unknown, reference: SessionReferenceInput | undefined, fallback: SendCheckCode = 'not-found'): ReferenceFailure {
  return {
    code: codeOf(error, fallback),
    message: messageOf(error),
    ...(reference === undefined ? {} : { sessionId: reference.sessionId, label: reference.label ?? reference.sessionId }),
  }
}

/**
 * The failures of the sources past the limit.
 * @param references - the sources in text order.
 * @param limit - the limit of sources per message.
 * @returns one `too-many` failure per source past it.
 */
export function pastTheLimit(references: readonly SessionReferenceInput[], limit: number): ReferenceFailure[] {
  return references.slice(limit).map(reference => refusal('too-many', { sessionId: reference.sessionId, label: reference.label ?? reference.sessionId, limit }))
}

/**
 * A failure as the browser reads it in the session's outcomes.
 * @param failure - the failure.
 * @returns its outcome reference.
 */
export function outcomeReference(failure: ReferenceFailure): OutcomeReference {
  return {
    ...(failure.sessionId === undefined ? {} : { sessionId: failure.sessionId }),
    label: failure.label ?? failure.sessionId ?? '',
    code: failure.code,
    message: failure.message,
  }
}

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

  /**
   * Checks a whole draft once. Without `chips`, every reference counts as a chip.
   * @param target - the citing session.
   * @param text - the draft.
   * @param chips - the session ids the draft holds as chips.
   * @param config - the effective configuration.
   * @param signal - ends the check when the caller leaves.
   * @returns the preflight answer.
   */
  async preflight(target: ReferenceTarget, text: string, chips: readonly string[] | undefined, config: Config, signal: AbortSignal): Promise<PreflightResponse> {
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
      const base = { sessionId: reference.sessionId, label: measure.label, chip }
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
      return { ok: false, code: blocking.code ?? 'unavailable', message: blocking.message ?? SENTENCES.unavailable({}), ...about, ...listed }
    }
    await preparer.attach(target, [{ type: 'text', text: resolved.text }], resolved.references, signal).catch(() => {})
    return { ok: true, text: resolved.text, references: resolved.references.slice(0, limit), ...listed }
  }

  /**
   * Resolves one sent message's text blocks and attaches every source that
   * can be attached; when a reference fails and `failureMode` is `reject`,
   * nothing is attached.
   * @param target - the citing session.
   * @param content - the message's content as sent.
   * @param config - the effective configuration.
   * @param signal - cancellation of the step; a cancelled attachment throws.
   * @returns the readable content, the prepared snapshot and the failures.
   */
  async message(target: ReferenceTarget, content: readonly ContentBlock[], config: Config, signal?: AbortSignal): Promise<MessageCheck> {
    const cited: CitedSource[] = []
    const failures: ReferenceFailure[] = []
    const failedIds = new Set<string>()
    let changed = false
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
    }
    const references = mergeSources(cited)
    if (references.length === 0 || (failures.length > 0 && config.failureMode === 'reject')) return { content: readable, changed, failures }
    try {
      const attachment = await this.deps.preparer.attach(target, readable, references, signal)
      return {
        content: readable,
        changed,
        ...(attachment.prepared === undefined ? {} : { prepared: attachment.prepared }),
        failures: [...failures, ...attachment.failures],
      }
    } catch (error) {
      return { content: readable, changed, failures: [...failures, ...references.map(reference => failureOf(error, reference))] }
    }
  }
}
