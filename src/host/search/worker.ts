/**
 * The search worker: a worker thread that owns the content index (see
 * `index-keeper.ts`), reads log files, answers queries and writes the index
 * file, so that none of that work holds up the host's own requests.
 * Requests are answered as they finish, so a query is answered while a log
 * is read or the file written.
 * @module @wishp3/dsh-sessions/host/search/worker
 */
import { setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import { IndexKeeper } from './index-keeper.ts'
import type { WorkerCall, WorkerCalls, WorkerReply, WorkerRequest } from './worker-protocol.ts'

// The lowest scheduling priority, for this thread only (Linux keeps the nice
// value per thread): the worker gets the processor when the host's own
// threads leave it idle. Where that cannot be set, it runs as it is.
try {
  setPriority(19)
} catch {
  // not permitted here: keep the inherited priority
}

const keeper = new IndexKeeper()

type Handlers = { [K in WorkerCall]: (args: WorkerCalls[K]['args']) => Promise<WorkerCalls[K]['result']> | WorkerCalls[K]['result'] }

const handlers: Handlers = {
  put: ({ session, entry }) => {
    keeper.apply(session, entry)
    return null
  },
  read: args => keeper.read(args),
  forget: ({ session }) => {
    keeper.apply(session, null)
    return null
  },
  search: ({ terms, admitted, limit }) => keeper.search(terms, admitted, limit),
  save: ({ file }) => keeper.save(file),
  cancelSave: () => keeper.cancelSave(),
  load: ({ file }) => keeper.load(file),
}

async function serve(request: WorkerRequest): Promise<WorkerReply> {
  try {
    const handler = handlers[request.call] as (args: unknown) => unknown
    return { id: request.id, ok: true, result: await handler(request.args) }
  } catch (error) {
    return { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  void serve(request).then(reply => parentPort!.postMessage(reply))
})
