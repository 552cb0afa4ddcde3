/**
 * What the content search is started with, what it says of where it stands, and the one way to read
 * a worker's error.
 * @module @wishp3/dsh-sessions/host/search/content-status
 */
import type { FailedVisit, LogFollower } from './log-pass.ts'
import type { IndexEngine, LoadReason } from './worker-protocol.ts'

/** Milliseconds between looks at the file's health and the disk's free space, by default. */
export const CHECK_MS = 15_000

/** Milliseconds between looks at the disk while indexing is paused for lack of space, by default: a look is one `statfs`, and indexing resumes this soon after space is freed. */
export const PAUSED_CHECK_MS = 3_000

/** Milliseconds before a pass that left sessions pending runs again, by default. */
export const RETRY_MS = 30_000

/** Options of the content search. */
export interface ContentSearchOptions {
  /** Where the index is saved; not saved when omitted. */
  readonly file?: string
  /** Largest share of one core the log pass keeps busy. */
  readonly duty?: number
  /** What else the log pass lets keep something of the logs it visits. */
  readonly follower?: LogFollower
  /** Milliseconds a live session waits after an event before its text is indexed again. */
  readonly liveDelayMs?: number
  /** The `indexFreeSpaceMiB` setting, read at each look at the disk (0, the default floor, when omitted). */
  readonly freeSpaceMiB?: () => number
  /** Milliseconds between looks at the file's health and the disk's free space. */
  readonly checkMs?: number
  /** Milliseconds between those looks while indexing is paused for lack of space (never more than {@link checkMs}). */
  readonly pausedCheckMs?: number
  /** Milliseconds before a pass that left sessions pending runs again. */
  readonly retryMs?: number
  /** The worker's module (tests only). */
  readonly workerModule?: URL
  /** `none` acts as where `node:sqlite` or FTS5 is missing (tests only); by default SQLite where it can serve. */
  readonly engine?: IndexEngine
}

/** Where the content index stands. */
export interface ContentSearchStatus {
  /** Whether the index answers for every session: restored from its file, or built by a first pass. */
  readonly ready: boolean
  /** Whether the search worker runs. */
  readonly available: boolean
  readonly sessions: number
  /** How the start went: `restored`, `partial` (a build that had not completed: it goes on), or why the file could not be used. */
  readonly start: 'pending' | LoadReason | 'no-file' | 'unavailable'
  /** Where the index lives: `sqlite`, or `none` where `node:sqlite` or FTS5 is missing (titles only); `undefined` until the worker has opened it. */
  readonly engine: IndexEngine | undefined
  readonly passes: number
  readonly reads: number
  /** Batches the logs were read in, each written in one transaction. */
  readonly batches: number
  readonly lastPassMs: number
  /** Bytes the index file took when it was last checked (after a pass, or when opened). */
  readonly savedBytes: number
  /** Times the file was found damaged while in use, set aside and built again. */
  readonly damaged: number
  /** `low-disk` while indexing is paused: the index's disk has less free space than the floor, or refused a write. */
  readonly paused?: 'low-disk'
  /** The disk's free space and the floor, in bytes, at the last look. */
  readonly disk?: { readonly free: number; readonly floor: number }
  /** Sessions whose log could not be read or whose text could not be written: tried again. */
  readonly pending: number
  /** Sessions whose visits failed again and again, with the last reason (a few named). */
  readonly skipped: { readonly count: number; readonly sessions: readonly FailedVisit[] }
}

/** Whether a worker's error message holds one of the protocol's sentences. */
export const says = (error: unknown, sentence: string): boolean => String(error instanceof Error ? error.message : error).includes(sentence)
