/**
 * The one background pass over session logs, shared by the title repair and the content index.
 * @module @wishp3/dsh-sessions/host/search/log-pass
 */
import { coldTitle } from '../official/live-sessions.ts'
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-session-projection-cache'
import type {} from '@deepseek-ai/dsh-session-query'
import type { LogHeader, LogLookup, SessionLogLocator } from './log-locator.ts'
import type { EntrySummary, LogRead, LogToRead } from './worker-protocol.ts'
import type { CatalogedSession, SessionCatalog } from '../sessions/session-catalog.ts'

/** Where the pass puts what it read. */
export interface ContentSink {
  /** Whether logs can be read into the content index at all. */
  readonly available: boolean
  /** Whether writing to the content index is paused (a pass stops while it is). */
  readonly paused: boolean
  /** What the content index holds of a session. */
  entry(id: string): EntrySummary | undefined
  /** Every session the content index holds. */
  ids(): string[]
  /** Reads session logs into the content index, a batch at a time: an answer for each log read, the first ones given (the others are for a later batch). */
  readLogs(logs: readonly LogToRead[]): Promise<readonly LogRead[]>
  /** Drops a session whose log is gone. */
  forget(id: string): void
  /** Brings a live session's text up to date from its events. */
  followLive(id: string): void
}

/** What else keeps something of the cold logs the pass visits (the kept snapshot tails of long sessions): asked of each cold session after the content index holds its current text, whether or not its log was read for that just now. */
export interface LogFollower {
  /** Whether it would keep something of this revision of a session's log. */
  wants(id: string, revision: string, bytes: number): Promise<boolean>
  /** Keeps it, reading what it needs of the session. */
  keep(session: LogHeader, revision: string, signal: AbortSignal): Promise<void>
  /** At the end of a pass: the sessions the session catalog lists; what it keeps of any other is dropped. */
  passed(listed: ReadonlySet<string>): Promise<void>
}

/** The share of one core the pass keeps busy by default: with the host's own bookkeeping of the pass and the store reader's listing and tails beside it, the plugin's build stays under half a core (at 0.48 it took 50–51 % at 20,000 realistic sessions). */
export const PASS_DUTY = 0.42

/** Options of {@link LogPass}. */
export interface LogPassOptions {
  /** Largest share of one core the pass keeps busy, between 0 and 1. */
  readonly duty?: number
  /** What else keeps something of the logs visited. */
  readonly follower?: LogFollower
}

/** Figures of the passes so far. */
export interface LogPassStats {
  /** Passes completed. */
  passes: number
  /** Logs read. */
  reads: number
  /** Batches they were read in, each written in one transaction. */
  batches: number
  /** Milliseconds the last completed pass took, rests included. */
  lastPassMs: number
}

/** Failed visits in a row after which a session is named as skipped. */
export const SKIP_AFTER = 3

/** A session whose visits failed, and why the last one did. */
export interface FailedVisit {
  readonly id: string
  readonly tries: number
  readonly reason: string
}

/** Logs a pass reads in one batch at most, and their files' bytes at most (the worker also stops at a bound of the text read, see `index-keeper.ts`). */
export const BATCH = { logs: 32, bytes: 2 ** 20 } as const

/** A session whose visit found a log to read: the file, its revision and its size, unless the worker is to look at them as it reads the log (a log the index does not hold). */
interface LogToVisit {
  readonly session: CatalogedSession
  readonly path: string
  readonly revision: string | undefined
  readonly bytes: number | undefined
}

/** Visits after which the pass looks up the host's services again (see `LogLookup`): a pass over a large store lasts minutes, and a service may be replaced meanwhile. */
const LOOKUP_VISITS = 64

/** Milliseconds after a visit of a session that stopped being live before it is visited once more. */
const LOOK_AGAIN_MS = 10_000

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))
const nextTurn = (): Promise<void> => new Promise(resolve => setImmediate(resolve))

/** The pass. */
export class LogPass {
  readonly stats: LogPassStats = { passes: 0, reads: 0, batches: 0, lastPassMs: 0 }
  private readonly duty: number
  private running: Promise<void> | undefined
  private again = false
  private readonly idleWaiters: (() => void)[] = []
  /** Sessions whose title was looked up without a log file; not looked up again by this process. */
  private readonly titleTried = new Set<string>()
  private readonly controller = new AbortController()
  /** Sessions to visit soon, outside a pass, each with whether to look at it again later. */
  private readonly soon = new Map<string, boolean>()
  /** Sessions whose last visit failed, by id. */
  private readonly failures = new Map<string, FailedVisit>()
  private soonTimer: NodeJS.Timeout | undefined
  private readonly ctx: Context
  private readonly catalog: SessionCatalog
  private readonly logs: SessionLogLocator
  private readonly sink: ContentSink
  private readonly follower: LogFollower | undefined

