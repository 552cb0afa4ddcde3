/**
 * The search worker: a worker thread that owns the content index, reads log
 * files, answers queries and writes the index file, so that none of that
 * work holds up the host's own requests. Requests are answered as they
 * finish, so a query is answered while a log is read or the file written;
 * while the file is written, changes wait and are applied right after.
 * @module @wishp3/dsh-sessions/host/search/worker
 */
import { setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import { ContentIndex, type ContentEntry } from './content-index.ts'
import { readIndexFile, writeIndexFile } from './index-file.ts'
import { readLogFile } from './log-file.ts'
import type { WorkerCall, WorkerCalls, WorkerReply, WorkerRequest } from './worker-protocol.ts'

// The lowest scheduling priority, for this thread only (Linux keeps the nice
// value per thread): the worker gets the processor when the host's own
// threads leave it idle. Where that cannot be set, it runs as it is.
try {
  setPriority(19)
} catch {
  // not permitted here: keep the inherited priority
}

let index = ContentIndex.empty()
let saving = false
const waiting = new Map<string, ContentEntry | null>()

function apply(session: string, entry: ContentEntry | null): void {
  if (saving) waiting.set(session, entry)
  else if (entry === null) index.delete(session)
  else index.set(session, entry)
}

type Handlers = { [K in WorkerCall]: (args: WorkerCalls[K]['args']) => Promise<WorkerCalls[K]['result']> | WorkerCalls[K]['result'] }

const handlers: Handlers = {
  put: ({ session, entry }) => {
    apply(session, entry)
    return null
  },
  read: async ({ session, path, revision }) => {
    const conversation = await readLogFile(path)
    apply(session, conversation === undefined ? null : { revision, ...conversation })
    return { found: conversation !== undefined, title: conversation?.title }
  },
  forget: ({ session }) => {
    apply(session, null)
    return null
  },
  search: ({ terms, admitted, limit }) => {
    const createdAt = new Map(admitted)
    return index.search(terms, id => createdAt.has(id), limit, (a, b) => createdAt.get(b)! - createdAt.get(a)!)
  },
  save: async ({ file }) => {
    if (saving) throw new Error('the index file is being written')
    saving = true
    try {
      await index.vacuum()
      return { bytes: await writeIndexFile(file, index) }
    } finally {
      saving = false
      for (const [session, entry] of waiting) apply(session, entry)
      waiting.clear()
    }
  },
  load: async ({ file }) => {
    const read = await readIndexFile(file)
    if (!read.ok) return { ok: false, reason: read.reason }
    index = read.index
    return { ok: true, entries: index.ids().map(id => [id, { revision: index.get(id)!.revision, title: index.get(id)!.title }] as const) }
  },
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
