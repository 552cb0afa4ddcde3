/**
 * The store reader's thread: the host's own JSONL persistence service, a second instance over the same
 * folder that only reads (it lists and inspects, never writes), so that listing the store and reading a
 * long log whole never hold up the host's thread.
 * @module @wishp3/dsh-sessions/host/reader/store-reader-thread
 */
import { parentPort, workerData } from 'node:worker_threads'
import { Context } from '@deepseek-ai/cordis'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import { readStoredSurface } from '../official/session-query.ts'
import { tailOf } from '../references/retention.ts'
import { takeEncodingCheck } from '../official/store-encoding.ts'
import { lowerThreadPriority } from '../thread-priority.ts'
import { serveCalls } from '../worker-calls.ts'
import type { StoreReaderCalls, StoreReaderStart } from './store-reader-calls.ts'

// Listings and whole-log reads yield the processor to the host's own threads.
lowerThreadPriority()

const start = workerData as StoreReaderStart

let persistence: Promise<JsonlSessionPersistence> | undefined

/** The persistence service over the store, made at the first call (its constructor wants the folder to exist) and again after a failed start. */
function store(): Promise<JsonlSessionPersistence> {
  persistence ??= (async () => {
    const ctx = new Context()
    await ctx.plugin(SessionStore)
    // One prepared session kept: each read here is of a log not read before.
    const config = { root: start.root, preparedSessionCacheSize: 1, ...(start.compression === undefined ? {} : { compression: start.compression }), ...(start.packChunks === undefined ? {} : { packChunks: start.packChunks }) }
    await ctx.plugin(JsonlSessionPersistence, config)
    const service = ctx.get('sessionPersistence')
    if (!(service instanceof JsonlSessionPersistence)) throw new Error(`the store at ${start.root} could not be opened for reading`)
    if (start.encodingChecked === true) takeEncodingCheck(service)
    return service
  })()
  persistence.catch(() => { persistence = undefined })
  return persistence
}

if (parentPort !== null) {
  serveCalls<StoreReaderCalls>(parentPort, {
    list: async () => (await store()).list(),
    tail: async ({ id, maxBytes }) => tailOf(await readStoredSurface(await store(), SessionId(id)), maxBytes),
  })
}
