/**
 * The content index on disk: a SQLite file of its own beside the harness's data, opened through
 * `node:sqlite` by the search worker alone, so what it holds lives on disk and the process keeps only
 * SQLite's page cache.
 * @module @wishp3/dsh-sessions/host/search/worker/sqlite-index
 */
import { statSync } from 'node:fs'
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import { isDiskFull } from './disk-space.ts'
import { IndexDamagedError, isBusy, isDamaged, openIndexFile, removeIndexFile, ROW_SPAN, setIndexFileAside } from './index-file.ts'
import { SegmentSizes } from './segment-sizes.ts'
import { IndexWrites } from './index-writes.ts'
import { type ExpectedFile, indexFileProblem } from './index-health.ts'
import { IndexSearch, type RankedQuery, RANKED_ROWS } from './index-search.ts'
import { PARTIAL_ROWS } from './partial-matches.ts'
import { searchMessages } from './message-search.ts'
import { findInIndex } from './session-find.ts'
import type { SessionMatches } from '../text/conversation-search.ts'
import type { SessionFind } from '../text/conversation-find.ts'
import { formsOf } from '../text/form-expansion.ts'
import { expansionsOf, prefixEnd } from './prefix-expansion.ts'
import type { SqliteModule } from './sqlite-capability.ts'
import { UnpackError, unpack } from '../text/stored-text.ts'
import { type QueryTerm, queryTerms } from '../text/terms.ts'
import { groupsOf, matchOf } from '../text/match-expression.ts'
import type { ContentAppend, ContentEntry, ContentHit, EntrySummary, SessionFacts } from '../worker-protocol.ts'

export type { ContentEntry } from '../worker-protocol.ts'
export { MAX_SEGMENTS } from './index-writes.ts'

/** Options of {@link SqliteIndex.open}. */
export interface SqliteIndexOptions {
  /** Called before each statement that writes, and before each commit (tests stop the process here). */
  readonly beforeWrite?: () => void
  /** Matching rows ranked together (default {@link RANKED_ROWS}). */
  readonly rankedRows?: number
  /** Segment rows of a word group read at most for partial matches (default {@link PARTIAL_ROWS}). */
  readonly partialRows?: number
}

/** What opening gave: the index, and whether it was built anew (and why). */
export interface SqliteOpened {
  readonly index: SqliteIndex
  /** `undefined` when the file was used as it was; else why it was built anew. */
  readonly rebuilt: 'missing' | 'corrupt' | 'outdated' | undefined
}

interface Statements {
  readonly session: StatementSync
  readonly text: StatementSync
  readonly places: StatementSync
  readonly idOf: StatementSync
  readonly split: StatementSync
  readonly placed: StatementSync
  readonly unplaced: StatementSync
}

/** After a merge, a file whose free pages are more than one in this many is written again without them (see {@link SqliteIndex.merge}). */
const FREE_SHARE = 8

/** The largest file written again after a merge: VACUUM makes its copy in memory (the connection keeps temporary data there). */
const VACUUM_MAX_BYTES = 64 * 2 ** 20

/** The name of a temporary table of session numbers (see {@link SqliteIndex.fillScope}). */
const scopeTable = (slot: number): string => `scope_${Math.trunc(slot)}`

/** The on-disk content index. */
export class SqliteIndex {
  private readonly db: DatabaseSync
  private readonly statements: Statements
  /** Session numbers and ids seen so far (another process may add more). */
  private readonly idsByNo = new Map<number, string>()
  private readonly search_ = new Map<string, StatementSync>()
  private readonly beforeWrite: () => void
  private readonly searcher: IndexSearch
  private readonly writes: IndexWrites
  /** The mean segment length last read, and when (see {@link meanSize}). */
  private mean: { readonly value: number; readonly at: number } | undefined
  /** Whether the temporary vocabulary table prefixes are expanded from exists yet, or cannot be made. */
  private vocabularyState: 'unmade' | 'made' | 'missing' = 'unmade'
  private readonly sqlite: SqliteModule
  /** What the file on disk is expected to be (see `index-health.ts`); `undefined` in memory. */
  private readonly expected: ExpectedFile | undefined
  readonly path: string

