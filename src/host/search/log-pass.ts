/**
 * The one background pass over session logs, shared by the title repair and
 * the content index: each cold session whose log changed since the content
 * index last read it (or that the index never read) is read once, and that
 * one read gives both its latest title and its searchable text. Sessions
 * still lacking a title go first, newest first; live sessions are left to
 * their events.
 *
 * Pace: after each session the pass rests in proportion to the time it just
 * spent, so it keeps at most {@link LogPassOptions.duty} of one core and the
 * host's requests are served between sessions. A pass runs after every
 * successful listing of the session index; one that is asked for while a
 * pass runs follows it.
 *
 * Without a log file to read (no persistence backend that locates one), or
 * without the search worker, a session's missing title is read once per
 * process through the title cache or the query service instead, and it has
 * no searchable text.
 * @module @wishp3/dsh-sessions/host/search/log-pass
 */
import type { Context } from '@deepseek-ai/cordis'
import type { SessionHeader } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-projection-cache'
import type {} from '@deepseek-ai/dsh-session-query'
import type { SessionLogLocator } from './log-locator.ts'
import type { EntrySummary } from './worker-protocol.ts'
import type { SessionIndex } from '../sessions/session-index.ts'

/** Where the pass puts what it read. */
export interface ContentSink {
  /** Whether logs can be read into the content index at all. */
  readonly available: boolean
  /** What the content index holds of a session. */
  entry(id: string): EntrySummary | undefined
  /** Every session the content index holds. */
  ids(): string[]
  /**
   * Reads a session's log into the content index.
   * @returns whether the file was there, and the latest title it holds.
   */
  readLog(id: string, path: string, revision: string): Promise<{ found: boolean; title: string | undefined }>
  /** Drops a session whose log is gone. */
  forget(id: string): void
  /** Brings a live session's text up to date from its events. */
  followLive(id: string): void
}

/** Options of {@link LogPass}. */
export interface LogPassOptions {
  /** Largest share of one core the pass keeps busy, between 0 and 1. */
  readonly duty?: number
}

/** Figures of the passes so far. */
export interface LogPassStats {
  /** Passes completed. */
  passes: number
  /** Logs read. */
  reads: number
  /** Milliseconds the last completed pass took, rests included. */
  lastPassMs: number
}

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))
const nextTurn = (): Promise<void> => new Promise(resolve => setImmediate(resolve))

/** The pass. */
export class LogPass {
  readonly stats: LogPassStats = { passes: 0, reads: 0, lastPassMs: 0 }
  private readonly duty: number
  private running: Promise<void> | undefined
  private again = false
  private readonly idleWaiters: (() => void)[] = []
  /** Sessions whose title was looked up without a log file; not looked up again by this process. */
  private readonly titleTried = new Set<string>()
  private readonly controller = new AbortController()
  private readonly ctx: Context
  private readonly sessions: SessionIndex
  private readonly logs: SessionLogLocator
  private readonly sink: ContentSink

  constructor(ctx: Context, sessions: SessionIndex, logs: SessionLogLocator, sink: ContentSink, options: LogPassOptions = {}) {
    this.ctx = ctx
    this.sessions = sessions
    this.logs = logs
    this.sink = sink
    this.duty = Math.min(1, Math.max(0.05, options.duty ?? 0.45))
    ctx.effect(() => () => this.controller.abort(), 'dsh-sessions: log pass')
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

  /** Resolves when no pass runs or is queued. */
  idle(): Promise<void> {
    if (this.running === undefined) return Promise.resolve()
    return new Promise(resolve => this.idleWaiters.push(resolve))
  }

  private async pass(): Promise<void> {
    const started = performance.now()
    const listed = this.sessions.list()
    const order = [...listed.filter(session => this.sessions.needsTitle(session.id)), ...listed.filter(session => !this.sessions.needsTitle(session.id))]
    for (const session of order) {
      if (this.controller.signal.aborted) return
      const spent = performance.now()
      try {
        await this.visit(session)
      } catch (error) {
        if (this.controller.signal.aborted) return
        this.ctx.logger('dsh-sessions').warn('log pass: reading %s failed: %s', session.id, error)
      }
      const elapsed = performance.now() - spent
      await (elapsed >= 1 ? sleep(elapsed * (1 / this.duty - 1)) : nextTurn())
    }
    for (const id of this.indexedButGone()) this.sink.forget(id)
    this.stats.passes += 1
    this.stats.lastPassMs = performance.now() - started
  }

  private indexedButGone(): string[] {
    return this.sessions.isListed ? this.sink.ids().filter(id => this.sessions.get(id) === undefined) : []
  }

  private async visit(session: { id: string; cwd: string | undefined; createdAt: number }): Promise<void> {
    if (this.sessions.get(session.id) === undefined) return
    if (this.ctx.sessions.get(session.id as SessionHeader['id']) !== undefined) {
      this.sink.followLive(session.id)
      return
    }
    const path = this.logs.path(session)
    const revision = path === undefined ? undefined : await this.logs.revision(session)
    if (path === undefined || revision === undefined || !this.sink.available) {
      await this.titleWithoutLog(session.id)
      return
    }
    const known = this.sink.entry(session.id)
    if (known?.revision === revision) {
      if (known.title !== undefined) this.sessions.repairTitle(session.id, known.title)
      return
    }
    let read: { found: boolean; title: string | undefined }
    try {
      read = await this.sink.readLog(session.id, path, revision)
    } catch (error) {
      if (this.sink.available) throw error
      await this.titleWithoutLog(session.id)
      return
    }
    this.stats.reads += 1
    if (!read.found) return
    if (read.title !== undefined) this.sessions.repairTitle(session.id, read.title)
  }

  private async titleWithoutLog(id: string): Promise<void> {
    if (!this.sessions.needsTitle(id) || this.titleTried.has(id)) return
    this.titleTried.add(id)
    const signal = this.controller.signal
    const cache = this.ctx.get('sessionProjectionCache')
    const title = cache !== undefined
      ? (await cache.coldSnapshot(id as SessionHeader['id'], signal)).values as { title?: string | null }
      : await this.ctx.sessionQuery.readTitle(id as SessionHeader['id'], signal)
    if (typeof title?.title === 'string') this.sessions.repairTitle(id, title.title)
  }
}
