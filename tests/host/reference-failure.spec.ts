/** The reference failure tables: every official code has its meaning, every code its sentence, and failures keep the official words. */
import { SessionReferenceError, type SessionReferenceErrorCode } from '@deepseek-ai/dsh-session-reference'
import { describe, expect, it } from 'vitest'
import { codeOf, failureOf, outcomeReference, pastTheLimit, refusal } from '../../src/host/references/reference-failure.ts'
import type { SendCheckCode } from '../../src/shared/wire.ts'

const OFFICIAL: Record<SessionReferenceErrorCode, SendCheckCode> = {
  SESSION_REFERENCE_INVALID_CONFIG: 'unavailable',
  SESSION_REFERENCE_INVALID_REFERENCE: 'invalid-reference',
  SESSION_REFERENCE_SELF_REFERENCE: 'self-reference',
  SESSION_REFERENCE_TOO_MANY: 'too-many',
  SESSION_REFERENCE_READ_FAILED: 'not-found',
  SESSION_REFERENCE_BUDGET_EXCEEDED: 'too-large',
  SESSION_REFERENCE_CANCELLED: 'cancelled',
}

describe('the reference failure', () => {
  it.each(Object.entries(OFFICIAL))('reads the official %s as %s, keeping the official words', (official, code) => {
    const error = new SessionReferenceError('the official words', official as SessionReferenceErrorCode)
    expect(codeOf(error, 'unavailable')).toBe(code)
    expect(failureOf(error, { sessionId: 's' as never })).toEqual({ code, message: 'the official words', sessionId: 's', label: 's' })
  })

  it('reads any other thrown value with the fallback code', () => {
    expect(failureOf(new Error('disk'), undefined)).toEqual({ code: 'not-found', message: 'disk' })
    expect(failureOf('text', undefined, 'unavailable')).toEqual({ code: 'unavailable', message: 'text' })
  })

  it('gives every code a sentence naming what it concerns', () => {
    const codes: SendCheckCode[] = ['out-of-scope', 'self-reference', 'too-many', 'not-found', 'too-large', 'invalid-reference', 'cancelled', 'unavailable']
    for (const code of codes) expect(refusal(code, { sessionId: 'session-x', limit: 3, uri: 'dsh-session:bad' }).message.length, code).toBeGreaterThan(10)
    expect(refusal('out-of-scope', { sessionId: 'session-x', label: 'Kiwi' })).toEqual({ code: 'out-of-scope', message: 'the current workspace has no session "session-x"', sessionId: 'session-x', label: 'Kiwi' })
    expect(refusal('too-many', { limit: 3 }).message).toBe('a message may reference at most 3 sessions')
  })

  it('reports each source past the limit, and an outcome always has a label', () => {
    const references = ['a', 'b', 'c', 'd'].map(id => ({ sessionId: id as never, label: id.toUpperCase() }))
    expect(pastTheLimit(references, 3)).toEqual([{ code: 'too-many', message: 'a message may reference at most 3 sessions', sessionId: 'd', label: 'D' }])
    expect(outcomeReference({ code: 'not-found', message: 'm', sessionId: 'session-x' })).toEqual({ sessionId: 'session-x', label: 'session-x', code: 'not-found', message: 'm' })
    expect(outcomeReference({ code: 'invalid-reference', message: 'm' })).toEqual({ label: '', code: 'invalid-reference', message: 'm' })
  })
})
