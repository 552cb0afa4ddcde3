/**
 * The content index as the search worker keeps it: changes, queries, and its file. The index lives on
 * disk in SQLite (see `sqlite-index.ts`).
 * @module @wishp3/dsh-sessions/host/search/worker/index-keeper
 */
import { existsSync, statSync } from 'node:fs'
import { readdir, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { LOG_BYTES, readLogFile } from '../../official/log-file.ts'
import { type DiskReader, diskSpaceOf, isDiskFull, LowDiskError, statDisk } from './disk-space.ts'
import { IndexDamagedError, sqliteCodeOf } from './index-file.ts'
import { loadSqlite, type SqliteModule } from './sqlite-capability.ts'
import { type ContentEntry, type SqliteIndexOptions, SqliteIndex } from './sqlite-index.ts'
import type { SessionMatches } from '../text/conversation-search.ts'
import type { SessionFind } from '../text/conversation-find.ts'
import type { QueryTerm } from '../text/terms.ts'
import { type HeldScope, HeldScopes } from './held-scopes.ts'
import { type ContentAppend, type ContentHit, type DiskSpace, type HeldScopeQuery, type IndexEngine, type LogRead, logRevision, NOT_OPEN_MESSAGE, SCOPE_NOT_HELD, type SearchAsk, type SearchScope, type SessionFacts, type WorkerCalls } from '../worker-protocol.ts'
import { DshSessionsError } from '../../errors.ts'

/** Characters of text one batch of logs holds at most before it is written (a log that takes it past counts whole): what bounds the memory of a build whatever its sessions hold, while a transaction for many sessions costs some tenth less than one each. */
export const BATCH_CHARS = 4 * 2 ** 20

/** Options of {@link IndexKeeper}. */
export interface IndexKeeperOptions {
  /** `none` acts as where `node:sqlite` or FTS5 is missing (tests); by default SQLite where it can serve. */
  readonly engine?: IndexEngine
  /** Passed to the index file (measurements and tests). */
  readonly sqlite?: SqliteIndexOptions
  /** How the disk's free space is read (tests give their own). */
  readonly disk?: DiskReader
  /** Characters of text a batch of logs holds at most; {@link BATCH_CHARS} by default (tests give fewer). */
  readonly batchChars?: number
}


/** A log's revision and size, looked at in this thread; `'missing'` when the file is not there, an error when it cannot be looked at. */
function lookAtLog(path: string): { readonly revision: string; readonly bytes: number } | 'missing' | Error {
  try {
    const info = statSync(path)
    return { revision: logRevision(info), bytes: info.size }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing'
    return new Error(error instanceof Error ? error.message : String(error))
  }
}

/** The SQLite file of the index named by `file`, the `.json` path the plugin names its index by (a file of an earlier format there is removed, see {@link IndexKeeper.load}). */
export function sqliteFileOf(file: string): string {
  return `${file.replace(/\.json$/, '')}.sqlite`
}

/** Removes the JSON file earlier versions kept, and the temporary files their writes left (`<file>.<pid>.tmp`). */
async function removeOldFiles(file: string): Promise<void> {
  await rm(file, { force: true })
  const prefix = `${basename(file)}.`
  const names = await readdir(dirname(file)).catch(() => [] as string[])
  for (const name of names) if (name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length))) await rm(join(dirname(file), name), { force: true }).catch(() => undefined)
}

/** The worker's index and its file. */
export class IndexKeeper {
  private disk: SqliteIndex | undefined
  private sqlite: SqliteModule | undefined
  private readonly engine: IndexEngine | undefined
  private readonly options: SqliteIndexOptions
  private readonly batchChars: number
  private readonly readDisk: DiskReader
  /** The folder that holds the file, whose disk's free space is checked before each write; `undefined` in memory. */
  private folder: string | undefined
  /** The `indexFreeSpaceMiB` setting. */
  private freeSpaceMiB = 0
  /** Creation times of the sessions queries may find (see {@link SearchScope}). */
  private readonly createdAt = new Map<string, number>()
  /** The scopes queries name (see `held-scopes.ts`); given up whenever a file is opened. */
  private readonly scopes = new HeldScopes()
  /** The files whose term tables were merged, or looked at for it, once complete. */
  private readonly looked = new WeakSet<SqliteIndex>()

  constructor(options: IndexKeeperOptions = {}) {
    this.engine = options.engine
    this.options = options.sqlite ?? {}
    this.batchChars = options.batchChars ?? BATCH_CHARS
    this.readDisk = options.disk ?? statDisk
  }

  /** Where the index's disk stands against the floor. */
  space(): DiskSpace {
    if (this.folder === undefined) return { free: Number.POSITIVE_INFINITY, total: 0, floor: 0, low: false }
    return diskSpaceOf(this.folder, this.freeSpaceMiB, this.readDisk)
  }

