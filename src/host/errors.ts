/**
 * The one error type the host half throws: a readable message, a stable code
 * from a closed union, and the cause it wraps. Only the route layer turns a
 * code into an HTTP status.
 * @module @wishp3/dsh-sessions/host/errors
 */
import type { DshSessionsErrorCode } from '../shared/wire.ts'

export type { DshSessionsErrorCode } from '../shared/wire.ts'

/** A refused request or settings write. */
export class DshSessionsError extends Error {
  override readonly name = 'DshSessionsError'
  readonly code: DshSessionsErrorCode

  /** @param message - what went wrong, naming the offending key or value. */
  constructor(message: string, code: DshSessionsErrorCode, options?: ErrorOptions) {
    super(message, options)
    this.code = code
  }
}

/**
 * The message of a thrown value.
 * @returns its message, or its text when it is not an `Error`.
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
