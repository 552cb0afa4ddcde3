/** The snapshot cache: one preparation per citing session and sources with their revisions, shared while kept, forgotten when it fails. */
import { createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SnapshotCache } from '../../src/host/references/snapshot-cache.ts'

afterEach(() => { vi.useRealTimers() })

const source = (id: string, revision: string, label?: string) => ({ reference: { sessionId: SessionId(id), ...(label === undefined ? {} : { label }) }, revision })
const message = (): UserMessage => createUserMessage({ content: [{ type: 'text', text: 'snapshot' }], source: { kind: 'user' } })

describe('the snapshot cache', () => {
  it('keys by the citing session, each source, its label and its revision, in order', () => {
    const key = SnapshotCache.key('t', [source('a', '1:1'), source('b', 'live:3', 'B')])
    expect(SnapshotCache.key('t', [source('a', '1:1'), source('b', 'live:3', 'B')])).toBe(key)
    for (const other of [
      SnapshotCache.key('u', [source('a', '1:1'), source('b', 'live:3', 'B')]),
      SnapshotCache.key('t', [source('a', '1:2'), source('b', 'live:3', 'B')]),
      SnapshotCache.key('t', [source('a', '1:1'), source('b', 'live:3')]),
      SnapshotCache.key('t', [source('b', 'live:3', 'B'), source('a', '1:1')]),
    ]) expect(other).not.toBe(key)
  })

  it('serves a kept preparation for a minute and forgets a failed one', async () => {
    vi.useFakeTimers()
    const cache = new SnapshotCache()
    const kept = Promise.resolve(message())
    cache.set('k', kept)
    expect(cache.get('k')).toBe(kept)
    vi.advanceTimersByTime(60_001)
    expect(cache.get('k')).toBeUndefined()
    const failing = Promise.reject(new Error('gone'))
    cache.set('f', failing)
    await failing.catch(() => undefined)
    await Promise.resolve()
    expect(cache.get('f')).toBeUndefined()
  })

  it('keeps at most 32 preparations, dropping the oldest', () => {
    const cache = new SnapshotCache()
    for (let n = 0; n < 33; n += 1) cache.set(`k${n}`, Promise.resolve(message()))
    expect(cache.get('k0')).toBeUndefined()
    expect(cache.get('k1')).toBeDefined()
    expect(cache.get('k32')).toBeDefined()
  })
})