  constructor(ctx: Context, reads: { readonly catalog: SessionCatalog; readonly logs: SessionLogLocator; readonly sink: ContentSink }, options: LogPassOptions = {}) {
    const { catalog, logs, sink } = reads
    this.ctx = ctx
    this.catalog = catalog
    this.logs = logs
    this.sink = sink
    this.duty = Math.min(1, Math.max(0.05, options.duty ?? PASS_DUTY))
    this.follower = options.follower
    ctx.effect(() => () => {
      this.controller.abort()
      clearTimeout(this.soonTimer)
    }, 'dsh-sessions: log pass')
  }

  /** Starts a pass, or queues one after the pass that runs. */
  schedule(): void {
    if (this.controller.signal.aborted) return
    if (this.running !== undefined) {
      this.again = true
      return
    }
    this.running = (async () => {
      do {
        this.again = false
        await this.pass()
      } while (this.again && !this.controller.signal.aborted)
    })().catch(error => {
      if (!this.controller.signal.aborted) this.ctx.logger('dsh-sessions').warn('log pass: %s', error)
    }).finally(() => {
      this.running = undefined
      for (const resolve of this.idleWaiters.splice(0)) resolve()
    })
  }

  /** Visits one session a moment from now, outside a pass: a session that stopped being live in this process has a log that changed, and the next pass may be minutes away. It is visited again {@link LOOK_AGAIN_MS} later, which finds a log the host was still writing at the first visit (a second visit of an unchanged log reads nothing). Visits wait for a pass that runs, and a session asked for again before its visit is visited once. `delayMs`: milliseconds to wait first, for the host to finish writing its log. */
  visitSoon(id: string, delayMs = 1_000): void {
    this.queue(id, delayMs, true)
  }

  private queue(id: string, delayMs: number, again: boolean): void {
    if (this.controller.signal.aborted) return
    this.soon.set(id, (this.soon.get(id) ?? false) || again)
    if (this.soonTimer !== undefined) return
    this.soonTimer = setTimeout(() => {
      this.soonTimer = undefined
      void this.visitQueued()
    }, delayMs)
    this.soonTimer.unref()
  }

  private async visitQueued(): Promise<void> {
    await this.idle()
    for (const [id, again] of [...this.soon]) {
      this.soon.delete(id)
      const session = this.catalog.get(id)
      if (session === undefined || this.controller.signal.aborted || this.sink.paused) continue
      const log = await this.tryVisit(session, this.logs.lookup())
      if (log !== undefined) await this.readBatch([log])
      if (again) setTimeout(() => this.queue(id, 0, false), LOOK_AGAIN_MS).unref()
    }
  }

  /** Sessions whose last visit failed fewer than {@link SKIP_AFTER} times in a row: they are still being tried. */
  get pending(): number {
    let count = 0
    for (const failure of this.failures.values()) if (failure.tries < SKIP_AFTER) count += 1
    return count
  }

  /** Sessions whose visits failed {@link SKIP_AFTER} times in a row. */
  skipped(limit: number): { count: number; sessions: FailedVisit[] } {
    const sessions: FailedVisit[] = []
    let count = 0
    for (const failure of this.failures.values()) {
      if (failure.tries < SKIP_AFTER) continue
      count += 1
      if (sessions.length < limit) sessions.push(failure)
    }
    return { count, sessions }
  }

  /** Visits a session, recording whether it failed. Returns its log when that is to be read. */
  private async tryVisit(session: CatalogedSession, look: LogLookup): Promise<LogToVisit | undefined> {
    try {
      const log = await this.visit(session, look)
      if (log === undefined) this.failures.delete(session.id)
      return log
    } catch (error) {
      this.failed(session, error)
      return undefined
    }
  }

  /** Records a failed visit; a failure while the sink is paused (or the pass stops) is not the session's. */
  private failed(session: CatalogedSession, error: unknown): void {
    if (this.controller.signal.aborted || this.sink.paused) return
    const reason = error instanceof Error ? error.message : String(error)
    this.failures.set(session.id, { id: session.id, tries: (this.failures.get(session.id)?.tries ?? 0) + 1, reason })
    this.ctx.logger('dsh-sessions').warn('log pass: reading %s failed: %s', session.id, reason)
  }

  /** Reads a batch of logs into the content index, then gives each session its title and the follower its log. Returns the logs the batch left for the next (past the worker's bound of text). */
  private async readBatch(logs: readonly LogToVisit[]): Promise<LogToVisit[]> {
    let read: readonly LogRead[]
    try {
      read = await this.sink.readLogs(logs.map(({ session, path, revision }) => ({ session: session.id, path, ...(revision === undefined ? {} : { revision }) })))
    } catch (error) {
      for (const { session } of logs) {
        if (this.sink.available) this.failed(session, error)
        else await this.titleWithoutLog(session.id)
      }
      return []
    }
    this.stats.batches += 1
    for (const [n, one] of read.entries()) {
      const log = logs[n]!
      const { session } = log
      if ('failed' in one) {
        this.failed(session, new Error(one.failed))
        continue
      }
      this.failures.delete(session.id)
      this.stats.reads += 1
      if (!one.found) {
        // A log looked at by the worker alone and not there: the session is titled as one without a log.
        if (log.revision === undefined) await this.titleWithoutLog(session.id)
        continue
      }
      if (one.title !== undefined) this.catalog.repairTitle(session.id, one.title)
      const revision = one.revision ?? log.revision
      if (revision !== undefined) await this.follow(session, revision, one.bytes ?? log.bytes)
    }
    return read.length === 0 ? [] : logs.slice(read.length)
  }

