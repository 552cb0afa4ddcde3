/**
 * The session catalog: every session the host lists, with its cwd, creation time and title, kept
 * current by listings (`catalog-listing.ts`), the host's events, and the store's folders watched for
 * what other processes write (`store-watcher.ts`), so candidate requests and title resolution never
 * read session logs. See docs/architecture.md.
 * @module @wishp3/dsh-sessions/host/sessions/session-catalog
 */
import type { Context } from '@deepseek-ai/cordis'
import { SessionId } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-persistence'
import { BoundedMap } from '../bounded-map.ts'
import { boundedWait } from '../bounded-wait.ts'
import { locatedLog } from '../official/session-query.ts'
import { CatalogArrivals } from './catalog-arrivals.ts'
import { type CatalogedSession, CatalogEntries } from './catalog-entries.ts'
import { CatalogFileKeeper } from './catalog-file.ts'
import { CatalogListing, type StoredListing } from './catalog-listing.ts'
import { CatalogLookup, type LookupBudget } from './catalog-lookup.ts'
import { StoreWatcher, storeRoot } from './store-watcher.ts'

export type { CatalogedSession } from './catalog-entries.ts'
export { type LookupBudget, STORAGE_READS_PER_TEXT } from './catalog-lookup.ts'
export type { StoredListing } from './catalog-listing.ts'

/** Options of {@link SessionCatalog}. */
export interface SessionCatalogOptions {
  /** Milliseconds between reconciling listings. */
  readonly reconcileMs?: number
  /** Milliseconds before the first retry of a failed listing; each further retry waits twice as long, up to 30 s. */
  readonly retryMs?: number
  /** Milliseconds a storage miss is remembered. */
  readonly missMs?: number
  /** Milliseconds the first listing waits, so it does not compete with the host's own start; a call that needs the catalog sooner starts it at once. */
  readonly startAfterMs?: number
  /** When the wait of `startAfterMs` begins (the host's settled boot, see `official/boot-settled.ts`); at construction when omitted. */
  readonly startFrom?: Promise<void>
  /** The catalog's file (see `catalog-file.ts`); without one, nothing is kept across restarts. */
  readonly file?: string
  /** Milliseconds between looks at whether the catalog changed since the file was written (a listing writes it at once). */
  readonly saveEveryMs?: number
  /** Whether the store's folders are watched for sessions other processes write (default `true`). */
  readonly watch?: boolean
  /** Milliseconds from a change another process made to a session's log until it is taken. */
  readonly arrivalMs?: number
  /** Lists the stored sessions off the host's thread (see `catalog-listing.ts`); without it, the host's query service lists them. */
  readonly store?: StoredListing
}

/** Most remembered sessions that left the catalog; the oldest are forgotten first. */
const MAX_DEPARTURES = 1024

/** Longest a stop waits for the catalog's file to be written. */
const STOP_SAVE_MS = 2_000

/** The catalog; its listeners and timers live on the fiber that constructs it. */
export class SessionCatalog {
  private readonly entries = new CatalogEntries()
  private readonly listedListeners = new Set<() => void>()
  private readonly removedListeners = new Set<(id: string) => void>()
  private readonly storedListeners = new Set<(id: string) => void>()
  private readonly arrivals: CatalogArrivals
  private watcher: StoreWatcher | undefined
  private listings = 0
  /** The last entries of sessions that left the catalog. */
  private readonly departures = new BoundedMap<string, CatalogedSession>(MAX_DEPARTURES)
  private readonly listing: CatalogListing
  private readonly lookups: CatalogLookup
  private readonly file: CatalogFileKeeper | undefined
  private readonly started: Promise<void>
  /** Resolves once the catalog holds what the last listing said, whichever came first: the file, or a listing attempted. */
  private readonly answering: Promise<void>
  private readonly woken: Promise<void>
  private readonly controller = new AbortController()
  private readonly ctx: Context

