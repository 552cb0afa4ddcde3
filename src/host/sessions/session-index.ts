/**
 * The session index: the listing loop that keeps the catalog (`catalog.ts`)
 * of every session `sessionQuery.listSessions()` returns, so candidate
 * requests and title resolution never read session logs.
 *
 * Sources: one first listing (at construction, or after `startAfterMs` unless
 * a caller needs the index sooner); titles of live sessions folded from their
 * in-memory events, of cold sessions from the persisted projection cache
 * (the sidebar's own title source). Freshness: `session/created` adds a
 * session, a `session/title` event retitles it, `session/disposed` drops one
 * that was never persisted, and a periodic listing reconciles what other
 * processes changed (every five minutes). A cold session whose title the
 * cache lacks keeps its id as label until the background log pass (see
 * `search/log-pass.ts`) reads its log and calls {@link SessionIndex.repairTitle};
 * listeners learn of every successful listing and of every session that
 * leaves the index.
 *
 * Faults: a failed listing is retried with a short backoff until one
 * succeeds. A session leaves the index only when the host says it is gone (a
 * listing without it, a disposed unpersisted session, or a read that answers
 * "session not found"), never on another read error. Once a listing has
 * succeeded, an id the index does not know is unknown without touching
 * storage or listing it (a session another process created since is found
 * by the next periodic listing); before that, a caller
 * may read storage for a few ids, and misses are remembered briefly.
 *
 * Started means one thing here: the first listing has been attempted (it
 * succeeded, or it failed, was logged, and is being retried). It begins
 * `startAfterMs` after `startFrom` (the host's settled boot in the plugin;
 * construction by default), or at the first call that needs the index
 * ({@link SessionIndex.wake}).
 *
 * Restart: with a `file`, what the last listing said (and what the host's
 * events changed since) is kept in it (see `catalog-file.ts`), written after
 * each listing and, when the catalog changed, every `saveEveryMs`. At `startFrom` or
 * at the first call that needs the index, whichever comes first, the file
 * fills the index while the first listing runs, and the index answers from
 * it at once ({@link SessionIndex.ready}). The index is still not listed:
 * an id it lacks is looked up as before the first listing, and the first
 * listing drops what it no longer lists.
 * @module @wishp3/dsh-sessions/host/sessions/session-index
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Context } from '@deepseek-ai/cordis'
import { type Session, type SessionEvent, SessionId } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-projection-cache'
import { SessionQueryError, type SessionRecord } from '@deepseek-ai/dsh-session-query'
import { BoundedMap } from '../bounded-map.ts'
import { boundedWait } from '../bounded-wait.ts'
import { readStoredTitleSnapshot } from '../official/session-query.ts'
import { type IndexedSession, SessionCatalog } from './catalog.ts'
import { readCatalogFile, writeCatalogFile } from './catalog-file.ts'

export type { IndexedSession } from './catalog.ts'

/** Options of {@link SessionIndex}. */
export interface SessionIndexOptions {
  /** Milliseconds between reconciling listings. */
  readonly reconcileMs?: number
  /** Milliseconds before the first retry of a failed listing; each further retry waits twice as long, up to 30 s. */
  readonly retryMs?: number
  /** Milliseconds a storage miss is remembered. */
  readonly missMs?: number
  /**
   * Milliseconds the first listing waits, so it does not compete with the
   * host's own start; a candidates list or a lookup asked for earlier starts
   * it at once.
   */
  readonly startAfterMs?: number
  /** When the wait of `startAfterMs` begins (the host's settled boot, see `official/boot-settled.ts`); at construction when omitted. */
  readonly startFrom?: Promise<void>
  /** The catalog's file (see `catalog-file.ts`); without one, nothing is kept across restarts. */
  readonly file?: string
  /** Milliseconds between looks at whether the catalog changed since the file was written (a listing writes it at once). */
  readonly saveEveryMs?: number
}

