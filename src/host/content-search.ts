/**
 * Search by what was said: the content index kept current in the
 * background, and its queries.
 *
 * After the session index's first listing, the saved index file is restored
 * (it answers at once), then the log pass reads every cold session whose
 * log changed since, or that the file lacks; a missing, corrupt or outdated
 * file just means every log is read. Live sessions follow their own events
 * (a message is searchable a moment after it is appended). A session that
 * leaves the session index leaves the content index. The file is written
 * after each pass that changed something and at most every
 * {@link ContentSearchOptions.saveDelayMs} while live sessions change; a
 * write that fails is logged and tried again at the next change. While the
 * file is written the index does not change: what arrives meanwhile waits
 * and is applied right after. Nothing
 * here can fail the plugin's start: every fault is logged and leaves search
 * with what it has.
 * @module @wishp3/dsh-sessions/host/content-search
 */
import type { Context } from '@deepseek-ai/cordis'
import { dshHomePath } from '@deepseek-ai/dsh-home-paths'
import type { SessionHeader } from '@deepseek-ai/dsh-session'
import { LogPass, type ContentSink } from './log-pass.ts'
import type { SessionLogReader } from './log-reader.ts'
import { ContentIndex, type ContentEntry, type ContentHit } from './search/content-index.ts'
import { conversationOf, messageText, titleOf } from './search/conversation.ts'
import { readIndexFile, writeIndexFile } from './search/index-file.ts'
import type { QueryTerm } from './search/text.ts'
import type { SessionIndex } from './session-index.ts'

/**
 * Where the plugin saves the content index: its own folder of the harness home.
 * @returns `$DSH_HOME/dsh-sessions/content-index.json` (`~/.dsh/…` by default).
 */
export function contentIndexFile(): string {
  return dshHomePath('dsh-sessions', 'content-index.json')
}

/** Options of {@link ContentSearch}. */
export interface ContentSearchOptions {
  /** Where the index is saved; not saved when omitted. */
  readonly file?: string
  /** Largest share of one core the log pass keeps busy. */
  readonly duty?: number
  /** Milliseconds a live session waits after an event before its text is indexed again. */
  readonly liveDelayMs?: number
  /** Longest wait before changes of live sessions are saved. */
  readonly saveDelayMs?: number
}

/** Where the content index stands. */
export interface ContentSearchStatus {
  /** Whether the index answers for every session: restored from its file, or built by a first pass. */
  readonly ready: boolean
  readonly sessions: number
  /** How the start went: `restored`, or why the file could not be used. */
  readonly start: 'pending' | 'restored' | 'missing' | 'unreadable' | 'corrupt' | 'outdated' | 'no-file'
  readonly passes: number
  readonly reads: number
  readonly lastPassMs: number
  /** Bytes of the last file written. */
  readonly savedBytes: number
}

/** The content search. */
export class ContentSearch implements ContentSink {
  private index = ContentIndex.empty()
  private readonly pass: LogPass
  private ready = false
  private start: ContentSearchStatus['start'] = 'pending'
  private readonly readyWaiters: (() => void)[] = []
  private dirty = false
  private savedBytes = 0
  private saveTimer: ReturnType<typeof setTimeout> | undefined
  private saving: Promise<void> | undefined
  /** Changes that arrived while the file was written: a new entry, or `null` for a session to forget. */
  private readonly pending = new Map<string, ContentEntry | null>()
  private readonly liveTimers = new Map<string, ReturnType<typeof setTimeout>>()
  private readonly liveDelayMs: number
  private readonly saveDelayMs: number
  private disposed = false
  private readonly ctx: Context
  private readonly sessions: SessionIndex
  private readonly file: string | undefined

  constructor(ctx: Context, sessions: SessionIndex, reader: SessionLogReader, options: ContentSearchOptions = {}) {
    this.ctx = ctx
    this.sessions = sessions
    this.file = options.file
    this.liveDelayMs = options.liveDelayMs ?? 250
    this.saveDelayMs = options.saveDelayMs ?? 30_000
    this.pass = new LogPass(ctx, sessions, reader, this, options.duty === undefined ? {} : { duty: options.duty })
    ctx.on('session/event', (session, event) => {
      if (messageText(event) !== undefined || titleOf(event) !== undefined) this.liveChanged(session.id)
    })
    ctx.effect(() => () => {
      this.disposed = true
      for (const timer of this.liveTimers.values()) clearTimeout(timer)
      clearTimeout(this.saveTimer)
    }, 'dsh-sessions: content search')
    sessions.onRemoved(id => this.forget(id))
    void this.begin()
  }

  /** Where the index stands. */
  status(): ContentSearchStatus {
    return { ready: this.ready, sessions: this.index.size, start: this.start, ...this.pass.stats, savedBytes: this.savedBytes }
  }

