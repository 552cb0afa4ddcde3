/**
 * The content index on disk: a SQLite file of its own beside the harness's
 * data, opened through `node:sqlite` by the search worker alone, so what it
 * holds lives on disk and the process keeps only SQLite's page cache.
 *
 * Layout. `sessions` names each indexed session (id, log revision, title,
 * message count, and a digest chained over its message texts). A session's
 * messages are indexed in segments: a run of consecutive messages written at
 * once. A session's first indexing writes one segment, and a live session's
 * new messages are written as a new segment of their own, so a new message
 * costs a write proportional to it. `terms` is a contentless FTS5 table with
 * one row per segment, whose text is the segment's terms (see `text.ts`)
 * separated by spaces, split by the `ascii` tokenizer: the terms are made
 * here, so the tokenizer only has to keep them whole (Chinese and Japanese
 * pairs included). `locations` holds, per session and term, the first
 * message that has the term, to find which message an excerpt comes from in
 * one lookup; `texts` holds each message's text, compressed, for its
 * excerpt. Row ids are the
 * session's number times 2^20 plus the message's index (a segment's: its
 * first message's), so a hit names its session without a lookup; `segments`
 * lists each session's segment rows. A session whose segments grow past
 * {@link MAX_SEGMENTS}, or whose earlier messages changed, is written again
 * as one segment.
 *
 * Queries ask FTS5 for the segments holding every term, best BM25 first.
 * Sessions of more than one segment can hold the terms only across their
 * segments; those few are checked term by term after the others. Each
 * session returned gets the excerpt of its first message holding a term.
 *
 * Every change is one transaction in write-ahead-log mode, so a process
 * stopped at any moment leaves the file as it was at its last completed
 * change, and two processes on one home take turns writing (each waits for
 * the other up to {@link BUSY_MS}). The file records its layout version and
 * the fingerprint of the term pipeline; a file of another layout or
 * pipeline, or one that is not a usable SQLite file, is removed and built
 * again.
 * @module @wishp3/dsh-sessions/host/search/sqlite-index
 */
