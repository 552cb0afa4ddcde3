/**
 * The one error type of the host half and its search worker, each with a code a route answers with its HTTP status.
 * @module @wishp3/dsh-sessions/host/errors
 */
import type { DshSessionsErrorCode } from '../shared/wire.ts'

export type { DshSessionsErrorCode } from '../shared/wire.ts'

export class DshSessionsError extends Error {
  override readonly name = 'DshSessionsError'
  readonly code: DshSessionsErrorCode

  /** @param message - what went wrong, naming the offending key or value. */
  constructor(message: string, code: DshSessionsErrorCode, options?: ErrorOptions) {
    super(message, options)
    this.code = code
  }
}

/** The message of a thrown value. Returns its message, or its text when it is not an `Error`. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