  /** Resolves once the index answers for every session. */
  whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve()
    return new Promise(resolve => this.readyWaiters.push(resolve))
  }

  /** Resolves when the log pass has nothing left to read. */
  idle(): Promise<void> {
    return this.pass.idle()
  }

  /**
   * Sessions whose text has every term, best first, then newest first.
   * @param terms - the query's terms.
   * @param admit - whether a session may be found; applied before any excerpt is made.
   * @param limit - most sessions returned.
   * @returns the hits with their excerpts.
   */
  find(terms: readonly QueryTerm[], admit: (id: string) => boolean, limit: number): ContentHit[] {
    const createdAt = (id: string): number => this.sessions.get(id)?.createdAt ?? 0
    return this.index.search(terms, id => this.sessions.get(id) !== undefined && admit(id), limit, (a, b) => createdAt(b) - createdAt(a))
  }

  entry(id: string): ContentEntry | undefined {
    const waiting = this.pending.get(id)
    return waiting === null ? undefined : waiting ?? this.index.get(id)
  }

  ids(): string[] {
    if (this.pending.size === 0) return this.index.ids()
    const ids = new Set(this.index.ids())
    for (const [id, entry] of this.pending) {
      if (entry === null) ids.delete(id)
      else ids.add(id)
    }
    return [...ids]
  }

  put(id: string, entry: ContentEntry): void {
    if (this.saving !== undefined) {
      this.pending.set(id, entry)
      return
    }
    this.index.set(id, entry)
    this.dirty = true
  }

  forget(id: string): void {
    if (this.saving !== undefined) {
      this.pending.set(id, null)
      return
    }
    if (this.index.delete(id)) this.dirty = true
  }

  followLive(id: string): void {
    const session = this.ctx.sessions.get(id as SessionHeader['id'])
    if (session === undefined) return
    const revision = `live:${session.seq}`
    if (this.entry(id)?.revision === revision) return
    this.put(id, { revision, ...conversationOf(session.events) })
  }

  private liveChanged(id: string): void {
    if (this.disposed || this.liveTimers.has(id)) return
    this.liveTimers.set(id, setTimeout(() => {
      this.liveTimers.delete(id)
      if (this.sessions.get(id) === undefined) return
      try {
        this.followLive(id)
        this.saveSoon(this.saveDelayMs)
      } catch (error) {
        this.ctx.logger('dsh-sessions').warn('content search: %s', error)
      }
    }, this.liveDelayMs))
  }

  private async begin(): Promise<void> {
    try {
      await this.sessions.firstListing()
      if (this.disposed) return
      if (this.file === undefined) {
        this.start = 'no-file'
      } else {
        const read = await readIndexFile(this.file)
        if (this.disposed) return
        if (read.ok) {
          this.index = read.index
          this.start = 'restored'
          this.markReady()
        } else {
          this.start = read.reason
          if (read.reason !== 'missing') this.ctx.logger('dsh-sessions').info('content index file %s (%s): building it again', this.file, read.reason)
        }
      }
    } catch (error) {
      this.ctx.logger('dsh-sessions').warn('content search: %s', error)
    }
    if (this.disposed) return
    this.sessions.onListed(() => this.runPass())
    if (this.sessions.isListed) this.runPass()
  }

  private runPass(): void {
    this.pass.schedule()
    void this.pass.idle().then(() => {
      if (this.disposed) return
      if (this.sessions.isListed) this.markReady()
      this.saveSoon(0)
    })
  }

  private markReady(): void {
    if (this.ready) return
    this.ready = true
    for (const resolve of this.readyWaiters.splice(0)) resolve()
  }

  private saveSoon(delayMs: number): void {
    if (this.file === undefined || this.disposed || !this.dirty) return
    if (this.saveTimer !== undefined) {
      if (delayMs > 0) return
      clearTimeout(this.saveTimer)
    }
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined
      void this.save()
    }, delayMs)
  }

  private async save(): Promise<void> {
    const file = this.file
    if (file === undefined || this.saving !== undefined || !this.dirty) return
    this.dirty = false
    this.saving = (async () => {
      await this.index.vacuum()
      this.savedBytes = await writeIndexFile(file, this.index)
    })().catch(error => {
      this.dirty = true
      this.ctx.logger('dsh-sessions').warn('content search: saving %s failed: %s', file, error)
    }).finally(() => {
      this.saving = undefined
      for (const [id, entry] of this.pending) {
        if (entry === null) this.forget(id)
        else this.put(id, entry)
      }
      this.pending.clear()
      this.saveSoon(this.saveDelayMs)
    })
    await this.saving
  }
}
