/**
 * The content index as the search worker keeps it: changes, queries, and its
 * file. Two engines:
 *
 * - `sqlite` (where `node:sqlite` has FTS5): the index lives on disk (see
 *   `sqlite-index.ts`); each change is written as it is applied, and a save
 *   only records whether the index is complete and folds the write-ahead log
 *   into the file.
 * - `memory` (elsewhere, or when asked): the index lives in memory (see
 *   `content-index.ts`) and a save rewrites the JSON file whole (see
 *   `index-file.ts`). While that file is written the index must not change,
 *   so changes that arrive meanwhile wait in arrival order and are applied
 *   once the write settles, whether it succeeded, failed or was cancelled:
 *   none is lost, and none reaches the half-written file.
 *
 * The engine is chosen when the file is loaded; until then changes go to
 * memory. Runs wherever it is constructed (the worker thread, or a test).
 * @module @wishp3/dsh-sessions/host/search/index-keeper
 */
import { rm } from 'node:fs/promises'
import type { Writable } from 'node:stream'
import { ContentIndex, type ContentEntry, type ContentHit } from './content-index.ts'
import { readIndexFile, writeIndexFile } from './index-file.ts'
import { removeStaleTemporaries } from './index-temporary.ts'
import { readLogFile } from '../official/log-file.ts'
import { loadSqlite, SqliteIndex } from './sqlite-index.ts'
import type { QueryTerm } from './text.ts'
import type { IndexEngine, WorkerCalls } from './worker-protocol.ts'

/** Options of {@link IndexKeeper}. */
export interface IndexKeeperOptions {
  /** Opens the temporary file a save of the memory engine writes (tests put faults here). */
  readonly open?: (path: string) => Writable
  /** The engine to use; by default `sqlite` where it can serve, else `memory`. */
  readonly engine?: IndexEngine
}

/**
 * The SQLite file of an index whose JSON file (the memory engine's) is `file`.
 * @param file - the JSON file's path, `….json`.
 * @returns the same path ending in `.sqlite`.
 */
export function sqliteFileOf(file: string): string {
  return `${file.replace(/\.json$/, '')}.sqlite`
}

/** The worker's index and its file. */
export class IndexKeeper {
  private index = ContentIndex.empty()
  private disk: SqliteIndex | undefined
  private readonly engine: IndexEngine | undefined
  private saving: { readonly done: Promise<void>; readonly controller: AbortController } | undefined
  private readonly waiting = new Map<string, ContentEntry | null>()
  private readonly open: ((path: string) => Writable) | undefined

  constructor(options: IndexKeeperOptions = {}) {
    this.open = options.open
    this.engine = options.engine
  }

  /** Whether a save is under way (changes wait meanwhile). */
  get isSaving(): boolean {
    return this.saving !== undefined
  }

  /**
   * Indexes a session's text, or forgets it (`null`); waits while the file is written.
   * @param session - the session.
   * @param entry - its text, or `null`.
   */
  apply(session: string, entry: ContentEntry | null): void {
    if (this.disk !== undefined) {
      if (entry === null) this.disk.delete(session)
      else this.disk.set(session, entry)
    } else if (this.saving !== undefined) {
      // Arrival order decides: a later change of the same session replaces the earlier one.
      this.waiting.delete(session)
      this.waiting.set(session, entry)
    } else if (entry === null) this.index.delete(session)
    else this.index.set(session, entry)
  }

  /**
   * Reads a session's log file and indexes its text.
   * @param args - the session, its log file and that file's revision.
   * @returns whether the file was there, and its latest title.
   */
  async read({ session, path, revision }: WorkerCalls['read']['args']): Promise<WorkerCalls['read']['result']> {
    const conversation = await readLogFile(path)
    this.apply(session, conversation === undefined ? null : { revision, title: conversation.title, messages: conversation.messages, ...(conversation.origins === undefined ? {} : { origins: conversation.origins }) })
    return { found: conversation !== undefined, title: conversation?.title }
  }

