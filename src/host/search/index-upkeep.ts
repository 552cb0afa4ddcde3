/**
 * The content index kept current in the background: the search worker and its file, the log pass and live sessions
 * followed into it, with the damage rebuild (`damage-rebuild.ts`), the disk pause (`disk-pause.ts`) and readiness
 * (`index-readiness.ts`) each owned apart, and where the build stands. See docs/content-index.md.
 * @module @wishp3/dsh-sessions/host/search/index-upkeep
 */
import type { Context } from '@deepseek-ai/cordis'
import { LiveFollower } from './live-follower.ts'
import { LogPass, type ContentSink } from './log-pass.ts'
import { CHECK_MS, type ContentSearchOptions, type ContentSearchStatus, PAUSED_CHECK_MS, RETRY_MS, says } from './content-status.ts'
import type { SessionLogLocator } from './log-locator.ts'
import { SearchWorker, workerModule } from './worker-client.ts'
import { DiskPause } from './disk-pause.ts'
import { DamageRebuild } from './damage-rebuild.ts'
import { IndexReadiness } from './index-readiness.ts'
import { boundedWait } from '../bounded-wait.ts'
import { type EntrySummary, type IndexEngine, type LogRead, type LogToRead, LOW_DISK_MESSAGE, NOT_OPEN_MESSAGE } from './worker-protocol.ts'
import type { CatalogedSession, SessionCatalog } from '../sessions/session-catalog.ts'
import type { IndexingProgress } from '../../shared/wire.ts'
import { DshSessionsError } from '../errors.ts'

/** Skipped sessions the status names. */
const SKIPPED_NAMED = 10

/** Longest a stop waits for the on-disk index to record where its build stands. */
const STOP_SAVE_MS = 2_000

/** The content index's upkeep: the log pass's sink. */
export class IndexUpkeep implements ContentSink {
  /** Per session, what the worker's index holds. */
  private readonly summaries = new Map<string, EntrySummary>()
  /** Started when the session catalog's first listing begins, so the host's own start goes first. */
  private current: SearchWorker | undefined
  private readonly workerModule: URL
  /** The background pass over the logs (its `idle` resolves when it has nothing left to read). */
  readonly pass: LogPass
  /** Whether the index answers for every listed session (its `whenReady` resolves then). */
  readonly readiness = new IndexReadiness()
  private start: ContentSearchStatus['start'] = 'pending'
  private savedBytes = 0
  private readonly damage: DamageRebuild
  /** Counts the files opened: a write that completes after another file was opened is not recorded. */
  private epoch = 0
  /** Whether the worker said it has no index file open (one is opened at the next look). */
  private closed = false
  private readonly diskPause = new DiskPause()
  private checking = false
  private checkTimer: NodeJS.Timeout | undefined
  private retryTimer: NodeJS.Timeout | undefined
  private readonly freeSpaceMiB: () => number
  private readonly checkMs: number
  private readonly pausedCheckMs: number
  private readonly retryMs: number
  private readonly live: LiveFollower
  private disposed = false
  private readonly ctx: Context
  private readonly catalog: SessionCatalog
  private readonly dropped: () => void
  private readonly file: string | undefined
  private readonly engineAsked: IndexEngine | undefined
  private engine: IndexEngine | undefined

