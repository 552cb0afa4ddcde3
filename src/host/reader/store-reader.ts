/**
 * The host's end of the store reader: a thread of its own that lists the host's JSONL store and reads
 * long logs whole for their tails (see `store-reader-thread.ts`), started at the first call and
 * stopped once idle, or at once after a listing. Where the host's persistence is not the JSONL
 * backend, or the thread cannot serve, it answers `undefined` and the caller reads on the host's
 * thread as before.
 * @module @wishp3/dsh-sessions/host/reader/store-reader
 */
import { resolve } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import type { SessionHeader } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-persistence'
import JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import { BoundedMap } from '../bounded-map.ts'
import type { TrimmedSurface } from '../references/retention.ts'
import type { ArgsOf, ResultOf } from '../worker-calls.ts'
import { WorkerThread } from '../worker-thread.ts'
import { encodingChecked } from '../official/store-encoding.ts'
import type { StoreReaderCalls, StoreReaderStart } from './store-reader-calls.ts'

/** The thread's module: the TypeScript source beside this file when the plugin runs from source (its tests), else the bundle's own `store-reader.js` beside `index.js`. */
export function storeReaderModule(): URL {
  return import.meta.url.endsWith('.ts') ? new URL('./store-reader-thread.ts', import.meta.url) : new URL('./store-reader.js', import.meta.url)
}

/** Milliseconds without a call after which the thread is stopped: long enough to stay through a pass that keeps tails, so a pass starts no thread per log. */
export const IDLE_STOP_MS = 30_000

/** Milliseconds a read tail is served again while its log is unchanged: the thread keeps nothing between calls. */
const TAIL_TTL_MS = 60_000

/** The most the thread's young generation takes, in MiB (a thread's default on a 64-bit machine is 48). */
export const READER_YOUNG_GENERATION_MB = 4

/** Options of {@link StoreReader}. */
export interface StoreReaderOptions {
  readonly idleStopMs?: number
  /** The thread's module (a test gives another). */
  readonly module?: URL
}

/** What the store reader has done: listings and tails its thread answered, and why it stopped serving, once it did. */
export interface StoreReaderStatus {
  readonly listings: number
  readonly tails: number
  readonly failure?: string
}

/** The store reader; its thread lives on the fiber that constructs it. */
export class StoreReader {
  private thread: WorkerThread<StoreReaderCalls> | undefined
  /** A thread being started: the host's own check of the store's encoding is awaited first. */
  private starting: Promise<WorkerThread<StoreReaderCalls> | undefined> | undefined
  private idleTimer: NodeJS.Timeout | undefined
  private calls = 0
  private failure: string | undefined
  private readonly served = { listings: 0, tails: 0 }
  private stopped = false
  /** Tails being read or read lately, by session, revision and budget. */
  private readonly tails = new BoundedMap<string, { readonly read: Promise<TrimmedSurface | undefined>; expires: number }>(16)
  private readonly ctx: Context
  private readonly idleStopMs: number
  private readonly module: URL

  constructor(ctx: Context, options: StoreReaderOptions = {}) {
    this.ctx = ctx
    this.idleStopMs = options.idleStopMs ?? IDLE_STOP_MS
    this.module = options.module ?? storeReaderModule()
    ctx.effect(() => () => {
      this.stopped = true
      clearTimeout(this.idleTimer)
      void this.thread?.stop()
      this.thread = undefined
    }, 'dsh-sessions: store reader')
  }

  /** What it has done so far. */
  status(): StoreReaderStatus {
    return { ...this.served, ...(this.failure === undefined ? {} : { failure: this.failure }) }
  }

  /** Every stored session's header, listed in the thread. Returns `undefined` when the thread cannot list (the caller lists on the host's thread); rejects with the listing's own failure. */
  list(): Promise<readonly SessionHeader[] | undefined> {
    return this.run('list', {})
  }