  constructor(ctx: Context, options: SessionCatalogOptions = {}) {
    this.ctx = ctx
    const signal = this.controller.signal
    const owner = { entries: this.entries, remove: (id: string) => this.remove(id), signal }
    this.listing = new CatalogListing(ctx, { ...owner, listed: () => this.afterListing() }, options.store)
    this.lookups = new CatalogLookup(ctx, { ...owner, isListed: () => this.listing.isListed }, options.missMs ?? 10_000)
    this.arrivals = new CatalogArrivals(ctx, { ...owner, relist: () => void this.listing.reconcile(), changed: id => this.tell(this.storedListeners, id) }, options.arrivalMs ?? 250)
    let restoredFile!: () => void
    const restored = new Promise<void>(resolve => { restoredFile = resolve })
    this.file = options.file === undefined ? undefined : new CatalogFileKeeper(ctx, { file: options.file, kept: {
      entries: this.entries,
      isListed: () => this.listing.isListed,
      logged: () => {
        // The live sessions asked for once: each call through the session service's proxy costs some microseconds on the host's thread.
        const live = new Map(ctx.sessions.list().map(session => [session.id as string, session.seq]))
        return id => (live.get(id) ?? 1) > 0
      },
      signal,
    } }, restoredFile)
    ctx.on('session/created', session => {
      this.listing.upsertLive(session)
    })
    ctx.on('session/event', (session, event) => {
      if (event.type === 'session/title') {
        this.listing.announce(session.id)
        this.entries.titled(session.header, (event.data as { title: string }).title)
      } else if (this.entries.get(session.id) === undefined) {
        this.listing.upsertLive(session)
      }
    })
    ctx.on('session/disposed', session => {
      if (session.seq === 0) this.remove(session.id)
    })
    ctx.effect(() => () => this.stop(), 'dsh-sessions: session catalog')
    const reconcileMs = options.reconcileMs ?? 300_000
    ctx.effect(() => {
      const timer = setInterval(() => void this.listing.reconcile(), reconcileMs)
      timer.unref()
      return () => clearInterval(timer)
    }, 'dsh-sessions: session catalog reconciliation')
    const file = this.file
    if (file !== undefined) {
      const saveEveryMs = options.saveEveryMs ?? 10_000
      ctx.effect(() => {
        const timer = setInterval(() => { if (this.listing.isListed) void file.save() }, saveEveryMs)
        timer.unref()
        return () => clearInterval(timer)
      }, 'dsh-sessions: session catalog file')
    }
    let begin!: () => void
    let woke!: () => void
    this.wake = () => begin()
    this.woken = new Promise<void>(resolve => { woke = resolve })
    this.started = new Promise<void>(resolve => {
      let begun = false
      begin = () => {
        if (begun) return
        begun = true
        woke()
        void this.file?.restore()
        if (options.watch !== false) this.watchStore()
        resolve(this.listing.reconcile().then(ok => {
          if (!ok) void this.listing.retry(options.retryMs ?? 500)
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
          void this.file?.restore()
          timer = setTimeout(this.wake, startAfterMs)
        })
        return () => {
          stopped = true
          clearTimeout(timer)
        }
      }, 'dsh-sessions: session catalog start')
    }
  }

  /** Starts the first listing now if it has not started. */
  readonly wake: () => void

  /** Whether a listing has succeeded, so the catalog answers "unknown" on its own. */
  get isListed(): boolean {
    return this.listing.isListed
  }

  /** Calls a listener after every successful listing. */
  onListed(listener: () => void): () => void {
    this.listedListeners.add(listener)
    return () => this.listedListeners.delete(listener)
  }

  /** Calls a listener with the id of every session that leaves the catalog. */
  onRemoved(listener: (id: string) => void): () => void {
    this.removedListeners.add(listener)
    return () => this.removedListeners.delete(listener)
  }

  /** Calls a listener with the id of a session whose stored log another process changed, once it is cataloged. */
  onStoredChange(listener: (id: string) => void): () => void {
    this.storedListeners.add(listener)
    return () => this.storedListeners.delete(listener)
  }

  /** Whether a session's title is still unknown: no event named it and the title cache lacked it. */
  needsTitle(id: string): boolean {
    return this.entries.needsTitle(id)
  }

  /** Sets the title a session's log holds, unless an event of this process named it. */
  repairTitle(id: string, title: string): void {
    this.entries.repairTitle(id, title)
  }

  /** Starts the catalog if it has not started; resolves once it has, or once its file has given it what the last listing said, whichever is first. */
  ready(): Promise<void> {
    this.wake()
    return this.answering
  }

  /** Whether a listing has succeeded since start, how many sessions the catalog's file gave it before that, how many listings succeeded, how many of the store's folders are watched and how many noticed sessions wait to be taken. */
  catalogStatus(): { readonly listed: boolean; readonly restored: number; readonly listings: number; readonly watched: number; readonly waiting: number } {
    return { listed: this.listing.isListed, restored: this.file?.restoredSessions ?? 0, listings: this.listings, watched: this.watcher?.watched ?? 0, waiting: this.arrivals.pending }
  }

  /** Resolves once the catalog has started, without starting it. */
  whenStarted(): Promise<void> {
    return this.started
  }

  /** Resolves once the first listing has begun, without starting it. */
  whenWoken(): Promise<void> {
    return this.woken
  }

  /** Changes whenever what {@link list} gives changes. */
  get generation(): number {
    return this.entries.generation
  }

  /** Changes whenever which sessions are cataloged, or their cwd or creation time, changes. */
  get membership(): number {
    return this.entries.membership
  }

  /** Every cataloged session, newest first. The array is shared; do not mutate it. */
  list(): readonly CatalogedSession[] {
    this.wake()
    return this.entries.list()
  }

  /** A session that left the catalog (its log deleted, or disposed unsaved) and is not in it again, so a reference picked before it left can be told apart from an id never seen. Returns its last entry; `undefined` for a session cataloged now, never cataloged, or gone too long. */
  departed(id: string): CatalogedSession | undefined {
    return this.entries.get(id) === undefined ? this.departures.get(id) : undefined
  }

  /** The cataloged session with this id, or `undefined`. */
  get(id: string): CatalogedSession | undefined {
    return this.entries.get(id)
  }

  /** The session with this id, looked up as `catalog-lookup.ts` says. */
  async lookup(id: string, budget?: LookupBudget): Promise<CatalogedSession | undefined> {
    this.wake()
    return this.lookups.lookup(id, budget)
  }

  /** Reads one session from storage (see `CatalogLookup.refresh`). */
  async refresh(id: string): Promise<CatalogedSession | undefined> {
    return this.lookups.refresh(id)
  }

  /** Whether a session is a draft open in this process with no message yet: nothing in it to reference. */
  isEmptyDraft(id: string): boolean {
    const live = this.ctx.sessions.get(SessionId(id))
    return live !== undefined && !live.events.some(event => event.type === 'user/message')
  }

  private remove(id: string): void {
    const entry = this.entries.get(id)
    if (!this.entries.remove(id)) return
    if (entry !== undefined) this.departures.set(id, entry)
    this.tell(this.removedListeners, id)
  }

  /** Watches the store's folders, where the host keeps one log file per session. */
  private watchStore(): void {
    const probe = 'session-0'
    const persistence = this.ctx.get('sessionPersistence')
    const location = persistence === undefined ? undefined : locatedLog(persistence, { id: probe, createdAt: 0 })
    const log = location?.kind === 'jsonl' ? location.path : undefined
    const root = log === undefined ? undefined : storeRoot(log, probe)
    if (root === undefined) return
    const logger = this.ctx.logger('dsh-sessions')
    this.watcher = new StoreWatcher(root, id => this.arrivals.noticed(id), error => logger.warn('session catalog: watching the store: %s', error))
    void this.watcher.start()
  }

  private tell<T>(listeners: ReadonlySet<(value: T) => void>, value: T): void {
    for (const listener of listeners) {
      try {
        listener(value)
      } catch (error) {
        this.ctx.logger('dsh-sessions').warn('session catalog: %s', error)
      }
    }
  }

  private afterListing(): void {
    this.listings += 1
    this.lookups.clearMisses()
    void this.watcher?.start()
    void this.file?.save()
    this.tell(this.listedListeners, undefined)
  }

  /** Stops: listings and reads end, and a change not yet in the file is written (bounded). */
  private async stop(): Promise<void> {
    this.controller.abort()
    this.watcher?.stop()
    this.arrivals.stop()
    if (this.listing.isListed && this.file !== undefined) await boundedWait(this.file.save(), STOP_SAVE_MS)
  }
}
