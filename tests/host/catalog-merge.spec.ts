/**
 * The session catalog merges a large listing a slice at a time: the host's
 * event loop turns between slices while 20,000 listed sessions are merged
 * (in the real host each title is looked up in the host's projection cache,
 * tens of microseconds each), so its own requests are not held up behind
 * the merge.
 */
import { describe, expect, it } from 'vitest'
import { MERGED_PER_TURN } from '../../src/host/sessions/catalog-listing.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { A, createHostHarness, id } from './harness.ts'

describe('the session catalog\'s merge of a listing', () => {
  it('lets the event loop turn between slices while it merges 20,000 sessions', { timeout: 60_000 }, async () => {
    const h = await createHostHarness()
    const count = 20_000
    for (let n = 0; n < count; n += 1) h.faults.cold.set(id(n + 10), { cwd: A, createdAt: n + 10 })
    const catalog = new SessionCatalog(h.ctx)
    let turns = 0
    let merging = true
    const turn = () => {
      turns += 1
      if (merging) setImmediate(turn)
    }
    setImmediate(turn)
    await catalog.ready()
    merging = false
    expect(catalog.list()).toHaveLength(count)
    expect(turns).toBeGreaterThanOrEqual(Math.floor(count / MERGED_PER_TURN))
  })
})