import { createHash } from 'node:crypto'
import { mkdirSync, rmSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { ContentEntry, ContentHit } from './content-index.ts'
import { termsFingerprint } from './index-file.ts'
import { originAt, type MessageRole } from './conversation.ts'
import { snippetOf } from './snippet.ts'
import { indexTerms, type QueryTerm } from './text.ts'
import type { EntrySummary } from './worker-protocol.ts'

/** The file's format name, kept in its `meta` table. */
export const SQLITE_FORMAT = 'dsh-sessions-content-index-sqlite'

/** Version of the file's layout; a file of another version is built again. */
export const SQLITE_VERSION = 4

/** A session written as more segments than this is written again as one. */
export const MAX_SEGMENTS = 16

/** Milliseconds a change waits for another process's write to finish. */
const BUSY_MS = 5_000

/** Segment row ids: a session's number times this, plus the first message's index. */
const ROW_SPAN = 2 ** 20

/** Most messages one session's text may hold (the row-id scheme's bound). */
const MAX_MESSAGES = ROW_SPAN - 1

/** Matching segment rows read per query at most; a query whose best rows are all outside what may be found stops there. */
const MAX_ROWS_READ = 50_000

/** The `node:sqlite` module, where this Node.js has it with FTS5. */
export type SqliteModule = typeof import('node:sqlite')

/**
 * Loads `node:sqlite` and checks that it has FTS5 with contentless deletes.
 * @returns the module, or why it cannot serve (older Node.js, a build without FTS5).
 */
export async function loadSqlite(): Promise<{ ok: true; sqlite: SqliteModule } | { ok: false; reason: string }> {
  let sqlite: SqliteModule
  try {
    sqlite = await import('node:sqlite')
  } catch (error) {
    return { ok: false, reason: `node:sqlite is not available: ${error instanceof Error ? error.message : String(error)}` }
  }
  try {
    const probe = new sqlite.DatabaseSync(':memory:')
    probe.exec("CREATE VIRTUAL TABLE probe USING fts5(body, content='', contentless_delete=1, tokenize='ascii')")
    probe.close()
  } catch (error) {
    return { ok: false, reason: `SQLite has no usable FTS5: ${error instanceof Error ? error.message : String(error)}` }
  }
  return { ok: true, sqlite }
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sessions(
  no INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  revision TEXT,
  title TEXT,
  messages INTEGER NOT NULL,
  digest TEXT NOT NULL,
  segments INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_split ON sessions(no) WHERE segments > 1;
CREATE TABLE IF NOT EXISTS segments(row INTEGER PRIMARY KEY);
CREATE TABLE IF NOT EXISTS texts(row INTEGER PRIMARY KEY, text BLOB NOT NULL, seq INTEGER, time INTEGER, role TEXT);
CREATE VIRTUAL TABLE IF NOT EXISTS terms USING fts5(body, content='', contentless_delete=1, tokenize='ascii', prefix='2 3');
CREATE TABLE IF NOT EXISTS locations(session INTEGER NOT NULL, term TEXT NOT NULL, message INTEGER NOT NULL, PRIMARY KEY(session, term)) WITHOUT ROWID;
`

/** Options of {@link SqliteIndex.open}. */
export interface SqliteIndexOptions {
  /** Called before each statement that writes, and before each commit (tests stop the process here). */
  readonly beforeWrite?: () => void
  /** Matching rows one query reads at most (default {@link MAX_ROWS_READ}). */
  readonly maxRowsRead?: number
}

/** SQLite's primary result codes for a file that is not a database, or is damaged. */
const DAMAGED = new Set([11, 26])

/** Whether an error says the file is not a usable database (as opposed to busy, full or unreadable). */
function isDamaged(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode
  return typeof code === 'number' && DAMAGED.has(code & 0xff)
}

/** What opening gave: the index, and whether it was built anew (and why). */
export interface SqliteOpened {
  readonly index: SqliteIndex
  /** `undefined` when the file was used as it was; else why it was built anew. */
  readonly rebuilt: 'missing' | 'corrupt' | 'outdated' | undefined
}

function digestOf(messages: readonly string[], upTo: number): { prefix: string; whole: string } {
  const hash = createHash('sha1')
  let prefix = upTo === 0 ? hash.copy().digest('hex') : ''
  messages.forEach((message, n) => {
    hash.update(message).update('\u0000')
    if (n + 1 === upTo) prefix = hash.copy().digest('hex')
  })
  return { prefix, whole: hash.digest('hex') }
}

const packed = (message: string): Uint8Array => deflateRawSync(Buffer.from(message), { level: 1 })
const unpacked = (blob: Uint8Array): string => inflateRawSync(blob).toString('utf8')

/** Most messages of one session tried for its excerpt (from the first that holds a term, in case its text only matches past the excerpt's scan). */
const EXCERPT_TRIES = 8

const quoted = ({ term, prefix }: QueryTerm): string => `"${term}"${prefix ? '*' : ''}`

/** The query's terms, the pairs of one Chinese or Japanese run together (in order). */
function groupsOf(terms: readonly QueryTerm[]): QueryTerm[][] {
  const groups: QueryTerm[][] = []
  for (const term of terms) {
    const last = groups.at(-1)
    if (term.run !== undefined && last?.[0]!.run === term.run) last.push(term)
    else groups.push([term])
  }
  return groups
}

/**
 * An FTS5 query needing every term: each quoted (terms hold only letters,
 * marks and digits), a prefix one starred, and a run's pairs as one phrase,
 * so a Chinese or Japanese run is found where it stands whole.
 */
function matchOf(terms: readonly QueryTerm[]): string {
  return groupsOf(terms).map(group => (group.length === 1 ? quoted(group[0]!) : `"${group.map(({ term }) => term).join(' ')}"`)).join(' ')
}

/** The highest code point: a prefix followed by it sorts after every term that starts with the prefix. */
const LAST = '\u{10ffff}'

interface Statements {
  readonly session: StatementSync
  readonly upsert: StatementSync
  readonly segmentsOf: StatementSync
  readonly putSegment: StatementSync
  readonly putTerms: StatementSync
  readonly putLocations: StatementSync
  readonly putText: StatementSync
  readonly dropSegment: StatementSync
  readonly dropTerms: StatementSync
  readonly dropLocations: StatementSync
  readonly dropTexts: StatementSync
  readonly locatedTerm: StatementSync
  readonly locatedPrefix: StatementSync
  readonly texts: StatementSync
  readonly dropSession: StatementSync
  readonly idOf: StatementSync
  readonly split: StatementSync
}

/** The on-disk content index. */
export class SqliteIndex {
  private readonly db: DatabaseSync
  private readonly statements: Statements
  /** Session numbers and ids seen so far (another process may add more). */
  private readonly idsByNo = new Map<number, string>()
  private readonly search_ = new Map<string, StatementSync>()
  private readonly beforeWrite: () => void
  private readonly maxRowsRead: number
  readonly path: string

  private constructor(db: DatabaseSync, path: string, options: SqliteIndexOptions) {
    this.db = db
    this.path = path
    this.beforeWrite = options.beforeWrite ?? (() => undefined)
    this.maxRowsRead = options.maxRowsRead ?? MAX_ROWS_READ
    const s = (sql: string) => db.prepare(sql)
    this.statements = {
      session: s('SELECT no, messages, digest, segments FROM sessions WHERE id = ?'),
      upsert: s('INSERT INTO sessions(id, revision, title, messages, digest, segments) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET revision = excluded.revision, title = excluded.title, messages = excluded.messages, digest = excluded.digest, segments = excluded.segments RETURNING no'),
      segmentsOf: s('SELECT row FROM segments WHERE row >= ? AND row < ? ORDER BY row'),
      putSegment: s('INSERT OR REPLACE INTO segments(row) VALUES (?)'),
      putTerms: s('INSERT INTO terms(rowid, body) VALUES (?, ?)'),
      // The pairs come first-occurrence, distinct; a term the session already has keeps its earlier message.
      putLocations: s("INSERT OR IGNORE INTO locations(session, term, message) SELECT ?, value ->> 0, value ->> 1 FROM json_each(?)"),
      putText: s('INSERT OR REPLACE INTO texts(row, text, seq, time, role) VALUES (?, ?, ?, ?, ?)'),
      dropSegment: s('DELETE FROM segments WHERE row = ?'),
      dropTerms: s('DELETE FROM terms WHERE rowid = ?'),
      dropLocations: s('DELETE FROM locations WHERE session = ?'),
      dropTexts: s('DELETE FROM texts WHERE row >= ? AND row < ?'),
      locatedTerm: s('SELECT message FROM locations WHERE session = ? AND term = ?'),
      locatedPrefix: s('SELECT min(message) AS message FROM locations WHERE session = ? AND term >= ? AND term < ?'),
      texts: s('SELECT row, text, seq, time, role FROM texts WHERE row >= ? AND row < ? ORDER BY row LIMIT ?'),
      dropSession: s('DELETE FROM sessions WHERE no = ?'),
      idOf: s('SELECT id FROM sessions WHERE no = ?'),
      split: s('SELECT no FROM sessions WHERE segments > 1'),
    }
  }

  /**
   * Opens the index file, creating it, or building it anew when it is not a
   * usable file of this layout and term pipeline (its old files are removed).
   * @param sqlite - the `node:sqlite` module (see {@link loadSqlite}).
   * @param path - the file.
   * @param options - where tests put faults.
   * @returns the index and whether it was built anew.
   */
  static open(sqlite: SqliteModule, path: string, options: SqliteIndexOptions = {}): SqliteOpened {
    mkdirSync(dirname(path), { recursive: true })
    let db: DatabaseSync
    try {
      db = SqliteIndex.connect(sqlite, path)
    } catch (error) {
      if (!isDamaged(error)) throw error
      SqliteIndex.remove(path)
      return { index: SqliteIndex.open(sqlite, path, options).index, rebuilt: 'corrupt' }
    }
    let rebuilt: SqliteOpened['rebuilt']
    // One transaction, so another process opening the file at the same time sees it whole or waits.
    try {
      db.exec('BEGIN IMMEDIATE')
      try {
        const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'terms_%'").all() as { name: string }[]).map(row => row.name)
        const meta = tables.includes('meta') ? Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map(row => [row.key, row.value])) : {}
        if (tables.length === 0) rebuilt = 'missing'
        else if (meta.format !== SQLITE_FORMAT) rebuilt = 'corrupt'
        else if (meta.version !== String(SQLITE_VERSION) || meta.terms !== termsFingerprint()) rebuilt = 'outdated'
        if (rebuilt === 'corrupt' || rebuilt === 'outdated') for (const name of tables) db.exec(`DROP TABLE IF EXISTS "${name.replaceAll('"', '""')}"`)
        if (rebuilt !== undefined) {
          db.exec(SCHEMA)
          const write = db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)')
          write.run('format', SQLITE_FORMAT)
          write.run('version', String(SQLITE_VERSION))
          write.run('terms', termsFingerprint())
        }
        db.exec('COMMIT')
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK')
        throw error
      }
    } catch (error) {
      db.close()
      if (!isDamaged(error)) throw error
      SqliteIndex.remove(path)
      return { index: SqliteIndex.open(sqlite, path, options).index, rebuilt: 'corrupt' }
    }
    return { index: new SqliteIndex(db, path, options), rebuilt }
  }

  /**
   * Removes an index file and the write-ahead log beside it.
   * @param path - the file.
   */
  static remove(path: string): void {
    for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(file, { force: true })
  }

  private static connect(sqlite: SqliteModule, path: string): DatabaseSync {
    const db = new sqlite.DatabaseSync(path, { timeout: BUSY_MS })
    try {
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8000; PRAGMA temp_store = MEMORY')
    } catch (error) {
      db.close()
      throw error
    }
    return db
  }

  /** Whether a build of this file completed: every session the host listed was indexed once. */
  get complete(): boolean {
    return (this.db.prepare("SELECT value FROM meta WHERE key = 'complete'").get() as { value: string } | undefined)?.value === '1'
  }

  /**
   * Records that the index is complete (when it is), and folds the
   * write-ahead log into the file without waiting for readers.
   * @param complete - whether every listed session has been indexed.
   * @returns the bytes the index takes on disk.
   */
  checkpoint(complete: boolean): number {
    if (complete && !this.complete) this.db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('complete', '1')").run()
    this.db.exec('PRAGMA wal_checkpoint(PASSIVE)')
    return this.bytes()
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
    const rows = this.db.prepare('SELECT no, id, revision, title FROM sessions').all() as { no: number; id: string; revision: string | null; title: string | null }[]
    return rows.map(row => {
      this.idsByNo.set(row.no, row.id)
      return [row.id, { revision: row.revision ?? undefined, title: row.title ?? undefined }]
    })
  }

  /**
   * Indexes a session's text, replacing what the file held of it: only its
   * new messages are written when the earlier ones are unchanged.
   * @param id - the session.
   * @param entry - its text, title and revision.
   */
  set(id: string, entry: ContentEntry): void {
    const messages = entry.messages.length > MAX_MESSAGES ? entry.messages.slice(0, MAX_MESSAGES) : entry.messages
    this.transaction(() => {
      const known = this.statements.session.get(id) as { no: number; messages: number; digest: string; segments: number } | undefined
      const digest = digestOf(messages, known?.messages ?? 0)
      const appends = known !== undefined && known.messages <= messages.length && digest.prefix === known.digest && known.segments < MAX_SEGMENTS
      if (known !== undefined && !appends) this.dropSessionText(known.no, known.messages)
      const from = appends ? known.messages : 0
      const added = from < messages.length ? 1 : 0
      const segments = (appends ? known.segments : 0) + added
      this.beforeWrite()
      const row = this.statements.upsert.get(id, entry.revision ?? null, entry.title ?? null, messages.length, digest.whole, segments) as { no: number }
      this.idsByNo.set(row.no, id)
      if (added === 0) return
      const rowid = row.no * ROW_SPAN + from
      const segment: string[] = []
      const first = new Map<string, number>()
      for (let n = from; n < messages.length; n += 1) {
        const terms = indexTerms(messages[n]!)
        segment.push(terms.join(' '))
        for (const term of terms) if (!first.has(term)) first.set(term, n)
        this.beforeWrite()
        const origin = originAt(entry, n)
        this.statements.putText.run(row.no * ROW_SPAN + n, packed(messages[n]!), origin?.seq ?? null, origin?.time ?? null, origin?.role ?? null)
      }
      this.beforeWrite()
      this.statements.putLocations.run(row.no, JSON.stringify([...first]))
      this.beforeWrite()
      this.statements.putSegment.run(rowid)
      this.beforeWrite()
      this.statements.putTerms.run(rowid, segment.join(' '))
    })
  }

  /**
   * Forgets a session.
   * @param id - the session.
   * @returns whether the file held it.
   */
  delete(id: string): boolean {
    let held = false
    this.transaction(() => {
      const known = this.statements.session.get(id) as { no: number; messages: number } | undefined
      if (known === undefined) return
      held = true
      this.dropSessionText(known.no, known.messages)
      this.beforeWrite()
      this.statements.dropSession.run(known.no)
      this.idsByNo.delete(known.no)
    })
    return held
  }

  private dropSessionText(no: number, messages: number): void {
    const rows = this.statements.segmentsOf.all(no * ROW_SPAN, (no + 1) * ROW_SPAN) as { row: number }[]
    for (const { row } of rows) {
      this.beforeWrite()
      this.statements.dropTerms.run(row)
      this.beforeWrite()
      this.statements.dropSegment.run(row)
    }
    this.beforeWrite()
    this.statements.dropLocations.run(no)
    this.beforeWrite()
    this.statements.dropTexts.run(no * ROW_SPAN, no * ROW_SPAN + Math.max(messages, 1))
  }

  private transaction(body: () => void): void {
    this.beforeWrite()
    this.db.exec('BEGIN IMMEDIATE')
    try {
      body()
      this.beforeWrite()
      this.db.exec('COMMIT')
    } catch (error) {
      try {
        this.db.exec('ROLLBACK')
      } catch {
        // the transaction is already gone
      }
      throw error
    }
  }

  /** Sessions the file holds. */
  private size(): number {
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

  private statement(sql: string): StatementSync {
    let statement = this.search_.get(sql)
    if (statement === undefined) {
      statement = this.db.prepare(sql)
      this.search_.set(sql, statement)
    }
    return statement
  }

  /**
   * Sessions whose text has every term, best match first; ties go to the
   * order `tieBreak` gives. Excerpts are made only for the sessions returned.
   * @param terms - the query's terms (see `queryTerms`).
   * @param admit - whether a session may be found at all.
   * @param limit - most sessions returned.
   * @param tieBreak - orders sessions of equal score.
   * @param admitted - when given, the only sessions whose rows are read at all: rows of other sessions are
   *   left out inside SQLite, so they never use up the rows a query may read.
   * @returns the hits.
   */
  search(terms: readonly QueryTerm[], admit: (id: string) => boolean, limit: number, tieBreak: (a: string, b: string) => number, admitted?: readonly string[]): ContentHit[] {
    if (terms.length === 0 || limit <= 0) return []
    const match = matchOf(terms)
    const found = new Map<string, number>()
    let read = 0
    let last: number | undefined
    const rows = (admitted === undefined || admitted.length >= this.size()
      ? this.statement('SELECT rowid AS row, bm25(terms) AS rank FROM terms WHERE terms MATCH ? ORDER BY rank').iterate(match)
      : this.statement(`SELECT rowid AS row, bm25(terms) AS rank FROM terms WHERE terms MATCH ? AND (rowid / ${ROW_SPAN}) IN (SELECT no FROM sessions WHERE id IN (SELECT value FROM json_each(?))) ORDER BY rank`)
        .iterate(match, JSON.stringify(admitted!))) as Iterator<{ row: number; rank: number }>
    for (let next = rows.next(); !next.done; next = rows.next()) {
      const { row, rank } = next.value
      read += 1
      if (found.size >= limit && rank !== last) break
      if (read > this.maxRowsRead) break
      const id = this.idOf(Math.floor(row / ROW_SPAN))
      if (id === undefined || found.has(id) || !admit(id)) continue
      found.set(id, -rank)
      last = rank
    }
    rows.return?.()
    if (found.size < limit) for (const id of this.acrossSegments(terms, match, admit, found)) found.set(id, 0)
    const ordered = [...found].sort((a, b) => b[1] - a[1] || tieBreak(a[0], b[0]))
    const hits: ContentHit[] = []
    for (const [id, score] of ordered) {
      if (hits.length >= limit) break
      const excerpt = this.snippet(id, terms)
      if (excerpt !== undefined) hits.push({ id, score, ...excerpt })
    }
    return hits
  }

  /** Sessions of several segments, not yet found, whose segments hold every term between them. */
  private acrossSegments(terms: readonly QueryTerm[], match: string, admit: (id: string) => boolean, found: ReadonlyMap<string, number>): string[] {
    const split = (this.statements.split.all() as { no: number }[]).map(({ no }) => no)
    if (split.length === 0 || groupsOf(terms).length < 2) return []
    const has = this.statement('SELECT 1 AS hit FROM terms WHERE terms MATCH ? AND rowid >= ? AND rowid < ? LIMIT 1')
    const out: string[] = []
    for (const no of split) {
      const id = this.idOf(no)
      if (id === undefined || found.has(id) || !admit(id)) continue
      const whole = has.get(match, no * ROW_SPAN, (no + 1) * ROW_SPAN)
      if (whole !== undefined) continue
      if (groupsOf(terms).every(group => has.get(matchOf(group), no * ROW_SPAN, (no + 1) * ROW_SPAN) !== undefined)) out.push(id)
    }
    return out
  }

  /** The first message of a session that holds any of the terms, or `undefined`. */
  private firstHolding(no: number, terms: readonly QueryTerm[]): number | undefined {
    let first: number | undefined
    for (const { term, prefix } of terms) {
      const found = (prefix ? this.statements.locatedPrefix.get(no, term, term + LAST) : this.statements.locatedTerm.get(no, term)) as { message: number | null } | undefined
      const message = found?.message
      if (typeof message === 'number' && (first === undefined || message < first)) first = message
    }
    return first
  }

  /** The excerpt of a session's first message that holds a term. */
  private snippet(id: string, terms: readonly QueryTerm[]): Pick<ContentHit, 'snippet' | 'origin'> | undefined {
    const known = this.statements.session.get(id) as { no: number } | undefined
    if (known === undefined) return undefined
    const first = this.firstHolding(known.no, terms)
    if (first === undefined) return undefined
    const base = known.no * ROW_SPAN
    for (const { row, text, seq, time, role } of this.statements.texts.all(base + first, base + ROW_SPAN, EXCERPT_TRIES) as { row: number; text: Uint8Array; seq: number | null; time: number | null; role: MessageRole | null }[]) {
      const snippet = snippetOf([unpacked(text)], terms)
      if (snippet === undefined) continue
      const origin = seq === null || role === null ? {} : { origin: { seq, time: time ?? 0, role } }
      return { snippet: { ...snippet, message: row - base + 1 }, ...origin }
    }
    return undefined
  }
}
