/**
 * The host's end of a worker thread that answers calls: starts the thread, sends calls and matches
 * answers; the thread's end is `worker-calls.ts`.
 * @module @wishp3/dsh-sessions/host/worker-thread
 */
import { Worker } from 'node:worker_threads'
import type { ArgsOf, CallReply, CallRequest, Calls, ResultOf } from './worker-calls.ts'

interface Pending {
  resolve(value: unknown): void
  reject(error: Error): void
}

/** Longest wait for a thread to end after the call it is in before it is stopped outright. */
export const STOP_GRACE_MS = 5_000

/** A running worker thread answering the calls of `C`. */
export class WorkerThread<C extends Calls> {
  private worker: Worker | undefined
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private failure: Error | undefined
  private readonly name: string

  /** Starts the thread. `name`: how errors name it. `start.data`: what the thread is started with. `start.onFailure`: told once when the thread fails or exits unasked. `start.youngGenerationMb`: the most its young generation takes (V8's default when omitted). */
  constructor(name: string, module: URL, start: { readonly data: unknown; readonly onFailure: (error: Error) => void; readonly youngGenerationMb?: number }) {
    const { data, onFailure, youngGenerationMb } = start
    this.name = name
    try {
      const worker = new Worker(module, { workerData: data, ...(youngGenerationMb === undefined ? {} : { resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } }) })
      worker.unref()
      worker.on('message', (reply: CallReply) => {
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
      worker.on('exit', code => fail(new Error(`the ${name} exited with code ${code}`)))
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

  /** Sends a call. Returns its answer; rejects with the thread's error, or when the thread is gone. */
  call<K extends keyof C & string>(call: K, args: ArgsOf<C[K]>): Promise<ResultOf<C[K]>> {
    const worker = this.worker
    if (worker === undefined) return Promise.reject(this.failure ?? new Error(`the ${this.name} is not running`))
    const id = this.nextId++
    const request: CallRequest = { id, call, args }
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: value => resolve(value as ResultOf<C[K]>), reject })
      worker.postMessage(request)
    })
  }

  /** Stops the thread; pending calls reject. The thread is asked to end after the call it is in, and stopped outright only when it has not within {@link STOP_GRACE_MS}: a thread stopped inside a call may be stopped while it opens a compression stream, which Node answers by aborting the whole process. */
  async stop(): Promise<void> {
    const worker = this.worker
    this.failure ??= new Error(`the ${this.name} was stopped`)
    this.worker = undefined
    for (const waiting of this.pending.values()) waiting.reject(this.failure)
    this.pending.clear()
    if (worker === undefined) return
    const exited = new Promise(resolve => { worker.once('exit', resolve) })
    const request: CallRequest = { id: 0, call: 'shutdown', args: {} }
    worker.postMessage(request)
    const timer = setTimeout(() => { void worker.terminate() }, STOP_GRACE_MS)
    try {
      await exited
    } finally {
      clearTimeout(timer)
    }
  }
}
