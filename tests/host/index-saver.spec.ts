/** When the content index is written: once per burst of changes, at once after a pass, one write at a time, retried after a failure, cancelled on stop. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { IndexSaver, type IndexWriter } from '../../src/host/search/index-saver.ts'

afterEach(() => { vi.useRealTimers() })

function writer(overrides: Partial<IndexWriter> = {}) {
  const calls = { write: 0, cancel: 0, failed: [] as unknown[] }
  const w: IndexWriter = {
    available: true,
    write: () => { calls.write += 1; return Promise.resolve(100) },
    cancel: () => { calls.cancel += 1; return Promise.resolve() },
    failed: error => { calls.failed.push(error) },
    ...overrides,
  }
  return { w, calls }
}

describe('the index saver', () => {
  it('writes nothing without a change, and one write for a burst of changes within the delay', async () => {
    vi.useFakeTimers()
    const { w, calls } = writer()
    const saver = new IndexSaver(w, 1_000)
    saver.soon()
    await vi.advanceTimersByTimeAsync(5_000)
    expect(calls.write).toBe(0)
    for (let n = 0; n < 5; n += 1) {
      saver.changed()
      saver.soon()
      await vi.advanceTimersByTimeAsync(100)
    }
    expect(calls.write).toBe(0)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(calls.write).toBe(1)
    expect(saver.savedBytes).toBe(100)
    saver.changed()
    saver.soon(true)
    await vi.advanceTimersByTimeAsync(0)
    expect(calls.write).toBe(2)
  })

  it('writes changes that arrive during a write with the next one, and tries a failed write again after the delay', async () => {
    vi.useFakeTimers()
    let finish!: () => void
    let fail = true
    const { w, calls } = writer({
      write: () => {
        calls.write += 1
        if (calls.write === 1) return new Promise<number>(resolve => { finish = () => resolve(5) })
        if (fail) { fail = false; return Promise.reject(new Error('disk full')) }
        return Promise.resolve(7)
      },
    })
    const saver = new IndexSaver(w, 1_000)
    saver.changed()
    saver.soon(true)
    await vi.advanceTimersByTimeAsync(0)
    saver.changed()
    saver.soon(true)
    await vi.advanceTimersByTimeAsync(0)
    expect(calls.write).toBe(1)
    finish()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(calls.write).toBe(2)
    expect(calls.failed).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(calls.write).toBe(3)
    expect(saver.savedBytes).toBe(7)
  })

  it('cancels a write under way on stop, waits for it at most 2 s, and writes nothing after', async () => {
    vi.useFakeTimers()
    const { w, calls } = writer({ write: () => { calls.write += 1; return new Promise<number>(() => {}) }, cancel: () => { calls.cancel += 1; return new Promise(() => {}) } })
    const saver = new IndexSaver(w, 1_000)
    saver.changed()
    saver.soon(true)
    await vi.advanceTimersByTimeAsync(0)
    let stopped = false
    void saver.stop().then(() => { stopped = true })
    await vi.advanceTimersByTimeAsync(1_999)
    expect([calls.cancel, stopped]).toEqual([1, false])
    await vi.advanceTimersByTimeAsync(1)
    expect(stopped).toBe(true)
    saver.changed()
    saver.soon(true)
    await vi.advanceTimersByTimeAsync(5_000)
    expect(calls.write).toBe(1)
  })
})