  /** `sources.dropped`: called when sessions leave what the index holds. */
  constructor(ctx: Context, sources: { readonly catalog: SessionCatalog; readonly logs: SessionLogLocator; readonly dropped: () => void }, options: ContentSearchOptions) {
    const { catalog, logs, dropped } = sources
    this.ctx = ctx
    this.dropped = dropped
    this.catalog = catalog
    this.file = options.file
    this.damage = new DamageRebuild({
      stopped: () => this.disposed,
      forget: why => {
        this.epoch += 1
        this.ctx.logger('dsh-sessions').warn('content search: %s; it was set aside, and the index is built again from the logs (titles only meanwhile)', why)
        this.clearSummaries()
        this.readiness.unmark()
        this.start = 'corrupt'
        this.pass.schedule()
      },
      passed: () => this.pass.idle(),
      resume: () => this.runPass(),
    })
    this.live = new LiveFollower(ctx, {
      writer: () => (this.current?.alive === true && this.diskPause.reason === undefined ? this.current : undefined),
      revisionOf: id => this.summaries.get(id)?.revision,
      listed: id => this.catalog.get(id) !== undefined,
      epoch: () => this.epoch,
      record: (id, revision, title) => { this.summaries.set(id, { revision, title }) },
      failed: (id, error) => {
        if (this.damagedBy(error) || this.lowDiskBy(error)) return
        this.ctx.logger('dsh-sessions').warn('content search: indexing %s failed: %s', id, error)
        this.retrySoon()
      },
    }, options.liveDelayMs ?? 250)
    this.workerModule = options.workerModule ?? workerModule()
    this.engineAsked = options.engine
    this.freeSpaceMiB = options.freeSpaceMiB ?? (() => 0)
    this.checkMs = options.checkMs ?? CHECK_MS
    this.pausedCheckMs = Math.min(this.checkMs, options.pausedCheckMs ?? PAUSED_CHECK_MS)
    this.retryMs = options.retryMs ?? RETRY_MS
    this.pass = new LogPass(ctx, { catalog, logs, sink: this }, { ...(options.duty === undefined ? {} : { duty: options.duty }), ...(options.follower === undefined ? {} : { follower: options.follower }) })
    ctx.on('session/disposed', session => {
      this.live.drop(session.id)
      // Its log changed while it was live: read it (and keep what the follower wants of it) without waiting for the next pass.
      if (session.seq > 0) this.pass.visitSoon(session.id)
    })
    ctx.effect(() => () => this.stop(), 'dsh-sessions: content search')
    catalog.onRemoved(id => this.forget(id))
    catalog.onStoredChange(id => this.pass.visitSoon(id, 0))
    void this.begin()
  }

  /** Stops: the worker records whether the build completed (bounded), then ends. */
  private async stop(): Promise<void> {
    this.disposed = true
    this.live.stop()
    clearTimeout(this.checkTimer)
    clearTimeout(this.retryTimer)
    const worker = this.current
    if (worker === undefined) return
    if (this.engine === 'sqlite' && this.file !== undefined && worker.alive) await boundedWait(worker.call('save', { file: this.file, complete: this.readiness.ready }), STOP_SAVE_MS)
    await worker.stop()
  }

  /** Where the index stands. */
  status(): ContentSearchStatus {
    return {
      ready: this.readiness.ready,
      available: this.available,
      sessions: this.summaries.size,
      start: this.start,
      engine: this.engine,
      ...this.pass.stats,
      savedBytes: this.savedBytes,
      damaged: this.damage.damaged,
      ...(this.diskPause.reason === undefined ? {} : { paused: this.diskPause.reason }),
      ...(this.diskPause.disk === undefined ? {} : { disk: this.diskPause.disk }),
      pending: this.pass.pending,
      skipped: this.pass.skipped(SKIPPED_NAMED),
    }
  }

  /** How far the build has come, while the index does not yet answer for every session. `within`: the sessions counted (a caller's scope); every listed session when omitted. Returns indexed and listed sessions among those, and whether indexing is paused; `undefined` once it answers for all and is not paused, or without content search. */
  progress(within?: (session: CatalogedSession) => boolean): IndexingProgress | undefined {
    if ((this.readiness.ready && this.diskPause.reason === undefined) || !this.available) return undefined
    let total = 0
    let indexed = 0
    for (const session of this.catalog.list()) {
      if (within !== undefined && !within(session)) continue
      total += 1
      if (this.summaries.has(session.id)) indexed += 1
    }
    return { indexed, total, ...(this.diskPause.reason === undefined ? {} : { paused: this.diskPause.reason }) }
  }

  /** Whether the search worker runs. */
  get available(): boolean {
    return this.current?.alive === true
  }

  /** The search worker, once started. */
  get worker(): SearchWorker | undefined {
    return this.current
  }

  /** Whether the index is built again after damage (titles alone answer meanwhile). */
  get rebuilding(): boolean {
    return this.damage.rebuilding
  }

  /** Whether the index holds a session. */
  holds(id: string): boolean {
    return this.summaries.has(id)
  }

  /** Every session the index holds. */
  heldIds(): IterableIterator<string> {
    return this.summaries.keys()
  }

  /** Whether writing is paused: for lack of disk space, or while no index file is open (the log pass's sink). */
  get paused(): boolean {
    return this.diskPause.reason !== undefined || this.closed
  }

  /** What the index holds of a session: its revision and title (the log pass's sink). */
  entry(id: string): EntrySummary | undefined {
    return this.summaries.get(id)
  }

  /** Ids of every session the index holds (the log pass's sink). */
  ids(): string[] {
    return [...this.summaries.keys()]
  }

