/**
 * Why a source is not attached, in one closed vocabulary: each failure carries one code of the {@link
 * SendCheckCode} set.
 * @module @wishp3/dsh-sessions/host/references/reference-failure
 */
import { SessionReferenceError, type SessionReferenceErrorCode, type SessionReferenceInput } from '@deepseek-ai/dsh-session-reference'
import type { OutcomeReference, SendCheckCode } from '../../shared/wire.ts'
import { messageOf } from '../errors.ts'

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
export interface About {
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
  'agent-cannot-read': ({ sessionId }) => `session "${sessionId}" is for the agent to read, but the session tools are off`,
}

/** A failure of a source this plugin refuses, with the code's sentence. `about`: the session, its name and what the sentence names. */
export function refusal(code: SendCheckCode, about: About): ReferenceFailure {
  return {
    code,
    message: SENTENCES[code](about),
    ...(about.sessionId === undefined ? {} : { sessionId: about.sessionId }),
    ...(about.label === undefined ? {} : { label: about.label }),
  }
}

/** The code of a thrown value. `fallback`: the code when it is not an official session-reference error. */
export function codeOf(error: unknown, fallback: SendCheckCode): SendCheckCode {
  return error instanceof SessionReferenceError ? FROM_OFFICIAL[error.code] : fallback
}

/** The failure of a source whose preparation threw; the official service's own words are kept, they name the cause. `fallback`: the code when it is not an official session-reference error. */
export function failureOf(error: unknown, reference: SessionReferenceInput | undefined, fallback: SendCheckCode = 'not-found'): ReferenceFailure {
  return {
    code: codeOf(error, fallback),
    message: messageOf(error),
    ...(reference === undefined ? {} : { sessionId: reference.sessionId, label: reference.label ?? reference.sessionId }),
  }
}

/** The failures of the sources past the limit. */
export function pastTheLimit(references: readonly SessionReferenceInput[], limit: number): ReferenceFailure[] {
  return references.slice(limit).map(reference => refusal('too-many', { sessionId: reference.sessionId, label: reference.label ?? reference.sessionId, limit }))
}

/** A failure as the browser reads it in the session's outcomes. */
export function outcomeReference(failure: ReferenceFailure): OutcomeReference {
  return {
    ...(failure.sessionId === undefined ? {} : { sessionId: failure.sessionId }),
    label: failure.label ?? failure.sessionId ?? '',
    code: failure.code,
    message: failure.message,
  }
}
