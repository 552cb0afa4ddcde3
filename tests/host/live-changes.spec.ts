/** Live sessions' changes, gathered: once per session per delay. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LiveChanges } from '../../src/host/search/live-changes.ts'

afterEach(() => { vi.useRealTimers() })

describe('live changes', () => {
  it('handles a session once per delay however many events arrive, and nothing after stop', async () => {
    vi.useFakeTimers()
    const handled: string[] = []
    const live = new LiveChanges(250, id => handled.push(id))
    for (let n = 0; n < 10; n += 1) live.changed('a')
    live.changed('b')
    await vi.advanceTimersByTimeAsync(250)
    expect(handled).toEqual(['a', 'b'])
    live.changed('a')
    live.stop()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(handled).toEqual(['a', 'b'])
  })
})