/** How many storage reads one text may still spend on ids the index does not know. */
export interface LookupBudget {
  remaining: number
}

/** Storage reads one text may spend on unknown ids before the first listing has succeeded. */
export const STORAGE_READS_PER_TEXT = 2

/** Most remembered misses; the oldest are forgotten first. */
const MAX_MISSES = 4096

/** Most remembered sessions that left the index; the oldest are forgotten first. */
const MAX_DEPARTURES = 1024

/** Longest a stop waits for the catalog's file to be written. */
const STOP_SAVE_MS = 2_000

/** Whether a read failure is the host saying the session does not exist. */
function isGone(error: unknown): boolean {
  return error instanceof SessionQueryError && error.code === 'SESSION_QUERY_SESSION_NOT_FOUND'
}

function latestTitle(events: readonly SessionEvent[]): string | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index]!
    if (event.type === 'session/title') return (event.data as { title: string }).title
  }
  return undefined
}

/** The index; its listeners and timers live on the fiber that constructs it. */
export class SessionIndex {
  private readonly catalog = new SessionCatalog()
  private readonly listedListeners = new Set<() => void>()
  private readonly removedListeners = new Set<(id: string) => void>()
  /** Storage misses and when they expire. */
  private readonly misses = new BoundedMap<string, number>(MAX_MISSES)
  /** The last entries of sessions that left the index. */
  private readonly departures = new BoundedMap<string, IndexedSession>(MAX_DEPARTURES)
  /**
   * Ids the host's events announced while a listing was under way: that
   * listing may predate them, so its finish must not drop them.
   */
  private readonly announcedDuringListing = new Set<string>()
  /** Whether a listing has succeeded since start. */
  private listed = false
  private reconciling: Promise<boolean> | undefined
  private readonly missMs: number
  private readonly started: Promise<void>
  /** Resolves once the index holds what the last listing said, whichever came first: the file, or a listing attempted. */
  private readonly answering: Promise<void>
  private readonly woken: Promise<void>
  private readonly file: string | undefined
  private restoring: Promise<void> | undefined
  private restoredFile!: () => void
  /** How many sessions the file gave the index at start. */
  private restoredCount = 0
  /** The catalog's generation the file was last written from. */
  private savedGeneration = -1
  private saving: Promise<void> = Promise.resolve()
  private readonly controller = new AbortController()
  private readonly ctx: Context

  constructor(ctx: Context, options: SessionIndexOptions = {}) {
    this.ctx = ctx
    this.file = options.file
    ctx.on('session/created', session => {
      this.upsertLive(session)
    })
    ctx.on('session/event', (session, event) => {
      if (event.type === 'session/title') {
        this.announce(session.id)
        this.catalog.titled(session.header, (event.data as { title: string }).title)
      } else if (this.catalog.get(session.id) === undefined) {
        this.upsertLive(session)
      }
    })
    ctx.on('session/disposed', session => {
      if (session.seq === 0) this.remove(session.id)
    })
    ctx.effect(() => () => this.stop(), 'dsh-sessions: session index')
    const reconcileMs = options.reconcileMs ?? 300_000
    this.missMs = options.missMs ?? 10_000
    ctx.effect(() => {
      const timer = setInterval(() => void this.reconcile(), reconcileMs)
      timer.unref()
      return () => clearInterval(timer)
    }, 'dsh-sessions: session index reconciliation')
    if (this.file !== undefined) {
      const saveEveryMs = options.saveEveryMs ?? 10_000
      ctx.effect(() => {
        const timer = setInterval(() => { if (this.listed) void this.save() }, saveEveryMs)
        timer.unref()
        return () => clearInterval(timer)
      }, 'dsh-sessions: session catalog file')
    }
    let begin!: () => void
    let woke!: () => void
    this.wake = () => begin()
    this.woken = new Promise<void>(resolve => { woke = resolve })
    const restored = new Promise<void>(resolve => { this.restoredFile = resolve })
    this.started = new Promise<void>(resolve => {
      let begun = false
      begin = () => {
        if (begun) return
        begun = true
        woke()
        void this.restore()
        resolve(this.reconcile().then(ok => {
          if (!ok) void this.retry(options.retryMs ?? 500)
        }))
      }
    })
    this.answering = Promise.race([this.started, restored])
    const startAfterMs = options.startAfterMs ?? 0
    if (startAfterMs <= 0) this.wake()
    else {
      ctx.effect(() => {
        let timer: ReturnType<typeof setTimeout> | undefined
        let stopped = false
        void (options.startFrom ?? Promise.resolve()).then(() => {
          if (stopped) return
          void this.restore()
          timer = setTimeout(this.wake, startAfterMs)
        })
        return () => {
          stopped = true
          clearTimeout(timer)
        }
      }, 'dsh-sessions: session index start')
    }
  }