  /** Reads session logs into the index through the worker, a batch in one transaction (the log pass's sink): an answer for each log read, the first ones given. */
  async readLogs(logs: readonly LogToRead[]): Promise<readonly LogRead[]> {
    if (this.current === undefined) throw new DshSessionsError('the search worker has not started', 'unavailable')
    const epoch = this.epoch
    let read: readonly LogRead[]
    try {
      read = (await this.current.call('read', { logs })).read
    } catch (error) {
      // The file was set aside and a fresh one opened: these logs are read again by the rebuild's pass.
      if (this.damagedBy(error)) return logs.map(() => ({ found: false, title: undefined }))
      // Not written for lack of space, or no file open: indexing pauses, and the pass stops here.
      if (!this.lowDiskBy(error) && says(error, NOT_OPEN_MESSAGE)) this.closed = true
      throw error
    }
    // Written to a file set aside since: the rebuild's pass reads them again.
    for (const [n, one] of (epoch === this.epoch ? read : []).entries()) {
      if ('failed' in one) continue
      if (one.found) this.summaries.set(logs[n]!.session, { revision: one.revision ?? logs[n]!.revision, title: one.title })
      else this.dropSummary(logs[n]!.session)
    }
    return read
  }

  /** Drops a session from the index (the log pass's sink, and when it leaves the session catalog). */
  forget(id: string): void {
    this.live.drop(id)
    if (!this.dropSummary(id)) return
    this.current?.call('forget', { session: id }).catch(error => { this.damagedBy(error) })
  }

  /** Brings a live session's text up to date from its events (the log pass's sink). */
  followLive(id: string): void {
    this.live.follow(id)
  }

  private async begin(): Promise<void> {
    try {
      // Opened while the host lists its sessions, not after: a restart answers as soon as that listing ends.
      await this.catalog.whenWoken()
      if (this.disposed) return
      const worker = this.current = new SearchWorker(this.workerModule, { engine: this.engineAsked }, error => {
        if (this.disposed) return
        this.clearSummaries()
        this.start = 'unavailable'
        this.ctx.logger('dsh-sessions').warn('content search is off: %s', error)
      })
      if (!worker.alive) this.start = 'unavailable'
      else await this.load(worker)
    } catch (error) {
      this.ctx.logger('dsh-sessions').warn('content search: %s', error)
    }
    if (this.disposed) return
    if (this.current?.alive === true && this.engine === 'sqlite' && this.file !== undefined) this.scheduleCheck()
    this.catalog.onListed(() => this.runPass())
    if (this.catalog.isListed) this.runPass()
  }

  /** Opens the index file through the worker (at the start, and again when none could be opened before), and takes what it holds. */
  private async load(worker: SearchWorker): Promise<void> {
    // Without a file, the index lives in memory (SQLite's own): nothing is restored, nothing written.
    const loaded = await worker.call('load', { file: this.file ?? null, freeSpaceMiB: this.freeSpaceMiB() })
    if (this.disposed) return
    this.epoch += 1
    this.closed = false
    this.engine = loaded.engine
    this.savedBytes = loaded.bytes
    this.clearSummaries()
    if (loaded.engine === 'none') {
      // Search by title only: without the worker, titles are read the way they are without content search.
      this.start = 'unavailable'
      this.ctx.logger('dsh-sessions').warn('content search is off, titles only: %s', loaded.why ?? 'no SQLite with FTS5')
      this.current = undefined
      await worker.stop()
      return
    }
    for (const [id, summary] of loaded.entries) this.summaries.set(id, summary)
    this.start = this.file === undefined ? 'no-file' : loaded.reason
    if (loaded.reason === 'restored') this.readiness.mark()
    else if (loaded.reason === 'low-disk') this.pause()
    else if (loaded.reason !== 'missing' && loaded.reason !== 'partial') this.ctx.logger('dsh-sessions').info('content index file %s (%s): building it again', this.file, loaded.reason)
  }

  private runPass(): void {
    this.pass.schedule()
    void this.pass.idle().then(async () => {
      if (this.disposed) return
      const settled = this.catalog.isListed && !this.damage.rebuilding && this.diskPause.reason === undefined
      // Ready: every listed session indexed or named as skipped; those still pending are tried again soon.
      const complete = settled && this.pass.pending === 0
      if (settled && !complete) {
        this.readiness.unmark()
        this.retrySoon()
      }
      // A completed build is recorded, and its term tables merged, before it is called ready: the first queries after it do not wait on the merge.
      await this.saved(complete || this.readiness.ready)
      if (complete && !this.disposed && !this.damage.rebuilding && this.diskPause.reason === undefined) this.readiness.mark()
    })
  }

