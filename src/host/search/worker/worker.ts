/**
 * The search worker: a worker thread that owns the content index (see `index-keeper.ts`) and answers
 * the host half (see `worker-server.ts`), so that reading logs, indexing, queries and writing the
 * index file never hold up the host's own requests.
 * @module @wishp3/dsh-sessions/host/search/worker/worker
 */
import { parentPort, workerData } from 'node:worker_threads'
import { IndexKeeper } from './index-keeper.ts'
import { lowerThreadPriority } from '../../thread-priority.ts'
import { serveIndex } from './worker-server.ts'
import type { WorkerStart } from '../worker-protocol.ts'

lowerThreadPriority()

const start = workerData as WorkerStart | undefined
if (parentPort !== null) serveIndex(new IndexKeeper(start?.engine === undefined ? {} : { engine: start.engine }), parentPort)
