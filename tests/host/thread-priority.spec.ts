/**
 * The search worker lowers its own thread's priority on Linux alone, where
 * the nice value is per thread (a real worker thread: it is niced, the host's
 * main thread is not); on other systems the same call would lower the whole
 * host process, so nothing is set; a refusal leaves the priority as it was.
 */
import { readFileSync } from 'node:fs'
import { getPriority } from 'node:os'
import { Worker } from 'node:worker_threads'
import { describe, expect, it, vi } from 'vitest'
import { lowerThreadPriority } from '../../src/host/thread-priority.ts'

/** The nice value in a `/proc/…/stat` text. */
const niceIn = (stat: string): number => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])

describe('the search worker\'s priority', () => {
  it('is set on Linux only, and a refusal is no failure', () => {
    const set = vi.fn()
    expect(lowerThreadPriority('darwin', set)).toBe(false)
    expect(lowerThreadPriority('win32', set)).toBe(false)
    expect(set).not.toHaveBeenCalled()
    expect(lowerThreadPriority('linux', set)).toBe(true)
    expect(set).toHaveBeenCalledWith(19)
    expect(lowerThreadPriority('linux', () => { throw new Error('EACCES') })).toBe(false)
  })

  it.runIf(process.platform === 'linux')('lowers the worker thread alone, not the thread that started it', async () => {
    const before = getPriority()
    const main = () => niceIn(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'))
    const mainBefore = main()
    const module = new URL('../../src/host/thread-priority.ts', import.meta.url).href
    // The worker reports its own thread's nice value, read from `/proc/thread-self`, once it has lowered it.
    const worker = new Worker(`import(${JSON.stringify(module)}).then(m => { m.lowerThreadPriority(); require('node:worker_threads').parentPort.postMessage(require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8')) })`, { eval: true, execArgv: ['--experimental-strip-types', '--no-warnings'] })
    try {
      const stat = await new Promise<string>((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
      })
      expect(niceIn(stat)).toBe(19)
      expect(niceIn(readFileSync('/proc/thread-self/stat', 'utf8'))).toBe(before)
      expect(main()).toBe(mainBefore)
    } finally {
      await worker.terminate()
    }
  })
})