  /** Resolves when no pass runs or is queued. */
  idle(): Promise<void> {
    if (this.running === undefined) return Promise.resolve()
    return new Promise(resolve => this.idleWaiters.push(resolve))
  }

  private async pass(): Promise<void> {
    const started = performance.now()
    const listed = this.catalog.list()
    const order = [...listed.filter(session => this.catalog.needsTitle(session.id)), ...listed.filter(session => !this.catalog.needsTitle(session.id))]
    // Logs to read are gathered into a batch, read in one transaction once it is full, and at the end.
    let batch: LogToVisit[] = []
    let look = this.logs.lookup()
    for (let next = 0; next < order.length || batch.length > 0;) {
      // Stopped, or paused for lack of disk space: the pass ends here, uncounted, and the next one starts over.
      if (this.controller.signal.aborted || this.sink.paused) return
      const spent = performance.now()
      if (next % LOOKUP_VISITS === 0) look = this.logs.lookup()
      const log = next < order.length ? await this.tryVisit(order[next++]!, look) : undefined
      if (log !== undefined) batch.push(log)
      if (batch.length >= BATCH.logs || batch.reduce((sum, one) => sum + (one.bytes ?? 0), 0) >= BATCH.bytes || (next >= order.length && batch.length > 0)) batch = await this.readBatch(batch)
      const elapsed = performance.now() - spent
      await (elapsed >= 1 ? sleep(elapsed * (1 / this.duty - 1)) : nextTurn())
    }
    if (this.sink.paused) return
    for (const id of this.indexedButGone()) this.sink.forget(id)
    for (const id of this.failures.keys()) if (this.catalog.get(id) === undefined) this.failures.delete(id)
    if (this.catalog.isListed && this.follower !== undefined) {
      await this.follower.passed(new Set(this.catalog.list().map(session => session.id)))
        .catch((error: unknown) => { this.ctx.logger('dsh-sessions').warn('log pass: %s', error) })
    }
    this.stats.passes += 1
    this.stats.lastPassMs = performance.now() - started
  }

  private indexedButGone(): string[] {
    return this.catalog.isListed ? this.sink.ids().filter(id => this.catalog.get(id) === undefined) : []
  }

  /** Visits a session: its title, a live session followed, and the follower given a log the index already holds. Returns its log when the index lacks its current text. `look`: the host's services, looked up for a stretch of visits. */
  private async visit(session: CatalogedSession, look: LogLookup): Promise<LogToVisit | undefined> {
    if (this.catalog.get(session.id) === undefined) return undefined
    if (look.live(session.id) !== undefined) {
      this.sink.followLive(session.id)
      return undefined
    }
    const path = look.path(session)
    if (path === undefined || !this.sink.available) {
      await this.titleWithoutLog(session.id)
      return undefined
    }
    const known = this.sink.entry(session.id)
    // A log the index does not hold is read whatever its revision: the worker looks at the file as it reads it, in its own thread, so a first build costs the host's thread no look at each log.
    if (known === undefined) return { session, path, revision: undefined, bytes: undefined }
    const state = await look.state(session)
    if (typeof state !== 'object') {
      await this.titleWithoutLog(session.id)
      return undefined
    }
    const { revision, bytes } = state
    if (known.revision !== revision) return { session, path, revision, bytes }
    if (known.title !== undefined) this.catalog.repairTitle(session.id, known.title)
    await this.follow(session, revision, bytes)
    return undefined
  }

  /** Lets the follower keep what it wants of a log; its failure is logged and costs the content index nothing. */
  private async follow(session: LogHeader, revision: string, bytes: number | undefined): Promise<void> {
    const follower = this.follower
    if (follower === undefined || bytes === undefined) return
    try {
      if (await follower.wants(session.id, revision, bytes)) await follower.keep(session, revision, this.controller.signal)
    } catch (error) {
      if (!this.controller.signal.aborted) this.ctx.logger('dsh-sessions').warn('log pass: keeping the snapshot tail of %s failed: %s', session.id, error)
    }
  }

  private async titleWithoutLog(id: string): Promise<void> {
    if (!this.catalog.needsTitle(id) || this.titleTried.has(id)) return
    this.titleTried.add(id)
    const title = await coldTitle(this.ctx, id, this.controller.signal)
    if (title !== undefined) this.catalog.repairTitle(id, title)
  }
}