  /** Starts the first listing now if it has not started. */
  readonly wake: () => void

  /** Whether a listing has succeeded, so the index answers "unknown" on its own. */
  get isListed(): boolean {
    return this.listed
  }

  /**
   * Calls a listener after every successful listing.
   * @param listener - called with no arguments.
   * @returns a function that removes the listener.
   */
  onListed(listener: () => void): () => void {
    this.listedListeners.add(listener)
    return () => this.listedListeners.delete(listener)
  }

  /**
   * Calls a listener whenever a session leaves the index.
   * @param listener - called with the session's id.
   * @returns a function that removes the listener.
   */
  onRemoved(listener: (id: string) => void): () => void {
    this.removedListeners.add(listener)
    return () => this.removedListeners.delete(listener)
  }

  /**
   * Whether a session's title is still unknown: no event named it and the
   * title cache lacked it.
   * @returns true for an indexed session without a title.
   */
  needsTitle(id: string): boolean {
    return this.catalog.needsTitle(id)
  }

  /**
   * Sets the title a session's log holds, unless an event of this process named it.
   * @param title - the latest title in its log.
   */
  repairTitle(id: string, title: string): void {
    this.catalog.repairTitle(id, title)
  }

  /** Starts the index if it has not started; resolves once it has, or once its file has given it what the last listing said, whichever is first. */
  ready(): Promise<void> {
    this.wake()
    return this.answering
  }

  /** Whether a listing has succeeded since start, and how many sessions the catalog's file gave the index before it. */
  catalogStatus(): { readonly listed: boolean; readonly restored: number } {
    return { listed: this.listed, restored: this.restoredCount }
  }

  /** Resolves once the index has started, without starting it. */
  whenStarted(): Promise<void> {
    return this.started
  }

  /** Resolves once the first listing has begun (at the first request that needs the index, or when the start delay ends), without starting it. */
  whenWoken(): Promise<void> {
    return this.woken
  }

  /** Changes whenever what {@link list} gives changes (see `SessionCatalog.generation`). */
  get generation(): number {
    return this.catalog.generation
  }

  /** Changes whenever which sessions are indexed, or their cwd or creation time, changes (see `SessionCatalog.membership`). */
  get membership(): number {
    return this.catalog.membership
  }

  /** Every indexed session, newest first. The array is shared; do not mutate it. */
  list(): readonly IndexedSession[] {
    this.wake()
    return this.catalog.list()
  }

  /**
   * A session that left the index (its log deleted, or the host disposed of
   * it unsaved) and is not in it again: its last entry, so a reference the
   * user picked before it left can be told apart from an id never seen.
   * @returns the entry it had; `undefined` for a session indexed now, or never indexed, or left too long ago.
   */
  departed(id: string): IndexedSession | undefined {
    return this.catalog.get(id) === undefined ? this.departures.get(id) : undefined
  }

  /**
   * The indexed session with this id.
   * @returns the entry, or `undefined`.
   */
  get(id: string): IndexedSession | undefined {
    return this.catalog.get(id)
  }

