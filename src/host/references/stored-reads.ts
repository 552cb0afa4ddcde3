/**
 * Reads of stored sessions' surfaces, one at a time per log revision: the kept tails and the snapshot
 * cache both read a long log whole, and when both want the same revision at once (a changed log taken by
 * the log pass while a draft cites it) the second asker shares the read under way.
 * @module @wishp3/dsh-sessions/host/references/stored-reads
 */
import type { Context } from '@deepseek-ai/cordis'
import type { SessionId } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-persistence'
import type { SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import { readStoredSurface } from '../official/session-query.ts'

/** The reads of stored surfaces under way. */
export class StoredReads {
  private readonly running = new Map<string, Promise<SessionSurfaceSnapshot>>()
  private readonly ctx: Context

  constructor(ctx: Context) {
    this.ctx = ctx
  }

  /** Reads a stored session's surface from its log, or shares the read of that revision under way. `revision`: the log's revision looked at just before (`undefined`: not known, so nothing is shared). `signal`: stops this asker's wait; a shared read goes on for the others. Throws as {@link readStoredSurface} does, or a `TypeError` when the host has no persistence service. */
  read(id: SessionId, revision: string | undefined, signal?: AbortSignal): Promise<SessionSurfaceSnapshot> {
    const persistence = this.ctx.get('sessionPersistence')
    if (persistence === undefined) return Promise.reject(new TypeError('the host persists no sessions'))
    if (revision === undefined) return readStoredSurface(persistence, id, signal)
    const key = `${id}\u0000${revision}`
    let read = this.running.get(key)
    if (read === undefined) {
      read = readStoredSurface(persistence, id).finally(() => this.running.delete(key))
      this.running.set(key, read)
    }
    return signal === undefined ? read : abortable(read, signal)
  }
}

/** A promise that rejects when the signal aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error)
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error)
    signal.addEventListener('abort', abort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}