  private constructor(sqlite: SqliteModule, { db, path }: { readonly db: DatabaseSync; readonly path: string }, options: SqliteIndexOptions) {
    this.sqlite = sqlite
    this.db = db
    this.path = path
    this.expected = path === ':memory:' ? undefined : {
      inode: statSync(path).ino,
      pageSize: (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size,
    }
    this.beforeWrite = options.beforeWrite ?? (() => undefined)
    const s = (sql: string) => db.prepare(sql)
    this.statements = {
      session: s('SELECT no FROM sessions WHERE id = ?'),
      text: s('SELECT body FROM texts WHERE row = ?'),
      places: s('SELECT rowid AS row FROM places WHERE places MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid'),
      idOf: s('SELECT id FROM sessions WHERE no = ?'),
      split: s('SELECT no FROM sessions WHERE segments > 1'),
      placed: s('SELECT placed FROM sessions WHERE no = ?'),
      unplaced: s('SELECT no FROM sessions WHERE placed = 0 AND no IN (SELECT value FROM json_each(?))'),
    }
    // The segments' lengths are read as the file opens, not by the first query (some 40 ms at 20,000 sessions).
    const sizes = new SegmentSizes(db)
    sizes.current()
    this.writes = new IndexWrites({ db, beforeWrite: this.beforeWrite, guarded: body => this.guarded(body), ids: this.idsByNo, sizes })
    this.searcher = new IndexSearch({
      statement: sql => this.statement(sql),
      idOf: no => this.idOf(no),
      noOf: id => (this.statements.session.get(id) as { no: number } | undefined)?.no,
      size: () => this.size(),
      texts: this.statements.text,
      placesOf: this.statements.places,
      split: this.statements.split,
      unplaced: nos => new Set((this.statements.unplaced.all(JSON.stringify(nos)) as { no: number }[]).map(({ no }) => no)),
      vocabulary: (prefix, limit) => this.termsStarting(prefix, limit),
      forms: (stem, limit) => this.formsOf(stem, limit),
      meanSize: () => this.meanSize(),
      sizes: () => sizes.current(),
    }, { rankedRows: options.rankedRows ?? RANKED_ROWS, partialRows: options.partialRows ?? PARTIAL_ROWS })
  }

  /** Opens the index file, creating it, or building it anew when it is not a usable file of this layout and term pipeline (see `index-file.ts`). Any other failure to open it or to prepare its statements, a folder at its path included, is taken as damage: what stands there is set aside and a fresh file opened. A full disk, or another process holding the file longer than the busy timeout, is not damage: the error is thrown. Throws the error of a second failure, once the first one's file was set aside. */
  static open(sqlite: SqliteModule, path: string, options: SqliteIndexOptions = {}): SqliteOpened {
    try {
      return SqliteIndex.openAt(sqlite, path, options)
    } catch (error) {
      if (path === ':memory:' || isDiskFull(error) || isBusy(error)) throw error
      setIndexFileAside(path)
      return { index: SqliteIndex.openAt(sqlite, path, options).index, rebuilt: 'corrupt' }
    }
  }

  private static openAt(sqlite: SqliteModule, path: string, options: SqliteIndexOptions): SqliteOpened {
    const { db, rebuilt } = openIndexFile(sqlite, path)
    try {
      return { index: new SqliteIndex(sqlite, { db, path }, options), rebuilt }
    } catch (error) {
      db.close()
      throw error
    }
  }

  /** A cheap look at the file on disk (see `index-health.ts`); a problem is reported only when a second look finds it too, so a checkpoint another process is writing at that moment is not taken for damage. Throws {@link IndexDamagedError} when the file is damaged, gone or replaced. */
  health(): void {
    const expected = this.expected
    if (expected === undefined) return
    const problem = indexFileProblem(this.sqlite, { path: this.path, expected })
    if (problem !== undefined && indexFileProblem(this.sqlite, { path: this.path, expected }) !== undefined) throw new IndexDamagedError(new Error(problem))
  }

  /** Removes an index file and the write-ahead log beside it. */
  static remove(path: string): void {
    removeIndexFile(path)
  }

  /** Moves a damaged index file and its write-ahead log aside, to `<file>.damaged` (replacing one an earlier damage left), for a look later. */
  static setAside(path: string): string {
    return setIndexFileAside(path)
  }

  /** Runs `body`, turning a sign of a damaged file into {@link IndexDamagedError}. */
  private guarded<T>(body: () => T): T {
    try {
      return body()
    } catch (error) {
      if (isDamaged(error) || error instanceof UnpackError) throw new IndexDamagedError(error)
      throw error
    }
  }

  /** Whether a build of this file completed: every session the host listed was indexed once. */
  get complete(): boolean {
    return this.guarded(() => (this.db.prepare("SELECT value FROM meta WHERE key = 'complete'").get() as { value: string } | undefined)?.value === '1')
  }

  /** Records that the index is complete (when it is), and folds the write-ahead log into the file and empties it, so what the index takes on disk is its file (a log left at its largest would add tens of megabytes after a build). Another process's reader makes it wait up to the busy timeout, then it folds what it can. `complete`: whether every listed session has been indexed. */
  checkpoint(complete: boolean): number {
    this.guarded(() => {
      if (complete && !this.complete) this.db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('complete', '1')").run()
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    })
    return this.bytes()
  }

  /** Merges each term table's segments into one, so a query reads each term's rows from one place, not from each of the thirty-odd a build leaves (a query at 20,000 sessions takes a fifth less); for when a build completes. The merge writes a second copy of the tables before it frees the first: it is left undone when `room` bytes would not hold one, or when the tables are one segment each already. Returns whether it merged. */
  merge(room: number): boolean {
    return this.guarded(() => {
      if ((this.db.prepare('SELECT count(DISTINCT segid) AS n FROM terms_idx').get() as { n: number }).n <= 1) return false
      const tables = ['terms', 'places', 'inside'] as const
      const pageSize = (this.db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size
      const blocks = tables.reduce((sum, table) => sum + (this.db.prepare(`SELECT count(*) AS n FROM ${table}_data`).get() as { n: number }).n, 0)
      if (blocks * pageSize > room) return false
      this.beforeWrite()
      for (const table of tables) this.db.exec(`INSERT INTO ${table}(${table}) VALUES ('optimize')`)
      // The old segments' pages are left free in the file. Where they are a large share of a small file (their copy takes its place in the file's growth), the file is written again without them; VACUUM copies it in memory first, hence the bound.
      const pages = (this.db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count
      const free = (this.db.prepare('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count
      if (free * FREE_SHARE > pages && pages * pageSize <= VACUUM_MAX_BYTES && 2 * pages * pageSize <= room) this.db.exec('VACUUM')
      return true
    })
  }

  /** Closes the file. */
  close(): void {
    try {
      this.db.close()
    } catch {
      // already closed
    }
  }

  /** The bytes the index takes on disk: its file and write-ahead log. */
  bytes(): number {
    let total = 0
    for (const file of [this.path, `${this.path}-wal`]) {
      try {
        total += statSync(file).size
      } catch {
        // not there
      }
    }
    return total
  }

  /** Every session the file holds, with its revision and title. */
  summaries(): [string, EntrySummary][] {
    const rows = this.guarded(() => this.db.prepare('SELECT no, id, revision, title FROM sessions').all() as { no: number; id: string; revision: string | null; title: string | null }[])
    return rows.map(row => {
      this.idsByNo.set(row.no, row.id)
      return [row.id, { revision: row.revision ?? undefined, title: row.title ?? undefined }]
    })
  }

  /** Indexes a session's text, replacing what the file held of it (see `IndexWrites.set`). */
  set(id: string, entry: ContentEntry): void {
    this.writes.set(id, entry)
  }

  /** Indexes some sessions' text and forgets others (`null`), in one transaction (see `IndexWrites.write`). */
  write(changes: readonly (readonly [string, ContentEntry | null])[]): void {
    this.writes.write(changes)
  }

  /** Adds a live session's new messages (see `IndexWrites.append`). */
  append(id: string, entry: ContentAppend): boolean {
    return this.writes.append(id, entry)
  }

  /** Forgets a session; whether the file held it. */
  delete(id: string): boolean {
    return this.writes.delete(id)
  }

  /** The mean length of a segment in distinct terms, at least 1: read again once a minute, since it moves slowly and reading it walks every segment. */
  private meanSize(): number {
    const now = Date.now()
    if (this.mean === undefined || now - this.mean.at > 60_000) {
      const { mean } = this.statement('SELECT avg(size) AS mean FROM segments').get() as { mean: number | null }
      this.mean = { value: Math.max(1, mean ?? 1), at: now }
    }
    return this.mean.value
  }

  /** Sessions the file holds. */
  size(): number {
    return (this.statement('SELECT count(*) AS n FROM sessions').get() as { n: number }).n
  }

  private idOf(no: number): string | undefined {
    let id = this.idsByNo.get(no)
    if (id === undefined) {
      id = (this.statements.idOf.get(no) as { id: string } | undefined)?.id
      if (id !== undefined) this.idsByNo.set(no, id)
    }
    return id
  }

  /** The terms of the index that start with a prefix, in order, from the vocabulary of its `terms` table (a temporary `fts5vocab` table of this connection, made at its first use). Returns the terms; `undefined` where the connection cannot make the vocabulary. */
  termsStarting(prefix: string, limit: number): readonly string[] | undefined {
    if (this.vocabularyState === 'missing') return undefined
    if (this.vocabularyState === 'unmade') {
      try {
        this.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.terms_vocabulary USING fts5vocab('main', 'terms', 'row')")
        this.vocabularyState = 'made'
      } catch (error) {
        if (isDamaged(error)) throw error
        this.vocabularyState = 'missing'
        return undefined
      }
    }
    const rows = this.statement('SELECT term FROM temp.terms_vocabulary WHERE term >= ? AND term < ? LIMIT ?').all(prefix, prefixEnd(prefix), limit) as { term: string }[]
    return rows.map(({ term }) => term)
  }

  private statement(sql: string): StatementSync {
    let statement = this.search_.get(sql)
    if (statement === undefined) {
      statement = this.db.prepare(sql)
      this.search_.set(sql, statement)
    }
    return statement
  }

  /** Makes a temporary table hold the numbers of these sessions (those the file holds), for queries that read their rows alone (see `held-scopes.ts`). */
  fillScope(slot: number, ids: readonly string[]): string {
    const table = scopeTable(slot)
    this.guarded(() => {
      this.db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${table}(no INTEGER PRIMARY KEY)`)
      this.db.exec(`DELETE FROM temp.${table}`)
      this.statement(`INSERT OR IGNORE INTO temp.${table}(no) SELECT no FROM sessions WHERE id IN (SELECT value FROM json_each(?))`).run(JSON.stringify(ids))
    })
    return table
  }

  /** Adds a session's number to a table {@link fillScope} filled, if the file holds the session. */
  includeInScope(slot: number, id: string): void {
    const table = scopeTable(slot)
    this.guarded(() => this.statement(`INSERT OR IGNORE INTO temp.${table}(no) SELECT no FROM sessions WHERE id = ?`).run(id))
  }

  /** Removes a session's number from a table {@link fillScope} filled. */
  excludeFromScope(slot: number, id: string): void {
    const table = scopeTable(slot)
    this.guarded(() => this.statement(`DELETE FROM temp.${table} WHERE no IN (SELECT no FROM sessions WHERE id = ?)`).run(id))
  }

  /** Sessions whose text has every term, best match first; ties go to the order `tieBreak` gives. Matching rows are ranked a bounded batch at a time (see {@link RANKED_ROWS}); excerpts are made only for the sessions returned. `admit`: whether a session may be found at all. `admitted`: when given, the only sessions whose rows are read at all (their ids, or a table {@link fillScope} filled): rows of other sessions are left out inside SQLite, so they never take the place of admitted ones. */
  search(terms: readonly QueryTerm[], asked: RankedQuery): ContentHit[] {
    if (terms.length === 0 || asked.limit <= 0) return []
    return this.guarded(() => this.searcher.search(terms, asked))
  }

  /** What the index knows of one session without reading its log: how many messages it has, its first user message, and its newest message's log event (two pieces of text unpacked, whatever the session's length). Returns the facts; `undefined` when the index does not hold the session. */
  facts(id: string): SessionFacts | undefined {
    return this.guarded(() => {
      const row = this.statement('SELECT no, messages, total FROM sessions WHERE id = ?').get(id) as { no: number; messages: number; total: number | null } | undefined
      if (row === undefined) return undefined
      const from = row.no * ROW_SPAN
      const first = this.statement('SELECT body FROM texts WHERE row >= ? AND row < ? ORDER BY row LIMIT 1').get(from, from + ROW_SPAN) as { body: Uint8Array } | undefined
      const last = this.statement('SELECT body FROM texts WHERE row >= ? AND row < ? ORDER BY row DESC LIMIT 1').get(from, from + ROW_SPAN) as { body: Uint8Array } | undefined
      let firstUserMessage: string | undefined
      if (first !== undefined) {
        const [messages, origins] = unpack(first.body)
        firstUserMessage = messages.find((_, n) => origins[n]?.[2] !== 'assistant')
      }
      const newest = last === undefined ? undefined : unpack(last.body)[1].at(-1)
      return {
        messages: row.total ?? row.messages,
        ...(firstUserMessage === undefined ? {} : { firstUserMessage }),
        ...(newest === null || newest === undefined || newest[0] < 0 ? {} : { newest: { seq: newest[0], time: newest[1] } }),
      }
    })
  }

  /** The index's words that have a stem, at most `limit` of them (see `word-forms.ts`). */
  private formsOf(stem: string, limit: number): readonly string[] {
    return (this.statement('SELECT word FROM forms WHERE stem = ? ORDER BY word LIMIT ?').all(stem, limit) as { word: string }[]).map(({ word }) => word)
  }

  /** How many segments hold each word as typed (a Chinese or Japanese word's characters together), each counted up to `cap`, and how many sessions the file holds. */
  wordCounts(words: readonly string[], cap: number): { counts: number[]; sessions: number } {
    return this.guarded(() => {
      const count = this.statement('SELECT count(*) AS n FROM (SELECT 1 FROM terms WHERE terms MATCH ? LIMIT ?)')
      const counts = words.map(word => {
        const group = groupsOf(queryTerms(`${word} `))[0]
        return group === undefined ? 0 : (count.get(matchOf(group), cap) as { n: number }).n
      })
      return { counts, sessions: this.size() }
    })
  }

  /** The messages of one session that hold every word group of a query, in order, after message `after` (see `session-find.ts`). Returns the page; `undefined` when the index does not hold the session. */
  findInSession(id: string, query: { readonly terms: readonly QueryTerm[]; readonly after: number; readonly limit: number }): SessionFind | undefined {
    const { terms, after, limit } = query
    const no = (this.statements.session.get(id) as { no: number } | undefined)?.no
    if (no === undefined) return undefined
    if (terms.length === 0) return { matches: [], total: 0, complete: true }
    return this.guarded(() => {
      const placed = (this.statements.placed.get(no) as { placed: number } | undefined)?.placed !== 0
      const expansions = new Map([...expansionsOf(terms, (prefix, most) => this.termsStarting(prefix, most)), ...formsOf(terms, (stem, most) => this.formsOf(stem, most))])
      return findInIndex({ statement: sql => this.statement(sql) }, { no, placed }, { terms, expansions, after, limit })
    })
  }

  /** The messages of one session that hold every group of a query, a word in any of its forms, best first (see `message-search.ts`). Returns the matches; `undefined` when the index does not hold the session. */
  searchSession(id: string, terms: readonly QueryTerm[], limit: number): SessionMatches | undefined {
    const no = (this.statements.session.get(id) as { no: number } | undefined)?.no
    if (no === undefined) return undefined
    if (terms.length === 0 || limit <= 0) return { matches: [], more: false }
    return this.guarded(() => {
      const placed = (this.statements.placed.get(no) as { placed: number } | undefined)?.placed !== 0
      const expansions = new Map([...expansionsOf(terms, (prefix, most) => this.termsStarting(prefix, most)), ...formsOf(terms, (stem, most) => this.formsOf(stem, most))])
      return searchMessages({ statement: sql => this.statement(sql) }, { no, placed }, { terms, expansions, limit })
    })
  }
}
