/**
 * The sentence a person reads for each preflight failure code.
 * @module @wishp3/dsh-sessions/client/mention/failure
 */
import type { SendCheckCode } from '../../shared/wire.ts'
import type { SessionsKey } from '../locales.ts'

/** Every send-check code has its sentence: a code added to the wire without one fails to compile here. */
const KEYS: Readonly<Record<SendCheckCode, SessionsKey>> = {
  'out-of-scope': 'error.outOfScope',
  'self-reference': 'error.self',
  'too-many': 'error.tooMany',
  'not-found': 'error.notFound',
  'too-large': 'error.tooLarge',
  'invalid-reference': 'error.invalid',
  'cancelled': 'error.cancelled',
  'unavailable': 'error.unavailable',
  'agent-cannot-read': 'error.agentCannotRead',
}

/** The locale key for a send-check code; `{label}` in the text names the chip. `code`: a code from the host, or none when the host gave no answer. */
export function failureKey(code: SendCheckCode | undefined): SessionsKey {
  return code !== undefined && Object.hasOwn(KEYS, code) ? KEYS[code] : 'error.unavailable'
}
