/**
 * The one resolution preflight and the pre-step share (H2, H5): text in;
 * readable text, the in-scope references in text order, and the failures
 * out. Canonical mentions become `@label`; bare ids and `@Title` mentions
 * stay as written. The readable text never carries a parseable
 * `dsh-session:` URI, so the official pre-step listener has nothing left to
 * prepare or to fail on.
 * @module @wishp3/dsh-sessions/host/resolver
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { SessionId } from '@deepseek-ai/dsh-session'
import {
  decodeSessionReferenceUri, type PreparedReferencedMessage, type SessionReferenceErrorCode,
  type SessionReferenceInput, type SessionReferenceResolver, SessionReferenceError,
} from '@deepseek-ai/dsh-session-reference'
import type { Config } from '../config.ts'
import {
  applySpanEdits, defuseSessionUris, scanBareSessionIds, scanCanonicalMentions, scanTitleMentions, type Span, type SpanEdit, titleKey,
} from '../core/mentions.ts'
import { rankedInScope } from './candidates.ts'
import { isInScope, type ReferenceTarget } from './scope.ts'
import type { SessionIndex } from './session-index.ts'

/** Code of a reference that names a session outside the configured scope. */
export const OUT_OF_SCOPE = 'DSH_SESSIONS_OUT_OF_SCOPE'

/** Every code a reference failure carries. */
export type ReferenceFailureCode = SessionReferenceErrorCode | typeof OUT_OF_SCOPE

/** Why one reference was not resolved, or why preparing failed. */
export interface ReferenceFailure {
  readonly code: ReferenceFailureCode
  readonly message: string
  /** The session the failing reference names, when known. */
  readonly sessionId?: string
}

/** Result of resolving one text. */
export interface ResolvedText {
  /** Readable text: canonical mentions as `@label`, no parseable session URI. */
  readonly text: string
  /** Distinct in-scope references, in text order. */
  readonly references: readonly SessionReferenceInput[]
  readonly failures: readonly ReferenceFailure[]
}

interface Found {
  readonly at: number
  readonly reference: SessionReferenceInput
}

/** Resolves mentions against the session index and prepares snapshots through the official service. */
export class ReferenceResolver {
  private readonly index: SessionIndex
  private readonly service: SessionReferenceResolver

  constructor(index: SessionIndex, service: SessionReferenceResolver) {
    this.index = index
    this.service = service
  }

  /**
   * Resolves the mentions of one text.
   * @param target - the citing session.
   * @param text - the message text.
   * @param config - the effective configuration.
   * @returns readable text, references and failures.
   */
  async resolveText(target: ReferenceTarget, text: string, config: Config): Promise<ResolvedText> {
    const found: Found[] = []
    const failures: ReferenceFailure[] = []
    const edits: SpanEdit[] = []
    const canonical = scanCanonicalMentions(text)
    for (const mention of canonical) {
      let sessionId: string
      try {
        sessionId = decodeSessionReferenceUri(mention.uri)
      } catch (error) {
        failures.push({ code: codeOf(error, 'SESSION_REFERENCE_INVALID_REFERENCE'), message: `invalid session reference ${mention.uri}` })
        if (mention.label !== undefined) edits.push({ start: mention.start, end: mention.end, text: `@${mention.label}` })
        continue
      }
      const label = mention.label ?? sessionId
      edits.push({ start: mention.start, end: mention.end, text: `@${label}` })
      const failure = await this.check(target, sessionId, config)
      if (failure === undefined) found.push({ at: mention.start, reference: { sessionId: sessionId as SessionId, label } })
      else failures.push(failure)
    }

    const claimed: Span[] = [...canonical]
    // The in-scope title table is built only for a text that can hold an `@Title`.
    if (config.allowPlainTitleMentions && text.includes('@')) {
      const inScope = rankedInScope(this.index, target, config).filter(session => session.title !== undefined)
      const byTitle = new Map<string, typeof inScope>()
      for (const session of inScope) {
        const key = titleKey(session.title!)
        const named = byTitle.get(key)
        if (named === undefined) byTitle.set(key, [session])
        else named.push(session)
      }
      const titles = [...new Set(inScope.map(session => session.title!))]
      for (const mention of scanTitleMentions(text, titles, canonical)) {
        claimed.push(mention)
        const named = byTitle.get(titleKey(mention.title)) ?? []
        if (named.length !== 1) continue
        const [session] = named
        found.push({ at: mention.start, reference: { sessionId: session!.id as SessionId, label: session!.label } })
      }
    }

    if (config.allowBareSessionIds) {
      for (const bare of scanBareSessionIds(text, claimed)) {
        const session = await this.index.lookup(bare.id)
        if (session === undefined && bare.id !== target.id) continue
        const failure = await this.check(target, bare.id, config)
        if (failure === undefined) found.push({ at: bare.start, reference: { sessionId: bare.id as SessionId, label: session!.label } })
        else failures.push(failure)
      }
    }

    const references: SessionReferenceInput[] = []
    for (const { reference } of found.sort((a, b) => a.at - b.at)) {
      if (!references.some(known => known.sessionId === reference.sessionId)) references.push(reference)
    }
    return { text: defuseSessionUris(applySpanEdits(text, edits)), references, failures }
  }

  /**
   * Prepares the snapshot of a message's references with the official service.
   * @param target - the citing session.
   * @param content - the readable message content.
   * @param references - distinct in-scope references.
   * @param signal - cancellation of the step or request.
   * @returns the prepared content and snapshot message.
   * @throws {SessionReferenceError} on too many sources, a failed read, a budget failure or cancellation.
   */
  async prepare(
    target: ReferenceTarget,
    content: ContentBlock[],
    references: readonly SessionReferenceInput[],
    signal?: AbortSignal,
  ): Promise<PreparedReferencedMessage> {
    try {
      return await this.service.prepare({ id: target.id } as Agent, content, [...references], signal)
    } catch (error) {
      if (error instanceof SessionReferenceError && error.code === 'SESSION_REFERENCE_READ_FAILED') {
        await Promise.all(references.map(reference => this.index.refresh(reference.sessionId)))
      }
      throw error
    }
  }

  private async check(target: ReferenceTarget, sessionId: string, config: Config): Promise<ReferenceFailure | undefined> {
    if (sessionId === target.id) {
      return { code: 'SESSION_REFERENCE_SELF_REFERENCE', message: 'a session cannot reference itself', sessionId }
    }
    const session = await this.index.lookup(sessionId)
    if (session === undefined) {
      return { code: 'SESSION_REFERENCE_READ_FAILED', message: `session "${sessionId}" not found`, sessionId }
    }
    if (!isInScope(config.scope, target, session)) {
      return { code: OUT_OF_SCOPE, message: `session "${sessionId}" is outside the current workspace`, sessionId }
    }
    return undefined
  }
}

/**
 * The failure code of a thrown value.
 * @param error - what was thrown.
 * @param fallback - the code when it is not a session-reference error.
 * @returns the code.
 */
export function codeOf(error: unknown, fallback: ReferenceFailureCode): ReferenceFailureCode {
  return error instanceof SessionReferenceError ? error.code : fallback
}
