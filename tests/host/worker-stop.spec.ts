/** Stopping the search worker: it is asked to end after the call it is in, and stopped outright only when it does not. */
import { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SearchWorker, workerModule } from '../../src/host/search/worker-client.ts'

afterEach(() => { vi.restoreAllMocks() })

describe('stopping the search worker', () => {
  it('ends the worker by asking it, not by stopping its thread', async () => {
    const terminate = vi.spyOn(Worker.prototype, 'terminate')
    const failures: Error[] = []
    const worker = new SearchWorker(workerModule(), { engine: undefined }, error => { failures.push(error) })
    // A call that runs in the worker: the worker is up and answering.
    expect(await worker.call('wordCounts', { words: ['kiwi'], cap: 10 })).toBeNull()
    await worker.stop()
    expect(terminate).not.toHaveBeenCalled()
    expect(worker.alive).toBe(false)
    expect(failures).toEqual([])
    await expect(worker.call('wordCounts', { words: ['kiwi'], cap: 10 })).rejects.toThrow('stopped')
  })
})
