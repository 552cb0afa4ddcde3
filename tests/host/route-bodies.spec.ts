/** Each route's body as its schema reads it: typed values in, unknown fields dropped, and every wrong field refused naming it and what it must be. */
import { describe, expect, it } from 'vitest'
import { parseBody } from '../../src/host/http/route-bodies.ts'
import { DshSessionsError } from '../../src/host/errors.ts'
import type { Route } from '../../src/shared/wire.ts'

/** The refusal a body gets, as `code: message`, or its parsed value. */
function read(route: Route, body: Record<string, unknown>): unknown {
  try {
    return parseBody(route, body)
  } catch (error) {
    if (!(error instanceof DshSessionsError)) throw error
    return `${error.code}: ${error.message}`
  }
}

describe('route bodies', () => {
  it('gives the typed request, without fields the route does not declare', () => {
    expect(read('candidates', { citingSessionId: 's', query: 'q', limit: 3, extra: true })).toEqual({ citingSessionId: 's', query: 'q', limit: 3 })
    expect(read('preflight', { citingSessionId: 's', text: 'hi' })).toEqual({ citingSessionId: 's', text: 'hi' })
    expect(read('since', { sources: [{ sessionId: 'a', capturedThroughSeq: null }, { sessionId: 'b', capturedThroughSeq: 4 }] })).toEqual({ sources: [{ sessionId: 'a', capturedThroughSeq: null }, { sessionId: 'b', capturedThroughSeq: 4 }] })
    expect(read('message-reference', { sourceId: 's', seq: 0, messageId: 'm' })).toEqual({ sourceId: 's', seq: 0 })
    expect(read('message-reference', { sourceId: 's', messageId: 'm' })).toEqual({ sourceId: 's', messageId: 'm' })
  })

  it.each([
    ['candidates', {}, '"citingSessionId" must be a non-empty string'],
    ['candidates', { citingSessionId: '' }, '"citingSessionId" must be a non-empty string'],
    ['candidates', { citingSessionId: 7 }, '"citingSessionId" must be a non-empty string'],
    ['candidates', { citingSessionId: 's', query: null }, '"query" must be a string'],
    ['candidates', { citingSessionId: 's', limit: 0 }, '"limit" must be a whole number ≥ 1'],
    ['candidates', { citingSessionId: 's', limit: 2.5 }, '"limit" must be a whole number ≥ 1'],
    ['candidates', { citingSessionId: 's', limit: 1e308 }, '"limit" must be a whole number ≥ 1'],
    ['preflight', { citingSessionId: 's', text: 'x', chips: Array.from({ length: 65 }, () => 'a') }, '"chips" must be a list of at most 64 session ids'],
    ['preflight', { citingSessionId: 's', text: 'x', chips: [1] }, '"chips" must be a list of at most 64 session ids'],
    ['outcomes', { citingSessionId: 's', waitMs: -1 }, '"waitMs" must be a number ≥ 0'],
    ['search', { query: 'q', limit: 201 }, '"limit" must be a whole number from 1 to 200'],
    ['titles', { ids: 'a' }, '"ids" must be a list of at most 1000 session ids'],
    ['message-reference', { sourceId: 's' }, '"messageId" must be a non-empty string when "seq" is absent'],
    ['message-reference', { sourceId: 's', seq: -1 }, '"seq" must be a whole number ≥ 0'],
    ['since', { sources: [{ sessionId: 'a' }] }, '"sources" must be a list of at most 32 { sessionId, capturedThroughSeq }'],
    ['find', { sessionId: 's', query: 'x'.repeat(257) }, '"query" must be a string of at most 256 characters'],
    ['related', { citingSessionId: 's', text: 'x', except: 'a' }, '"except" must be a list of at most 64 session ids'],
  ] as const)('refuses %s %j: %s', (route, body, message) => {
    expect(read(route, body)).toBe(`bad-request: ${message}`)
  })
})