  /** Throws {@link LowDiskError} when the disk has less free space than the floor. */
  private ensureSpace(): void {
    const space = this.space()
    if (space.low) throw new LowDiskError(space)
  }

  /** The open file, or {@link NOT_OPEN_MESSAGE}. */
  private opened(): SqliteIndex {
    if (this.disk === undefined) throw new DshSessionsError(NOT_OPEN_MESSAGE, 'unavailable')
    return this.disk
  }

  /** Indexes a session's text, or forgets it (`null`). Throws {@link NOT_OPEN_MESSAGE} before the file is opened, {@link LowDiskError} when text is not written for lack of space. */
  apply(session: string, entry: ContentEntry | null): void {
    // Forgetting frees space, and is tried whatever the disk holds.
    this.write(entry === null ? this.opened() : this.writable(), [[session, entry]])
  }

  /** Adds a live session's new messages. `entry`: the messages, and the earlier ones they follow. */
  append(session: string, entry: ContentAppend): boolean {
    const disk = this.writable()
    return this.guarded(() => {
      const appended = disk.append(session, entry)
      if (appended) this.scopes.indexed(session, disk)
      return appended
    })
  }

  /** The open file, when its disk has room for a write (see {@link ensureSpace}). */
  private writable(): SqliteIndex {
    const disk = this.opened()
    this.ensureSpace()
    return disk
  }

  /** Indexes some sessions' text and forgets others (`null`), in one transaction. */
  private write(disk: SqliteIndex, changes: readonly (readonly [string, ContentEntry | null])[]): void {
    this.guarded(() => {
      for (const [session, entry] of changes) if (entry === null) this.scopes.forgetting(session, disk)
      disk.write(changes)
      for (const [session, entry] of changes) if (entry !== null) this.scopes.indexed(session, disk)
    })
  }

  /** Reads session logs in order and indexes their text in one transaction, until the text read reaches {@link BATCH_CHARS}. `args`: each session, its log file and that file's revision. Returns an answer for each log read (a log that throws says why, and the others are still written). */
  async read({ logs }: WorkerCalls['read']['args']): Promise<WorkerCalls['read']['result']> {
    // Nothing is read that could not be written; the space was looked at just now.
    this.writable()
    const changes: [string, ContentEntry | null][] = []
    const read: LogRead[] = []
    let chars = 0
    for (const { session, path, revision: given } of logs) {
      if (chars >= this.batchChars) break
      // A log sent without its revision is looked at here, and its revision and size go back with what was read.
      const looked = given === undefined ? lookAtLog(path) : undefined
      if (looked instanceof Error) {
        read.push({ failed: looked.message })
        continue
      }
      const conversation = looked === 'missing' ? undefined : await readLogFile(path, undefined, LOG_BYTES.inThisThread).catch((error: unknown) => new Error(error instanceof Error ? error.message : String(error)))
      if (conversation instanceof Error) {
        read.push({ failed: conversation.message })
        continue
      }
      for (const message of conversation?.messages ?? []) chars += message.length
      const revision = given ?? (typeof looked === 'object' ? looked.revision : undefined)
      changes.push([session, conversation === undefined ? null : { revision, title: conversation.title, messages: conversation.messages, ...(conversation.origins === undefined ? {} : { origins: conversation.origins }) }])
      read.push({ found: conversation !== undefined, title: conversation?.title, ...(typeof looked === 'object' ? looked : {}) })
    }
    this.write(this.opened(), changes)
    return { read }
  }

  /** Sessions whose text has every term; see {@link SqliteIndex.search}. `scope`: creation times to keep or forget, and which sessions may be found (see {@link SearchScope}), or a scope held between queries (`held`, see {@link HeldScopeQuery}). Returns the hits; none before the file is opened, or without an index. Throws {@link SCOPE_NOT_HELD} when `held` names a version not held and does not give its sessions. */
  search(scope: SearchScope & { readonly held?: HeldScopeQuery }, query: SearchAsk): readonly ContentHit[] {
    const { terms, limit, role, mostWords } = query
    const createdAt = this.createdAt
    for (const id of scope.dropped ?? []) createdAt.delete(id)
    for (const [id, at] of scope.dates ?? []) createdAt.set(id, at)
    const disk = this.disk
    if (disk === undefined) return []
    if (scope.held !== undefined) return this.searchHeld(disk, scope.held, query)
    const only = scope.only === undefined ? undefined : new Set(scope.only)
    const except = new Set(scope.except)
    const admit = only === undefined ? (id: string): boolean => createdAt.has(id) && !except.has(id) : (id: string): boolean => only.has(id) && createdAt.has(id)
    const newer = (a: string, b: string): number => (createdAt.get(b) ?? 0) - (createdAt.get(a) ?? 0)
    // A short list of the sessions admitted is applied inside SQLite, before any row is ranked; sessions left out are skipped as rows are read.
    return this.guarded(() => disk.search(terms, { admit, limit, tieBreak: newer, admitted: scope.only, role, mostWords }))
  }

