/**
 * Read-once storage for snapshots: the model surface of each cited cold session, kept for a short
 * while and served again only while its log is unchanged (same size and modification time of the
 * backend's artifact), so the preflight of a send, the cost shown on its chips and the pre-step that
 * follows read each source log once.
 * @module @wishp3/dsh-sessions/host/references/surface-cache
 */
import type { Context } from '@deepseek-ai/cordis'
import { SessionId } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-persistence'
import { SessionQueryError, type SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import { readLiveSurface, readStoredTitle } from '../official/session-query.ts'
import { type LogState, SessionLogLocator } from '../search/log-locator.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'
import { BoundedMap } from '../bounded-map.ts'
import { NOTHING_LEFT_OUT, type TrimmedSurface } from './retention.ts'
import type { SnapshotTails, TailReader } from './snapshot-tails.ts'
import { StoredReads } from './stored-reads.ts'

/** Options of {@link SurfaceCache}. */
export interface SurfaceCacheOptions {
  /** Milliseconds a read surface may be served again. */
  readonly ttlMs?: number
  /** Most surfaces kept; the oldest is dropped first. */
  readonly maxEntries?: number
  /** The kept tails of long sessions, read for a whole-session snapshot instead of the log. */
  readonly tails?: SnapshotTails
  /** The reads of stored surfaces, shared with the kept tails; one of its own when not given. */
  readonly reads?: StoredReads
  /** Reads the tail of a long log off the host's thread, where it can, for a whole-session snapshot of a session whose tail is not kept. */
  readonly reader?: TailReader
}

interface Entry {
  readonly revision: string
  readonly snapshot: SessionSurfaceSnapshot
  readonly expires: number
}

/** The `readSurface` face the official snapshot service reads through. */
export class SurfaceCache {
  private readonly entries: BoundedMap<string, Entry>
  private readonly ttlMs: number
  /** Storage reads per session id since start. */
  readonly reads = new Map<string, number>()

  private readonly ctx: Context
  private readonly catalog: SessionCatalog
  private readonly logs: SessionLogLocator
  private readonly tails: SnapshotTails | undefined
  private readonly stored: StoredReads
  private readonly reader: TailReader | undefined

  constructor(ctx: Context, catalog: SessionCatalog, options: SurfaceCacheOptions = {}) {
    this.ctx = ctx
    this.catalog = catalog
    this.tails = options.tails
    this.stored = options.reads ?? new StoredReads(ctx)
    this.reader = options.reader
    this.logs = new SessionLogLocator(ctx)
    this.ttlMs = options.ttlMs ?? 60_000
    this.entries = new BoundedMap(options.maxEntries ?? 16)
  }

  /** The current model surface of a session. */
  async readSurface(id: SessionId): Promise<SessionSurfaceSnapshot> {
    const live = this.ctx.sessions.get(id)
    if (live !== undefined) return readLiveSurface(live)
    return this.readCold(id, await this.stateOf(id))
  }

  /** A session that is not live, as its log's state says: the kept read while that revision holds, else one read of its log. */
  private async readCold(id: SessionId, state: LogState): Promise<SessionSurfaceSnapshot> {
    const revision = typeof state === 'string' ? undefined : state.revision
    const cached = this.entries.get(id)
    if (cached !== undefined && revision !== undefined && cached.revision === revision && cached.expires > Date.now()) {
      return cached.snapshot
    }
    this.entries.delete(id)
    // A log deleted on disk is not found, whatever the persistence service still keeps of it.
    if (state === 'missing') throw new SessionQueryError(`session "${id}" not found`, 'SESSION_QUERY_SESSION_NOT_FOUND')
    this.reads.set(id, (this.reads.get(id) ?? 0) + 1)
    const snapshot = await this.readStored(id, revision)
    if (revision !== undefined) this.entries.set(id, { revision, snapshot, expires: Date.now() + this.ttlMs })
    return snapshot
  }

  /** What a whole-session snapshot of a session reads: the kept tail of a cold session when one is kept for its current log and this budget (see `snapshot-tails.ts`), else, for a long log, its tail read off the host's thread where the reader can, else its whole surface. */
  async readForSnapshot(id: SessionId, maxBytes: number): Promise<TrimmedSurface> {
    const live = this.ctx.sessions.get(id)
    if (this.tails === undefined || live !== undefined) return { surface: await this.readSurface(id), leftOut: NOTHING_LEFT_OUT }
    // One look at the log tells both whether the tail is current and, when it is not, whether the read before still serves.
    const state = await this.stateOf(id)
    if (typeof state === 'string') return { surface: await this.readCold(id, state), leftOut: NOTHING_LEFT_OUT }
    const kept = await this.tails.read(id, state.revision, maxBytes)
    if (kept !== undefined) return kept
    const cached = this.entries.get(id)
    const fresh = cached !== undefined && cached.revision === state.revision && cached.expires > Date.now()
    // A long log only: a short one reads on the host's thread in a few milliseconds, sooner than the reader's thread starts.
    if (!fresh && this.reader !== undefined && (state.bytes ?? 0) >= this.tails.fromLogBytes && this.catalog.get(id) !== undefined) {
      const tail = await this.reader.tail(id, state.revision, maxBytes)
      if (tail !== undefined) {
        this.reads.set(id, (this.reads.get(id) ?? 0) + 1)
        return tail
      }
    }
    return { surface: await this.readCold(id, state), leftOut: NOTHING_LEFT_OUT }
  }

  /** A session's latest title, read as its surface is: from memory while it is live, else from its one log. Returns the title; `undefined` when none is logged or the session cannot be read here. */
  async readTitle(id: string): Promise<string | undefined> {
    const sessionId = SessionId(id)
    if (this.ctx.sessions.get(sessionId) !== undefined) return (await this.ctx.sessionQuery.readTitleSnapshot(sessionId)).title?.title
    const persistence = this.ctx.get('sessionPersistence')
    if (this.catalog.get(id) === undefined || persistence === undefined) return undefined
    return readStoredTitle(persistence, sessionId)
  }

  /** A session that is not live: from its one log when the index holds it (a read of the same revision under way is shared), not found without a read when the listed index does not. */
  private readStored(id: SessionId, revision: string | undefined): Promise<SessionSurfaceSnapshot> {
    const persistence = this.ctx.get('sessionPersistence')
    if (this.catalog.get(id) !== undefined && persistence !== undefined) return this.stored.read(id, revision)
    if (this.catalog.isListed) return Promise.reject(new SessionQueryError(`session "${id}" not found`, 'SESSION_QUERY_SESSION_NOT_FOUND'))
    return this.ctx.sessionQuery.readSurface(id)
  }

  /** What identifies the current content of a session (see `search/log-locator.ts`). Returns the revision; `undefined` when it cannot be told. */
  async revisionOf(id: string): Promise<string | undefined> {
    const state = await this.stateOf(id)
    return typeof state === 'string' ? undefined : state.revision
  }

  /** A session's revision or why there is none, from one look at its log; `'unknown'` for a session neither live nor in the index. */
  private stateOf(id: string): Promise<LogState> {
    const header = this.ctx.sessions.get(SessionId(id))?.header ?? this.catalog.get(id)
    return header === undefined ? Promise.resolve('unknown') : this.logs.state(header)
  }
}