  /**
   * Sessions whose text has every term; see {@link ContentIndex.search}.
   * @param terms - the query's terms.
   * @param admitted - the sessions that may be found, with their creation times (newest first on ties).
   * @param limit - most sessions returned.
   * @returns the hits.
   */
  search(terms: readonly QueryTerm[], admitted: readonly (readonly [string, number])[], limit: number): readonly ContentHit[] {
    const createdAt = new Map(admitted)
    const admit = (id: string): boolean => createdAt.has(id)
    const newer = (a: string, b: string): number => createdAt.get(b)! - createdAt.get(a)!
    // On disk, the sessions that may be found are chosen inside SQLite, before any row counts toward the query's bound.
    if (this.disk !== undefined) return this.disk.search(terms, admit, limit, newer, [...createdAt.keys()])
    return this.index.search(terms, admit, limit, newer)
  }

  /**
   * Writes the index file; changes wait until it settles.
   * @param file - the index file.
   * @returns the bytes written; rejects when the write fails or is cancelled (the old file stays).
   */
  async save(file: string, complete = false): Promise<{ bytes: number }> {
    if (this.disk !== undefined) return { bytes: this.disk.checkpoint(complete) }
    if (this.saving !== undefined) throw new Error('the index file is being written')
    const controller = new AbortController()
    let settle!: () => void
    this.saving = { controller, done: new Promise(resolve => { settle = resolve }) }
    try {
      await this.index.vacuum()
      return { bytes: await writeIndexFile(file, this.index, { signal: controller.signal, ...(this.open === undefined ? {} : { open: this.open }) }) }
    } finally {
      this.saving = undefined
      for (const [session, entry] of this.waiting) this.apply(session, entry)
      this.waiting.clear()
      settle()
    }
  }

  /** Cancels a save under way; resolves once it has settled and its temporary file is gone. */
  async cancelSave(): Promise<null> {
    const saving = this.saving
    if (saving === undefined) return null
    saving.controller.abort(new Error('the save was cancelled'))
    await saving.done
    return null
  }

  /**
   * Opens the index file. With the `sqlite` engine, its file is opened (or
   * built anew when unusable) and the memory engine's JSON file and its
   * temporary files are removed; what the file holds answers at once, and
   * `partial` says that its last build did not complete. With the `memory`
   * engine, temporary files that stopped writers left are removed, then the
   * index is replaced with the JSON file's, when it can be used.
   * @param file - the memory engine's JSON file; the SQLite file sits beside it (see {@link sqliteFileOf}).
   * @returns the engine, the sessions restored, and how the file was found.
   */
  async load(file: string): Promise<WorkerCalls['load']['result']> {
    const sqlite = this.engine === 'memory' ? { ok: false as const, reason: 'the memory engine was asked for' } : await loadSqlite()
    if (sqlite.ok) {
      this.disk?.close()
      const opened = SqliteIndex.open(sqlite.sqlite, sqliteFileOf(file))
      this.disk = opened.index
      await removeStaleTemporaries(file)
      await rm(file, { force: true })
      // Changes applied before the file was opened reach it now.
      for (const id of this.index.ids()) this.disk.set(id, this.index.get(id)!)
      this.index = ContentIndex.empty()
      const entries = this.disk.summaries()
      return { engine: 'sqlite', entries, reason: opened.rebuilt ?? (this.disk.complete ? 'restored' : 'partial'), bytes: this.disk.bytes() }
    }
    if (this.engine === 'sqlite') throw new Error(sqlite.reason)
    await removeStaleTemporaries(file)
    const read = await readIndexFile(file)
    if (!read.ok) return { engine: 'memory', entries: [], reason: read.reason, bytes: 0, ...(this.engine === undefined ? { why: sqlite.reason } : {}) }
    this.index = read.index
    return { engine: 'memory', entries: this.index.ids().map(id => [id, { revision: this.index.get(id)!.revision, title: this.index.get(id)!.title }] as const), reason: 'restored', bytes: 0, ...(this.engine === undefined ? { why: sqlite.reason } : {}) }
  }

  /** Closes the index file (the worker is ending). */
  close(): void {
    this.disk?.close()
  }
}