  /** The part of a cold session's surface any whole-session snapshot of it reads under `maxBytes` (see `tailOf`), read in the thread; a read of the same revision and budget under way or made in the last minute is shared. `revision`: the log's revision looked at just before. Returns `undefined` when the thread cannot read (the caller reads on the host's thread); rejects with the read's own failure. */
  tail(id: string, revision: string, maxBytes: number): Promise<TrimmedSurface | undefined> {
    const key = `${id}\u0000${revision}\u0000${maxBytes}`
    const known = this.tails.get(key)
    if (known !== undefined && known.expires > Date.now()) return known.read
    const read = this.run('tail', { id, maxBytes })
    const entry = { read, expires: Number.POSITIVE_INFINITY }
    this.tails.set(key, entry)
    const forget = (): void => { if (this.tails.get(key) === entry) this.tails.delete(key) }
    read.then(tail => { if (tail === undefined) forget(); else entry.expires = Date.now() + TAIL_TTL_MS }, forget)
    return read
  }

  private async run<K extends 'list' | 'tail'>(call: K, args: ArgsOf<StoreReaderCalls[K]>): Promise<ResultOf<StoreReaderCalls[K]> | undefined> {
    const thread = await this.started()
    if (thread === undefined) return undefined
    this.calls += 1
    clearTimeout(this.idleTimer)
    try {
      const result = await thread.call(call, args)
      if (call === 'list') this.served.listings += 1
      else this.served.tails += 1
      return result
    } catch (error) {
      // The thread gone (stopped idle meanwhile, or failed): the caller reads on the host's thread.
      if (!thread.alive) return undefined
      throw error
    } finally {
      this.calls -= 1
      // A listing grows the thread's heap by the whole store's headers: the thread is stopped as soon as nothing else is asked of it.
      if (this.calls === 0 && !this.stopped && call === 'list') this.stopIdle(thread)
      else if (this.calls === 0 && !this.stopped) {
        this.idleTimer = setTimeout(() => this.stopIdle(thread), this.idleStopMs)
        this.idleTimer.unref()
      }
    }
  }

  private stopIdle(thread: WorkerThread<StoreReaderCalls>): void {
    if (this.calls > 0 || this.thread !== thread) return
    this.thread = undefined
    void thread.stop()
  }

  /** The running thread, started when the host's persistence is the JSONL backend; `undefined` once a thread failed. */
  private started(): Promise<WorkerThread<StoreReaderCalls> | undefined> {
    if (this.stopped || this.failure !== undefined) return Promise.resolve(undefined)
    if (this.thread?.alive === true) return Promise.resolve(this.thread)
    const persistence = this.ctx.get('sessionPersistence')
    if (!(persistence instanceof JsonlSessionPersistence)) return Promise.resolve(undefined)
    this.starting ??= this.start(persistence).finally(() => { this.starting = undefined })
    return this.starting
  }

  private async start(persistence: JsonlSessionPersistence): Promise<WorkerThread<StoreReaderCalls> | undefined> {
    const checked = await encodingChecked(persistence)
    if (this.stopped || this.failure !== undefined) return undefined
    const { root, compression, packChunks } = persistence.config
    const start: StoreReaderStart = { root: resolve(root), encodingChecked: checked, ...(compression === undefined ? {} : { compression }), ...(packChunks === undefined ? {} : { packChunks }) }
    // A small young generation keeps what a long log's parse leaves resident small; the thread reads in the background, at the lowest priority.
    const thread = new WorkerThread<StoreReaderCalls>('store reader', this.module, { data: start, youngGenerationMb: READER_YOUNG_GENERATION_MB, onFailure: error => {
      if (this.thread !== thread) return
      this.thread = undefined
      this.failure = error.message
      this.ctx.logger('dsh-sessions').warn('store reader: %s; the store is read on the host\'s thread', error)
    } })
    this.thread = thread.alive ? thread : undefined
    return this.thread
  }
}