  /** Keeps a scope's sessions before a query asks within it (see `WorkerCalls.hold`), with creation times to keep or forget. Returns `null`. */
  hold(scope: Pick<SearchScope, 'dates' | 'dropped'> & { readonly held: HeldScopeQuery }): null {
    for (const id of scope.dropped ?? []) this.createdAt.delete(id)
    for (const [id, at] of scope.dates ?? []) this.createdAt.set(id, at)
    const disk = this.disk
    if (disk === undefined) return null
    const held = this.heldScope(scope.held, disk)
    if (held === undefined) throw new DshSessionsError(SCOPE_NOT_HELD, 'unavailable')
    if (held.ids.size < disk.size()) this.guarded(() => this.scopes.tableOf(held, disk))
    return null
  }

  /** The scope a query names: held now with the sessions it sends, or with the changes it sends from a version held, or as held already. Returns `undefined` when the version named (or changed from) is not the one held. */
  private heldScope(query: HeldScopeQuery, disk: SqliteIndex): HeldScope | undefined {
    if (query.ids !== undefined) return this.scopes.hold(query.key, query.version, query.ids)
    if (query.changed !== undefined) return this.guarded(() => this.scopes.changed(query, query.changed!, disk))
    return this.scopes.get(query.key, query.version)
  }

  /** What the index knows of one session; see {@link SqliteIndex.facts}. Returns the facts; `undefined` when the index does not hold it, or there is no index. */
  facts(session: string): SessionFacts | undefined {
    const disk = this.disk
    if (disk === undefined) return undefined
    return this.guarded(() => disk.facts(session))
  }

  /** The messages of one session that hold every term; see {@link SqliteIndex.searchSession}. Returns the matches; `undefined` when the index does not hold the session, or there is no index. */
  searchSession(session: string, terms: readonly QueryTerm[], limit: number): SessionMatches | undefined {
    const disk = this.disk
    if (disk === undefined) return undefined
    return this.guarded(() => disk.searchSession(session, terms, limit))
  }

  /** How many segments hold each word; see {@link SqliteIndex.wordCounts}. Returns `undefined` when there is no index. */
  wordCounts(words: readonly string[], cap: number): { counts: number[]; sessions: number } | undefined {
    const disk = this.disk
    if (disk === undefined) return undefined
    return this.guarded(() => disk.wordCounts(words, cap))
  }

  /** The messages of one session that hold a query, in order; see {@link SqliteIndex.findInSession}. Returns the page; `undefined` when the index does not hold the session, or there is no index. */
  findInSession(session: string, query: { readonly terms: readonly QueryTerm[]; readonly after: number; readonly limit: number }): SessionFind | undefined {
    const disk = this.disk
    if (disk === undefined) return undefined
    return this.guarded(() => disk.findInSession(session, query))
  }

  /** Sessions whose text has every term within a held scope, but those the query leaves out; when the scope holds fewer sessions than the file, only its sessions' rows are read (through its table of session numbers). */
  private searchHeld(disk: SqliteIndex, query: HeldScopeQuery, asked: SearchAsk): readonly ContentHit[] {
    const { terms, limit, role, mostWords } = asked
    const held = this.heldScope(query, disk)
    if (held === undefined) throw new DshSessionsError(SCOPE_NOT_HELD, 'unavailable')
    const createdAt = this.createdAt
    const except = new Set(query.except)
    const admit = (id: string): boolean => held.ids.has(id) && !except.has(id)
    const newer = (a: string, b: string): number => (createdAt.get(b) ?? 0) - (createdAt.get(a) ?? 0)
    return this.guarded(() => disk.search(terms, { admit, limit, tieBreak: newer, admitted: held.ids.size < disk.size() ? { table: this.scopes.tableOf(held, disk) } : undefined, role, mostWords }))
  }

  /** Records whether the build completed and folds the write-ahead log into the file. `_file`: the index file (opened by {@link load} already). `merge`: whether the first save of a complete file merges its term tables (see {@link merged}); a stop, bounded in time, does not. */
  save(_file: string, complete = false, merge = false): { bytes: number } {
    const disk = this.disk
    if (disk === undefined) return { bytes: 0 }
    return {
      bytes: this.guarded(() => {
        const bytes = disk.checkpoint(complete)
        if (!merge || !complete || this.looked.has(disk)) return bytes
        this.looked.add(disk)
        return this.merged(disk) ? disk.checkpoint(complete) : bytes
      }),
    }
  }

