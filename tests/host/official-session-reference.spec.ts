/**
 * The reach into the official session-reference service, checked against
 * the installed service: its private limits are read as configured, its
 * `prepare` needs nothing of the citing agent but the id, and the
 * cancellation this plugin restates rejects exactly as the official one.
 */
import { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import SessionReferenceResolver, { DEFAULT_MAX_REFERENCE_BYTES, MAX_REFERENCES, SessionReferenceError } from '@deepseek-ai/dsh-session-reference'
import { describe, expect, it } from 'vitest'
import { prepareFor, referenceLimits, settleWithCancellation } from '../../src/host/official/session-reference.ts'
import { afterTest, id } from './harness.ts'

/** An official instance whose every read waits for `surface` (or forever). */
async function official(config: object, surface?: (id: SessionId) => Promise<SessionSurfaceSnapshot>): Promise<SessionReferenceResolver> {
  const ctx = new Context()
  ctx.provide('sessionQuery', { readSurface: surface ?? (() => new Promise<never>(() => {})) })
  const fiber = ctx.plugin(SessionReferenceResolver, config)
  afterTest(() => fiber.dispose())
  await fiber
  return ctx.sessionReferenceResolver
}

describe('the official service, as this plugin reaches it', () => {
  it('tells the limits it was configured with, and the official defaults otherwise', async () => {
    expect(referenceLimits(await official({ maxReferences: 2, maxReferenceBytes: 1234 }))).toEqual({ maxReferences: 2, maxReferenceBytes: 1234 })
    expect(referenceLimits(await official({}))).toEqual({ maxReferences: MAX_REFERENCES, maxReferenceBytes: DEFAULT_MAX_REFERENCE_BYTES })
  })

  it('prepares for a citing session by id, reading nothing else of the agent', async () => {
    const service = await official({}, () => Promise.reject(new Error('no such session')))
    const touched: PropertyKey[] = []
    const agent = new Proxy({ id: id(1) }, { get: (target, key) => { touched.push(key); return Reflect.get(target, key) } }) as unknown as Agent
    await expect(service.prepare(agent, [], [{ sessionId: SessionId(id(1)) }])).rejects.toMatchObject({ code: 'SESSION_REFERENCE_SELF_REFERENCE' })
    await expect(service.prepare(agent, [], [{ sessionId: SessionId(id(2)) }])).rejects.toMatchObject({ code: 'SESSION_REFERENCE_READ_FAILED' })
    expect(new Set(touched.filter(key => typeof key === 'string'))).toEqual(new Set(['id']))
    await expect(prepareFor(service, { citingId: id(1), references: [{ sessionId: SessionId(id(1)) }] })).rejects.toMatchObject({ code: 'SESSION_REFERENCE_SELF_REFERENCE' })
  })

  it('cancels a caller\'s wait with the same error the official service rejects with', async () => {
    const service = await official({})
    const reason = new Error('the caller left')
    const officialAbort = new AbortController()
    const officialWait = prepareFor(service, { citingId: id(1), references: [{ sessionId: SessionId(id(2)) }] }, officialAbort.signal)
    officialAbort.abort(reason)
    const theirs = await officialWait.catch((error: unknown) => error)
    const oursAbort = new AbortController()
    const shared = new Promise<never>(() => {})
    const oursWait = settleWithCancellation(shared, oursAbort.signal)
    oursAbort.abort(reason)
    const ours = await oursWait.catch((error: unknown) => error)
    expect(theirs).toBeInstanceOf(SessionReferenceError)
    expect(ours).toBeInstanceOf(SessionReferenceError)
    for (const error of [theirs, ours] as SessionReferenceError[]) expect(error.cause).toBe(reason)
    expect({ message: (ours as Error).message, code: (ours as SessionReferenceError).code }).toEqual({ message: (theirs as Error).message, code: (theirs as SessionReferenceError).code })
  })

  it('passes the shared work\'s own outcome through when the caller stays', async () => {
    await expect(settleWithCancellation(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7)
    await expect(settleWithCancellation(Promise.reject('text'), new AbortController().signal)).rejects.toEqual(new Error('text'))
    const aborted = AbortSignal.abort()
    await expect(settleWithCancellation(Promise.resolve(1), aborted)).rejects.toMatchObject({ code: 'SESSION_REFERENCE_CANCELLED' })
  })
})
