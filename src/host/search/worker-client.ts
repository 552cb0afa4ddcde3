/**
 * The host half's end of the search worker: starts the worker thread, sends calls and matches answers.
 * @module @wishp3/dsh-sessions/host/search/worker-client
 */
import { Worker } from 'node:worker_threads'
import type { WorkerCall, WorkerCalls, WorkerReply, WorkerRequest, WorkerStart } from './worker-protocol.ts'

interface Pending {
  resolve(value: unknown): void
  reject(error: Error): void
}

/** The worker's module: the TypeScript source beside this file when the plugin runs from source (its tests), else the bundle's own `content-worker.js` beside `index.js`. */
export function workerModule(): URL {
  return import.meta.url.endsWith('.ts') ? new URL('./worker/worker.ts', import.meta.url) : new URL('./content-worker.js', import.meta.url)
}

/** Longest wait for the worker to end after the call it is in before it is stopped outright. */
export const STOP_GRACE_MS = 5_000

/** A running search worker. */
export class SearchWorker {
  private worker: Worker | undefined
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private failure: Error | undefined

  /** Starts the worker. `data`: what the worker is started with (its index engine, when one is asked for). `onFailure`: told once when the worker fails or exits unasked. */
  constructor(module: URL, data: WorkerStart, onFailure: (error: Error) => void) {
    try {
      // A small young generation keeps the worker's resident memory close to what the index holds.
      const worker = new Worker(module, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 4 } })
      worker.unref()
      worker.on('message', (reply: WorkerReply) => {
        const waiting = this.pending.get(reply.id)
        if (waiting === undefined) return
        this.pending.delete(reply.id)
        if (reply.ok) waiting.resolve(reply.result)
        else waiting.reject(new Error(reply.error))
      })
      const fail = (error: Error): void => {
        if (this.failure !== undefined) return
        this.failure = error
        this.worker = undefined
        for (const waiting of this.pending.values()) waiting.reject(error)
        this.pending.clear()
        onFailure(error)
      }
      worker.on('error', fail)
      worker.on('exit', code => fail(new Error(`the search worker exited with code ${code}`)))
      this.worker = worker
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error))
      onFailure(this.failure)
    }
  }

  /** Whether calls can be answered. */
  get alive(): boolean {
    return this.worker !== undefined
  }

  /** Sends a call. Returns its answer; rejects with the worker's error, or when the worker is gone. */
  call<K extends WorkerCall>(call: K, args: WorkerCalls[K]['args']): Promise<WorkerCalls[K]['result']> {
    const worker = this.worker
    if (worker === undefined) return Promise.reject(this.failure ?? new Error('the search worker is not running'))
    const id = this.nextId++
    const request: WorkerRequest<K> = { id, call, args }
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: value => resolve(value as WorkerCalls[K]['result']), reject })
      worker.postMessage(request)
    })
  }

  /** Stops the worker; pending calls reject. The worker is asked to end after the call it is in, and stopped outright only when it has not within {@link STOP_GRACE_MS}: a thread stopped inside a call may be stopped while it opens a compression stream, which Node answers by aborting the whole process. */
  async stop(): Promise<void> {
    const worker = this.worker
    this.failure ??= new Error('the search worker was stopped')
    this.worker = undefined
    for (const waiting of this.pending.values()) waiting.reject(this.failure)
    this.pending.clear()
    if (worker === undefined) return
    const exited = new Promise(resolve => { worker.once('exit', resolve) })
    const request: WorkerRequest<'shutdown'> = { id: 0, call: 'shutdown', args: {} }
    worker.postMessage(request)
    const timer = setTimeout(() => { void worker.terminate() }, STOP_GRACE_MS)
    try {
      await exited
    } finally {
      clearTimeout(timer)
    }
  }
}
