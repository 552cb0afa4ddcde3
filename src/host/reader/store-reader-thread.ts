/**
 * The store reader's thread: the host's own JSONL persistence service, an instance over the same folder
 * for each call that only reads (it lists and inspects, never writes), so that listing the store and
 * reading a long log whole never hold up the host's thread.
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

/** Runs `use` with a persistence service over the store made for this call alone, and disposes of it after: rc.8's service keeps the last log it inspected, which here is a long one, so nothing read is kept between calls. */
async function withStore<T>(use: (service: JsonlSessionPersistence) => Promise<T>): Promise<T> {
  const ctx = new Context()
  const sessions = ctx.plugin(SessionStore)
  const config = { root: start.root, preparedSessionCacheSize: 1, ...(start.compression === undefined ? {} : { compression: start.compression }), ...(start.packChunks === undefined ? {} : { packChunks: start.packChunks }) }
  const persistence = ctx.plugin(JsonlSessionPersistence, config)
  try {
    await sessions
    await persistence
    const service = ctx.get('sessionPersistence')
    if (!(service instanceof JsonlSessionPersistence)) throw new Error(`the store at ${start.root} could not be opened for reading`)
    if (start.encodingChecked === true) takeEncodingCheck(service)
    return await use(service)
  } finally {
    await persistence.dispose()
    await sessions.dispose()
  }
}

if (parentPort !== null) {
  serveCalls<StoreReaderCalls>(parentPort, {
    list: () => withStore(service => service.list()),
    tail: ({ id, maxBytes }) => withStore(async service => tailOf(await readStoredSurface(service, SessionId(id)), maxBytes)),
  })
}