  /** Merges the term tables of a file that was just built, or was opened complete (see `SqliteIndex.merge`), while the disk has room for a second copy of them above the floor. A disk that fills meanwhile leaves them as they were (SQLite undoes the merge whole): queries only take a little longer. */
  private merged(disk: SqliteIndex): boolean {
    const space = this.space()
    try {
      return disk.merge(space.free - space.floor)
    } catch (error) {
      if (isDiskFull(error)) return false
      throw error
    }
  }

  /** Looks at the file's health (see `index-health.ts`) and the disk's space. Throws the damage message when the file was found damaged (it was set aside and a fresh one opened). */
  check(freeSpaceMiB: number): WorkerCalls['check']['result'] {
    this.freeSpaceMiB = freeSpaceMiB
    const disk = this.disk
    if (disk !== undefined) this.guarded(() => disk.health())
    const space = this.space()
    return { space: { free: Number.isFinite(space.free) ? space.free : -1, total: space.total, floor: space.floor, low: space.low }, open: this.disk !== undefined, bytes: this.disk?.bytes() ?? 0 }
  }

  /** Opens the index file (or builds it anew when unusable), removing the JSON file of earlier versions; what the file holds answers at once, and `partial` says that its last build did not complete. Without `node:sqlite` or FTS5 there is no index: engine `none`, and `why`. `file`: the old JSON file's path; the SQLite file sits beside it (see {@link sqliteFileOf}). `null`: no file, an index in memory (tests, and hosts without a home). */
  async load(file: string | null, freeSpaceMiB = 0): Promise<WorkerCalls['load']['result']> {
    const loaded = this.engine === 'none' ? { ok: false as const, reason: 'node:sqlite was not used (asked for no engine)' } : await loadSqlite()
    if (!loaded.ok) return { engine: 'none', entries: [], reason: 'unavailable', bytes: 0, why: loaded.reason }
    this.sqlite = loaded.sqlite
    this.freeSpaceMiB = freeSpaceMiB
    this.folder = file === null ? undefined : dirname(file)
    this.disk?.close()
    this.disk = undefined
    this.scopes.clear()
    const path = file === null ? ':memory:' : sqliteFileOf(file)
    let opened
    try {
      // A file is created only where there is room for it; one that exists is opened whatever the disk holds, and answers.
      if (file !== null && !existsSync(path)) this.ensureSpace()
      opened = SqliteIndex.open(loaded.sqlite, path, this.options)
    } catch (error) {
      if (error instanceof LowDiskError || isDiskFull(error)) return { engine: 'sqlite', entries: [], reason: 'low-disk', bytes: 0 }
      return { engine: 'none', entries: [], reason: 'unavailable', bytes: 0, why: `the index file cannot be opened: ${error instanceof Error ? error.message : String(error)}` }
    }
    this.disk = opened.index
    if (file !== null) await removeOldFiles(file)
    const disk = opened.index
    const entries = this.guarded(() => disk.summaries())
    return { engine: 'sqlite', entries, reason: opened.rebuilt ?? (this.guarded(() => disk.complete) ? 'restored' : 'partial'), bytes: disk.bytes() }
  }

  /** Runs an operation on the file; when it finds the file damaged, sets the file aside, opens a fresh one in its place and fails with `DAMAGED_MESSAGE` (see `index-file.ts`). */
  private guarded<T>(body: () => T): T {
    try {
      return body()
    } catch (error) {
      if (isDiskFull(error)) throw new LowDiskError(this.space(), error)
      if (this.disk === undefined || this.sqlite === undefined) throw error
      if (!(error instanceof IndexDamagedError)) {
        // Another SQLite error (an I/O error, a read-only file): a look at the file tells whether it is damage.
        if (sqliteCodeOf(error) === undefined) throw error
        try {
          this.disk.health()
        } catch (found) {
          if (found instanceof IndexDamagedError) return this.setAside(found)
        }
        throw error
      }
      return this.setAside(error)
    }
  }

  /** Sets the damaged file aside, opens a fresh one in its place (when it can be), and fails with the damage. */
  private setAside(error: IndexDamagedError): never {
    const disk = this.disk!
    const path = disk.path
    disk.close()
    this.disk = undefined
    this.scopes.clear()
    SqliteIndex.setAside(path)
    try {
      this.ensureSpace()
      this.disk = SqliteIndex.open(this.sqlite!, path, this.options).index
    } catch {
      // No room, or no file can be opened there: changes fail until the host half loads the index again.
    }
    throw error
  }

  /** Closes the index file (the worker is ending). */
  close(): void {
    this.disk?.close()
  }
}
