/**
 * Why a reference was not attached: the official service's codes plus the
 * plugin's scope refusal, each with the session and name it concerns.
 * @module @wishp3/dsh-sessions/host/failures
 */
import { SessionReferenceError, type SessionReferenceErrorCode } from '@deepseek-ai/dsh-session-reference'

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
  /** How the message names that session (title or id), when known. */
  readonly label?: string
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
