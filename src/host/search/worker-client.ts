/**
 * The host half's end of the search worker: starts the worker thread, sends calls and matches answers.
 * @module @wishp3/dsh-sessions/host/search/worker-client
 */
import { WorkerThread } from '../worker-thread.ts'
import type { WorkerCalls, WorkerStart } from './worker-protocol.ts'

/** The worker's module: the TypeScript source beside this file when the plugin runs from source (its tests), else the bundle's own `content-worker.js` beside `index.js`. */
export function workerModule(): URL {
  return import.meta.url.endsWith('.ts') ? new URL('./worker/worker.ts', import.meta.url) : new URL('./content-worker.js', import.meta.url)
}

export { STOP_GRACE_MS } from '../worker-thread.ts'

/** A running search worker. */
export class SearchWorker extends WorkerThread<WorkerCalls> {
  /** Starts the worker. `data`: what the worker is started with (its index engine, when one is asked for). `onFailure`: told once when the worker fails or exits unasked. */
  constructor(module: URL, data: WorkerStart, onFailure: (error: Error) => void) {
    // A small young generation keeps the worker's resident memory close to what the index holds.
    super('search worker', module, { data, onFailure, youngGenerationMb: 4 })
  }
}