  /** Runs a pass {@link ContentSearchOptions.retryMs} from now, once however often it is asked for. */
  private retrySoon(): void {
    if (this.retryTimer !== undefined || this.disposed) return
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined
      if (!this.disposed && this.diskPause.reason === undefined) this.runPass()
    }, this.retryMs)
    this.retryTimer.unref()
  }

  /** Looks at the file's health and the disk's free space through the worker: damage found is handled as any damage; a disk below the floor pauses indexing; a paused index resumes once the disk has room again (see `DiskPause`); and where no file is open, one is opened. */
  private async check(): Promise<void> {
    const worker = this.current
    if (this.disposed || this.checking || worker?.alive !== true || this.engine !== 'sqlite' || this.file === undefined) return
    this.checking = true
    try {
      const { space, open, bytes } = await worker.call('check', { freeSpaceMiB: this.freeSpaceMiB() })
      if (this.disposed) return
      if (open) this.savedBytes = bytes
      const wasPaused = this.diskPause.reason !== undefined
      const change = this.diskPause.look(space)
      if (change === 'pause') this.onPaused()
      if (change === 'stay' && !wasPaused && !open) {
        // The file was set aside and no fresh one could be opened then.
        await this.load(worker)
        this.runPass()
      }
      if (change !== 'resume') return
      this.ctx.logger('dsh-sessions').info('content search: the disk has room again (%d MiB free); indexing resumes', Math.floor(space.free / 2 ** 20))
      if (!open) await this.load(worker)
      this.runPass()
    } catch (error) {
      if (!this.damagedBy(error)) this.ctx.logger('dsh-sessions').warn('content search: looking at the index file failed: %s', error)
    } finally {
      this.checking = false
    }
  }

  /** Looks at the file and the disk once the delay that stands now has passed, then again: sooner while indexing is paused for lack of space. */
  private scheduleCheck(): void {
    clearTimeout(this.checkTimer)
    if (this.disposed) return
    this.checkTimer = setTimeout(() => void this.check().finally(() => this.scheduleCheck()), this.diskPause.reason === undefined ? this.checkMs : this.pausedCheckMs)
    this.checkTimer.unref()
  }

  /** Pauses indexing for lack of disk space (said once in the log); the next look learns how much space there was. */
  private pause(): void {
    if (this.disposed || !this.diskPause.pause()) return
    this.onPaused()
  }

  /** What pausing does: not ready, said once, a look at once, and looks at the paused cadence after it. */
  private onPaused(): void {
    // Not ready while sessions may wait to be written.
    this.readiness.unmark()
    this.ctx.logger('dsh-sessions').warn('content search: indexing is paused: the disk that holds %s is low on space; what the index holds still answers, and indexing resumes once the disk has room again', this.file)
    setImmediate(() => void this.check())
    if (this.checkTimer !== undefined) this.scheduleCheck()
  }

  /** Whether an error of the worker says a write was not made for lack of disk space; if so, indexing pauses. */
  private lowDiskBy(error: unknown): boolean {
    if (!says(error, LOW_DISK_MESSAGE)) return false
    this.pause()
    return true
  }

  /** Records where the build stands in the file (`complete`: every listed session is indexed), and its size. */
  private async saved(complete: boolean): Promise<void> {
    const worker = this.current
    if (this.engine !== 'sqlite' || this.file === undefined || worker?.alive !== true) return
    try {
      this.savedBytes = (await worker.call('save', { file: this.file, complete, merge: true })).bytes
    } catch (error) {
      if (!this.damagedBy(error) && !this.lowDiskBy(error)) this.ctx.logger('dsh-sessions').warn('content search: recording the index file failed: %s', error)
    }
  }

  /** Whether an error of the worker says it found the index file damaged; if so, the rebuild starts (see `damage-rebuild.ts`). */
  damagedBy(error: unknown): boolean {
    return this.damage.foundIn(error)
  }

  /** Forgets what the index held of a session; whether it held it. */
  private dropSummary(id: string): boolean {
    if (!this.summaries.delete(id)) return false
    this.dropped()
    return true
  }

  private clearSummaries(): void {
    if (this.summaries.size > 0) this.dropped()
    this.summaries.clear()
  }
}