  /**
   * The session with this id. Once a listing has succeeded, an id the index
   * lacks is unknown at once, with no read and no listing (sessions other
   * processes created since come with the next periodic listing). Before that, the id is read from
   * storage while the budget lasts, and a miss is remembered briefly.
   * @param budget - the storage reads the calling text may still spend; omit for one unbudgeted read.
   * @returns the entry, or `undefined` when the index does not know the session.
   */
  async lookup(id: string, budget?: LookupBudget): Promise<IndexedSession | undefined> {
    this.wake()
    const known = this.catalog.get(id)
    if (known !== undefined) return known
    if (this.listed) return undefined
    const until = this.misses.get(id)
    if (until !== undefined && until > Date.now()) return undefined
    if (budget !== undefined) {
      if (budget.remaining <= 0) return undefined
      budget.remaining -= 1
    }
    const found = await this.refresh(id)
    if (found === undefined) this.rememberMiss(id)
    return found
  }

  /**
   * Reads one session from storage: indexes it when it exists, drops it when
   * the host says it does not. Any other read error leaves the index as it was.
   * Before the first listing, a stored session is read from its one log, and
   * a missing or unreadable log leaves the index as it was.
   * @returns the fresh entry; the indexed one after a read error; `undefined` for a session that is gone.
   */
  async refresh(id: string): Promise<IndexedSession | undefined> {
    const persistence = this.ctx.get('sessionPersistence')
    if (!this.listed && persistence !== undefined && this.ctx.sessions.get(SessionId(id)) === undefined) {
      // Before the first listing the query service's read would list the whole store; the one log is read instead.
      try {
        const observation = await readStoredTitleSnapshot(persistence, SessionId(id), this.controller.signal)
        return this.catalog.stored(observation.session, observation.title)
      } catch {
        // No such log, or one that cannot be read: the session stays unknown until a listing says otherwise.
        return this.catalog.get(id)
      }
    }
    try {
      const observation = await this.ctx.sessionQuery.readTitleSnapshot(SessionId(id), this.controller.signal)
      return this.catalog.stored(observation.session, observation.title?.title)
    } catch (error) {
      if (isGone(error)) {
        this.remove(id)
        return undefined
      }
      if (!this.controller.signal.aborted) this.ctx.logger('dsh-sessions').warn('session index: reading %s failed: %s', id, error)
      return this.catalog.get(id)
    }
  }

  private rememberMiss(id: string): void {
    this.misses.set(id, Date.now() + this.missMs)
  }

  /** Retries a failed first listing with a doubling delay until one succeeds or the fiber ends. */
  private async retry(firstMs: number): Promise<void> {
    let delay = firstMs
    while (!this.listed && !this.controller.signal.aborted) {
      // The timer's abort listener goes with the timer, so failed attempts leave none behind.
      try {
        await sleep(delay, undefined, { signal: this.controller.signal })
      } catch {
        return
      }
      if (this.listed) return
      if (await this.reconcile()) return
      delay = Math.min(delay * 2, 30_000)
    }
  }

  private remove(id: string): void {
    const entry = this.catalog.get(id)
    if (!this.catalog.remove(id)) return
    if (entry !== undefined) this.departures.set(id, entry)
    for (const listener of this.removedListeners) {
      try {
        listener(id)
      } catch (error) {
        this.ctx.logger('dsh-sessions').warn('session index: %s', error)
      }
    }
  }

  /**
   * Whether a session is a draft open in this process with no message yet: nothing in it to reference. Only a
   * live session is looked at, up to its first message.
   * @param id - the session.
   * @returns `true` for a live session without a user message.
   */
  isEmptyDraft(id: string): boolean {
    const live = this.ctx.sessions.get(SessionId(id))
    return live !== undefined && !live.events.some(event => event.type === 'user/message')
  }

