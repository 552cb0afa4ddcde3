/**
 * The sentence a person reads for each preflight failure code.
 * @module @wishp3/dsh-sessions/client/mention/failure
 */
import type { SessionsKey } from '../locales.ts'

const KEYS: Record<string, SessionsKey> = {
  DSH_SESSIONS_OUT_OF_SCOPE: 'error.outOfScope',
  SESSION_REFERENCE_SELF_REFERENCE: 'error.self',
  SESSION_REFERENCE_TOO_MANY: 'error.tooMany',
  SESSION_REFERENCE_READ_FAILED: 'error.notFound',
  SESSION_REFERENCE_BUDGET_EXCEEDED: 'error.tooLarge',
  SESSION_REFERENCE_INVALID_REFERENCE: 'error.invalid',
  SESSION_REFERENCE_CANCELLED: 'error.cancelled',
}

/**
 * The locale key for a failure code; `{label}` in the text names the chip.
 * @param code - a preflight failure code.
 * @returns the key of its sentence.
 */
export function failureKey(code: string): SessionsKey {
  return KEYS[code] ?? 'error.unavailable'
}