  /** Notes that the host's events named a session, so a listing already under way keeps it. */
  private announce(id: string): void {
    if (this.reconciling !== undefined) this.announcedDuringListing.add(id)
  }

  private upsertLive(session: Session): void {
    this.announce(session.id)
    try {
      this.catalog.live(session.header, latestTitle(session.events))
    } catch (error) {
      this.ctx.logger('dsh-sessions').warn('session index: %s', error)
    }
  }

  /** Fills the index from its file once, unless a listing has already succeeded; sessions it holds already stay as they are. */
  private restore(): Promise<void> {
    this.restoring ??= (async () => {
      if (this.file === undefined) return
      const records = await readCatalogFile(this.file)
      if (records === undefined || this.listed || this.controller.signal.aborted) return
      for (const { header, title } of records) {
        if (this.catalog.get(header.id) !== undefined) continue
        this.catalog.stored(header, title)
        this.restoredCount += 1
      }
      if (this.restoredCount > 0) this.restoredFile()
    })().catch(error => {
      this.ctx.logger('dsh-sessions').warn('session index: reading its file failed: %s', error)
    })
    return this.restoring
  }

  /** Writes the file if the catalog changed since it was last written; one write at a time. Called only once a listing has succeeded, so the file always starts from one. */
  private save(): Promise<void> {
    const file = this.file
    if (file === undefined) return this.saving
    this.saving = this.saving.then(async () => {
      const generation = this.catalog.generation
      if (generation === this.savedGeneration) return
      try {
        // A draft with no event yet has no log: a restart would offer a session that does not exist.
        await writeCatalogFile(file, this.catalog.list().filter(session => (this.ctx.sessions.get(SessionId(session.id))?.seq ?? 1) > 0))
        this.savedGeneration = generation
      } catch (error) {
        this.ctx.logger('dsh-sessions').warn('session index: writing its file failed: %s', error)
      }
    })
    return this.saving
  }

  /** Stops: listings and reads end, and a change not yet in the file is written (bounded). */
  private async stop(): Promise<void> {
    this.controller.abort()
    if (this.listed) await boundedWait(this.save(), STOP_SAVE_MS)
  }

  /** Lists every session and merges, one listing at a time; resolves whether it succeeded. */
  private reconcile(): Promise<boolean> {
    this.reconciling ??= this.listAndMerge().finally(() => { this.reconciling = undefined })
    return this.reconciling
  }

  /** Lists every session and merges: new ones added, vanished cold ones dropped, event titles kept. */
  private async listAndMerge(): Promise<boolean> {
    this.announcedDuringListing.clear()
    let records: SessionRecord[]
    try {
      records = await this.ctx.sessionQuery.listSessions(this.controller.signal)
    } catch (error) {
      if (!this.controller.signal.aborted) this.ctx.logger('dsh-sessions').warn('session index listing failed: %s', error)
      return false
    }
    const cache = this.ctx.get('sessionProjectionCache')
    const seen = new Set<string>()
    for (const record of records) {
      const { id } = record.header
      seen.add(id)
      if (this.catalog.isEventTitled(id)) continue
      const live = this.ctx.sessions.get(id)
      if (live !== undefined) {
        this.upsertLive(live)
        continue
      }
      const cached = cache?.cachedSnapshot(record.header)?.values as { title?: string | null } | undefined
      this.catalog.stored(record.header, cached?.title ?? undefined)
    }
    for (const id of this.catalog.ids()) {
      if (seen.has(id) || this.announcedDuringListing.has(id)) continue
      if (this.ctx.sessions.get(SessionId(id)) === undefined) this.remove(id)
    }
    this.announcedDuringListing.clear()
    this.listed = true
    this.misses.clear()
    void this.save()
    for (const listener of this.listedListeners) {
      try {
        listener()
      } catch (error) {
        this.ctx.logger('dsh-sessions').warn('session index: %s', error)
      }
    }
    return true
  }
}
