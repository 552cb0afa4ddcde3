/**
 * The content index on disk: a SQLite file of its own beside the harness's
 * data, opened through `node:sqlite` by the search worker alone, so what it
 * holds lives on disk and the process keeps only SQLite's page cache.
 *
 * Layout (chosen by measurement, see the README's "The content index on
 * disk"). `sessions` names each indexed session (id, log revision, title,
 * message count, and a digest chained over its message texts). A session's
 * messages are indexed in segments: a run of consecutive messages written at
 * once. A session's first indexing writes one segment, and a live session's
 * new messages are written as a new segment of their own, so a new message
 * costs a write proportional to it. `terms` is a contentless FTS5 table with
 * one row per segment and `detail=none`: it records which segments hold a
 * term, not where or how often, and has no prefix index. Its text is the
 * segment's distinct terms (see `text.ts`) separated by spaces, split by the
 * `ascii` tokenizer: the terms are made here, so the tokenizer only has to
 * keep them whole (Chinese and Japanese pairs and runs of three included). `segments` lists
 * each segment with its number of distinct terms. `texts` holds the message
 * texts and their origins in compressed pieces of about
 * {@link PIECE_CHARS} characters of consecutive messages, and `places`, a
 * second FTS5 table like `terms`, names the pieces that hold each term
 * (Chinese and Japanese runs of three left out: a run's pairs find its
 * pieces), so an excerpt unpacks only the pieces it needs. Row ids are the session's
 * number times 2^20 plus the index of the first message (of the segment, or
 * the piece), so a hit names its session without a lookup. A session whose
 * segments grow past {@link MAX_SEGMENTS}, or whose earlier messages
 * changed, is written again as one segment.
 *
 * Queries ask FTS5 for the segments holding every term (a Chinese or
 * Japanese run as its runs of three), in row order, and rank them a batch of
 * at most {@link RANKED_ROWS} at a time inside SQLite (see {@link scoreOf}),
 * reading the ranked sessions only as far as the answers need, so a query
 * that matches most sessions ranks a bounded set. For the sessions taken, one
 * walk of `places` per term group names their pieces: a run must stand whole
 * in one message (the index alone cannot tell, having no positions; its runs
 * of three make a session whose pieces of the run stand apart rare), and the
 * excerpt is made from the first message that matches. Sessions of more
 * than one segment can hold the terms only across their segments; those few
 * are checked term by term after the others.
 *
 * Every change is one transaction in write-ahead-log mode, so a process
 * stopped at any moment leaves the file as it was at its last completed
 * change, and two processes on one home take turns writing (each waits for
 * the other up to {@link BUSY_MS}). The file records its layout version and
 * the fingerprint of the term pipeline; a file of another layout or
 * pipeline, or one that is not a usable SQLite file, is removed and built
 * again. A file found damaged after it was opened makes the operation throw
 * {@link IndexDamagedError}; the caller sets it aside (see `index-keeper.ts`).
 * @module @wishp3/dsh-sessions/host/search/sqlite-index
 */
import { createHash } from 'node:crypto'
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { Snippet } from '../../shared/wire.ts'
import type { ConversationText, MessageOrigin, MessageRole } from './conversation.ts'
import { snippetOf } from './snippet.ts'
import { foldedForMatch, isUnspaced, pairsOf, type QueryTerm, termsFingerprint, visitIndexTerms } from './text.ts'
import { DAMAGED_MESSAGE, type EntrySummary } from './worker-protocol.ts'

/** What the index holds of one session. */
export interface ContentEntry extends ConversationText {
  /** Revision of the log the text was read from (`live:<seq>` for text taken from a live session); `undefined` when unknown. */
  readonly revision: string | undefined
}

/** One session found by its text. */
export interface ContentHit {
  readonly id: string
  readonly score: number
  readonly snippet: Snippet
  /** The log event of the message the excerpt is from, where the index knows it. */
  readonly origin?: MessageOrigin
}

/** The file's format name, kept in its `meta` table. */
export const SQLITE_FORMAT = 'dsh-sessions-content-index-sqlite'

/** Version of the file's layout; a file of another version is built again. */
export const SQLITE_VERSION = 5

/** A session written as more segments than this is written again as one. */
export const MAX_SEGMENTS = 16

/** Bytes of a page of a new file. */
const PAGE_SIZE = 16_384

/** Milliseconds a change waits for another process's write to finish. */
const BUSY_MS = 5_000

/** Segment row ids: a session's number times this, plus the first message's index. */
const ROW_SPAN = 2 ** 20

/** Most messages one session's text may hold (the row-id scheme's bound). */
const MAX_MESSAGES = ROW_SPAN - 1

/** Characters of message text stored in one compressed piece at most (a longer message is a piece of its own): an excerpt unpacks the pieces of its session only up to its first match. */
export const PIECE_CHARS = 4 * 1024

/** Matching segment rows ranked together: a query ranks the first this many (in row order), takes what it needs, and only then reads more. */
export const RANKED_ROWS = 1_000

/**
 * How the file is laid out: what FTS5 records of each term (`none`: the
 * segments that hold it; `column`, `full`: more), its prefix indexes, and the
 * deflate level of the stored text. The index uses {@link LAYOUT}; the others
 * exist to be measured against it (`npm run bench -- --only layouts`).
 */
export interface SqliteLayout {
  readonly detail: 'none' | 'column' | 'full'
  readonly prefix: readonly number[]
  readonly level: number
  /** Characters of message text per stored piece (see {@link PIECE_CHARS}). */
  readonly pieceChars: number
  /** Whether a second FTS5 table names the pieces that hold each term, so an excerpt unpacks only those; without it, a session's pieces are unpacked in order up to its first match. */
  readonly places: boolean
  /** Whether Chinese and Japanese runs of three characters are terms of `terms` (a query's longer runs are then asked as those, else as their pairs). */
  readonly threes: boolean
}

/** The layout the index uses. */
export const LAYOUT: SqliteLayout = { detail: 'none', prefix: [], level: 6, pieceChars: PIECE_CHARS, places: true, threes: true }

const layoutName = (layout: SqliteLayout): string => `detail=${layout.detail};prefix=${layout.prefix.join(',')};level=${layout.level};piece=${layout.pieceChars};places=${layout.places};threes=${layout.threes}`

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
    probe.exec("CREATE VIRTUAL TABLE probe USING fts5(body, content='', contentless_delete=1, tokenize='ascii', detail=none)")
    probe.close()
  } catch (error) {
    return { ok: false, reason: `SQLite has no usable FTS5: ${error instanceof Error ? error.message : String(error)}` }
  }
  return { ok: true, sqlite }
}

const schemaOf = (layout: SqliteLayout): string => `
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
CREATE TABLE IF NOT EXISTS segments(row INTEGER PRIMARY KEY, size INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS texts(row INTEGER PRIMARY KEY, body BLOB NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS terms USING fts5(body, content='', contentless_delete=1, tokenize='ascii', detail=${layout.detail}${layout.prefix.length > 0 ? `, prefix='${layout.prefix.join(' ')}'` : ''});
${layout.places ? "CREATE VIRTUAL TABLE IF NOT EXISTS places USING fts5(body, content='', contentless_delete=1, tokenize='ascii', detail=none);" : ''}
`

/** Options of {@link SqliteIndex.open}. */
export interface SqliteIndexOptions {
  /** Called before each statement that writes, and before each commit (tests stop the process here). */
  readonly beforeWrite?: () => void
  /** Matching rows ranked together (default {@link RANKED_ROWS}). */
  readonly rankedRows?: number
  /** The layout (default {@link LAYOUT}; others only to measure them). */
  readonly layout?: SqliteLayout
}

/** SQLite's primary result codes for a file that is not a database, or is damaged. */
const DAMAGED = new Set([11, 26])

/** Whether an error says the file is not a usable database (as opposed to busy, full or unreadable). */
function isDamaged(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode
  return typeof code === 'number' && DAMAGED.has(code & 0xff)
}

/** The index file turned out damaged after it was opened (SQLite said so, or a stored text did not unpack). */
export class IndexDamagedError extends Error {
  constructor(cause: unknown) {
    super(`${DAMAGED_MESSAGE}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'IndexDamagedError'
  }
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

/** A piece of stored text: consecutive messages and, per message, `[seq, time, role]` or `null`. */
type StoredPiece = [messages: string[], origins: ([number, number, MessageRole] | null)[]]

class UnpackError extends Error {}

function unpack(blob: Uint8Array): StoredPiece {
  let value: unknown
  try {
    value = JSON.parse(inflateRawSync(blob).toString('utf8'))
  } catch (error) {
    throw new UnpackError(`a stored piece of text does not unpack: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!Array.isArray(value) || !Array.isArray(value[0]) || !Array.isArray(value[1])) throw new UnpackError('a stored piece of text is not one')
  return value as StoredPiece
}

/**
 * A matching segment's score: BM25 where every term of the query occurs,
 * once. FTS5 keeps no term counts with `detail=none` (its `bm25()` gives 0),
 * and every answer holds the same terms, so BM25's order is that of the
 * segment's length in distinct terms, shortest first.
 * @param size - the segment's distinct terms.
 * @returns a score, higher for a better match.
 */
function scoreOf(size: number): number {
  return 1 / (1 + size)
}

/** A hit's excerpt of the message at `index` (from 0), with its origin where known. */
function excerptAt(snippet: Snippet, index: number, origin: StoredPiece[1][number] | undefined): Pick<ContentHit, 'snippet' | 'origin'> {
  return { snippet: { ...snippet, message: index + 1 }, ...(origin === null || origin === undefined || origin[0] < 0 ? {} : { origin: { seq: origin[0], time: origin[1], role: origin[2] } }) }
}

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
 * A Chinese or Japanese run of three or more characters that a query holds:
 * the text it stands for, and its pairs. `terms` finds it by its runs of
 * three, `places` (which holds pairs only) by its pairs; neither tells
 * where they stand, so that the run stands whole is checked in the text.
 */
interface Run {
  readonly text: string
  readonly terms: readonly QueryTerm[]
}

/** The query's runs of three or more characters, in order: each a group of runs of three. */
function runsOf(terms: readonly QueryTerm[]): Run[] {
  return groupsOf(terms).filter(isRun).map(group => {
    const text = group.map(({ term }, n) => (n === 0 ? term : [...term].at(-1)!)).join('')
    return { text, terms: pairsOf(text).map(term => ({ term, prefix: false })) }
  })
}

/** The query's terms with each run of three or more characters as its pairs, for a file without runs of three. */
function asPairs(terms: readonly QueryTerm[]): QueryTerm[] {
  return groupsOf(terms).flatMap((group, n) => {
    if (!isRun(group)) return group
    const text = group.map(({ term }, k) => (k === 0 ? term : [...term].at(-1)!)).join('')
    return pairsOf(text).map(term => ({ term, prefix: false, run: -1 - n }))
  })
}

/** Whether a group of the query's terms is a run of three or more unspaced characters. */
function isRun(group: readonly QueryTerm[]): boolean {
  return group.length > 1 || (!group[0]!.prefix && isUnspaced(group[0]!.term) && [...group[0]!.term].length >= 3)
}

/** An FTS5 query needing every term: each quoted (terms hold only letters, marks and digits), a prefix one starred. */
function matchOf(terms: readonly QueryTerm[]): string {
  return terms.map(quoted).join(' ')
}

interface Statements {
  readonly session: StatementSync
  readonly upsert: StatementSync
  readonly segmentsOf: StatementSync
  readonly putSegment: StatementSync
  readonly putTerms: StatementSync
  readonly dropTerms: StatementSync
  readonly dropSegments: StatementSync
  readonly putText: StatementSync
  readonly putPlace: StatementSync
  readonly piecesOf: StatementSync
  readonly dropPlace: StatementSync
  readonly dropTexts: StatementSync
  readonly text: StatementSync
  readonly places: StatementSync
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
  /** The pieces of text unpacked by the query under way (a piece is unpacked once per query). */
  private unpacked: Map<number, StoredPiece> | undefined
  private readonly beforeWrite: () => void
  private readonly rankedRows: number
  private readonly level: number
  private readonly pieceChars: number
  private readonly places: boolean
  private readonly threes: boolean
  readonly path: string

  private constructor(db: DatabaseSync, path: string, options: SqliteIndexOptions) {
    this.db = db
    this.path = path
    this.beforeWrite = options.beforeWrite ?? (() => undefined)
    this.rankedRows = options.rankedRows ?? RANKED_ROWS
    this.level = (options.layout ?? LAYOUT).level
    this.pieceChars = (options.layout ?? LAYOUT).pieceChars
    this.places = (options.layout ?? LAYOUT).places
    this.threes = (options.layout ?? LAYOUT).threes
    const s = (sql: string) => db.prepare(sql)
    this.statements = {
      session: s('SELECT no, messages, digest, segments FROM sessions WHERE id = ?'),
      upsert: s('INSERT INTO sessions(id, revision, title, messages, digest, segments) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET revision = excluded.revision, title = excluded.title, messages = excluded.messages, digest = excluded.digest, segments = excluded.segments RETURNING no'),
      segmentsOf: s('SELECT row FROM segments WHERE row >= ? AND row < ? ORDER BY row'),
      putSegment: s('INSERT OR REPLACE INTO segments(row, size) VALUES (?, ?)'),
      putTerms: s('INSERT INTO terms(rowid, body) VALUES (?, ?)'),
      dropTerms: s('DELETE FROM terms WHERE rowid = ?'),
      dropSegments: s('DELETE FROM segments WHERE row >= ? AND row < ?'),
      putText: s('INSERT OR REPLACE INTO texts(row, body) VALUES (?, ?)'),
      dropTexts: s('DELETE FROM texts WHERE row >= ? AND row < ?'),
      putPlace: this.places ? s('INSERT INTO places(rowid, body) VALUES (?, ?)') : s('SELECT ?, ?'),
      piecesOf: s('SELECT row FROM texts WHERE row >= ? AND row < ?'),
      dropPlace: this.places ? s('DELETE FROM places WHERE rowid = ?') : s('SELECT ?'),
      text: s('SELECT body FROM texts WHERE row = ?'),
      places: this.places ? s('SELECT rowid AS row FROM places WHERE places MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid') : s('SELECT row FROM texts WHERE ? IS NOT NULL AND row >= ? AND row < ? ORDER BY row'),
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
    const layout = options.layout ?? LAYOUT
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
        else if (meta.version !== String(SQLITE_VERSION) || meta.terms !== termsFingerprint() || meta.layout !== layoutName(layout)) rebuilt = 'outdated'
        if (rebuilt === 'corrupt' || rebuilt === 'outdated') for (const name of tables) db.exec(`DROP TABLE IF EXISTS "${name.replaceAll('"', '""')}"`)
        if (rebuilt !== undefined) {
          db.exec(schemaOf(layout))
          const write = db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)')
          write.run('format', SQLITE_FORMAT)
          write.run('version', String(SQLITE_VERSION))
          write.run('terms', termsFingerprint())
          write.run('layout', layoutName(layout))
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
    if (rebuilt === 'corrupt' || rebuilt === 'outdated') {
      // Dropped tables leave their pages in the file: give them back (an older layout's file could be gigabytes).
      try {
        db.exec('VACUUM; PRAGMA wal_checkpoint(TRUNCATE)')
      } catch {
        // another process is reading it: the pages are reused by the new build instead
      }
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

  /**
   * Moves a damaged index file and its write-ahead log aside, to
   * `<file>.damaged` (replacing one an earlier damage left), for a look later.
   * @param path - the file.
   * @returns where it went.
   */
  static setAside(path: string): string {
    const aside = `${path}.damaged`
    SqliteIndex.remove(aside)
    for (const end of ['', '-wal']) {
      try {
        renameSync(`${path}${end}`, `${aside}${end}`)
      } catch {
        rmSync(`${path}${end}`, { force: true })
      }
    }
    for (const end of ['-shm', '-journal']) rmSync(`${path}${end}`, { force: true })
    return aside
  }

  private static connect(sqlite: SqliteModule, path: string): DatabaseSync {
    const db = new sqlite.DatabaseSync(path, { timeout: BUSY_MS })
    try {
      // The page size counts only when the file is created: larger pages hold the compressed pieces of text with less room left over.
      db.exec(`PRAGMA page_size = ${PAGE_SIZE}`)
      db.exec('PRAGMA journal_mode = WAL; PRAGMA journal_size_limit = 8388608; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8000; PRAGMA temp_store = MEMORY')
    } catch (error) {
      db.close()
      throw error
    }
    return db
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

  /**
   * Records that the index is complete (when it is), and folds the
   * write-ahead log into the file and empties it, so what the index takes on
   * disk is its file (a log left at its largest would add tens of megabytes
   * after a build). Another process's reader makes it wait up to the busy
   * timeout, then it folds what it can.
   * @param complete - whether every listed session has been indexed.
   * @returns the bytes the index takes on disk.
   */
  checkpoint(complete: boolean): number {
    this.guarded(() => {
      if (complete && !this.complete) this.db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('complete', '1')").run()
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    })
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
    const rows = this.guarded(() => this.db.prepare('SELECT no, id, revision, title FROM sessions').all() as { no: number; id: string; revision: string | null; title: string | null }[])
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
      if (known !== undefined && !appends) this.dropSessionText(known.no)
      const from = appends ? known.messages : 0
      const added = from < messages.length ? 1 : 0
      const segments = (appends ? known.segments : 0) + added
      this.beforeWrite()
      const row = this.statements.upsert.get(id, entry.revision ?? null, entry.title ?? null, messages.length, digest.whole, segments) as { no: number }
      this.idsByNo.set(row.no, id)
      if (added === 0) return
      const rowid = row.no * ROW_SPAN + from
      const terms = new Set<string>()
      let piece: StoredPiece = [[], []]
      let pieceTerms = new Set<string>()
      let pieceAt = from
      let chars = 0
      const putPiece = (): void => {
        if (piece[0].length === 0) return
        this.beforeWrite()
        this.statements.putText.run(row.no * ROW_SPAN + pieceAt, deflateRawSync(JSON.stringify(piece), { level: this.level }))
        if (!this.places) return
        this.beforeWrite()
        this.statements.putPlace.run(row.no * ROW_SPAN + pieceAt, [...pieceTerms].join(' '))
      }
      for (let n = from; n < messages.length; n += 1) {
        const message = messages[n]!
        if (chars > 0 && chars + message.length > this.pieceChars) {
          putPiece()
          piece = [[], []]
          pieceTerms = new Set()
          pieceAt = n
          chars = 0
        }
        // `places` names pieces for excerpts: pairs find a run's pieces there, so its runs of three are left out.
        visitIndexTerms(message, (term, three) => {
          if (this.threes || !three) terms.add(term)
          if (this.places && !three) pieceTerms.add(term)
        })
        const origin = entry.origins?.[n]
        piece[0].push(message)
        piece[1].push(origin === undefined ? null : [origin.seq, origin.time, origin.role])
        chars += message.length
      }
      putPiece()
      this.beforeWrite()
      this.statements.putSegment.run(rowid, terms.size)
      this.beforeWrite()
      this.statements.putTerms.run(rowid, [...terms].join(' '))
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
      const known = this.statements.session.get(id) as { no: number } | undefined
      if (known === undefined) return
      held = true
      this.dropSessionText(known.no)
      this.beforeWrite()
      this.statements.dropSession.run(known.no)
      this.idsByNo.delete(known.no)
    })
    return held
  }

  private dropSessionText(no: number): void {
    const rows = this.statements.segmentsOf.all(no * ROW_SPAN, (no + 1) * ROW_SPAN) as { row: number }[]
    for (const { row } of rows) {
      this.beforeWrite()
      this.statements.dropTerms.run(row)
    }
    this.beforeWrite()
    this.statements.dropSegments.run(no * ROW_SPAN, (no + 1) * ROW_SPAN)
    if (this.places) for (const { row } of this.statements.piecesOf.all(no * ROW_SPAN, (no + 1) * ROW_SPAN) as { row: number }[]) {
      this.beforeWrite()
      this.statements.dropPlace.run(row)
    }
    this.beforeWrite()
    this.statements.dropTexts.run(no * ROW_SPAN, (no + 1) * ROW_SPAN)
  }

  private transaction(body: () => void): void {
    this.guarded(() => {
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
    })
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
   * order `tieBreak` gives. Matching rows are ranked a bounded batch at a
   * time (see {@link RANKED_ROWS}); excerpts are made only for the sessions
   * returned.
   * @param terms - the query's terms (see `queryTerms`).
   * @param admit - whether a session may be found at all.
   * @param limit - most sessions returned.
   * @param tieBreak - orders sessions of equal score.
   * @param admitted - when given, the only sessions whose rows are read at all: rows of other sessions are
   *   left out inside SQLite, so they never take the place of admitted ones.
   * @returns the hits.
   */
  search(terms: readonly QueryTerm[], admit: (id: string) => boolean, limit: number, tieBreak: (a: string, b: string) => number, admitted?: readonly string[]): ContentHit[] {
    if (terms.length === 0 || limit <= 0) return []
    return this.guarded(() => this.find(terms, admit, limit, tieBreak, admitted))
  }

  private find(asked: readonly QueryTerm[], admit: (id: string) => boolean, limit: number, tieBreak: (a: string, b: string) => number, admitted?: readonly string[]): ContentHit[] {
    const runs = runsOf(asked)
    const terms = this.threes ? asked : asPairs(asked)
    const match = matchOf(terms)
    const seen = new Set<number>()
    const hits: ContentHit[] = []
    const only = admitted === undefined || admitted.length >= this.size() ? undefined : JSON.stringify(admitted)
    // One batch: the next rows in row order, each session's best (shortest) segment, best first, ranked inside SQLite.
    const batch = this.statement(`WITH batch AS MATERIALIZED (SELECT rowid AS row FROM terms WHERE terms MATCH ? AND rowid > ?${only === undefined ? '' : ` AND (rowid / ${ROW_SPAN}) IN (SELECT no FROM sessions WHERE id IN (SELECT value FROM json_each(?)))`} ORDER BY rowid LIMIT ?) `
      + `SELECT batch.row / ${ROW_SPAN} AS no, min(segments.size) AS size, (SELECT max(row) FROM batch) AS last, (SELECT count(*) FROM batch) AS read FROM batch JOIN segments ON segments.row = batch.row GROUP BY 1 ORDER BY 2`)
    this.unpacked = new Map()
    try {
      let after = -1
      let full = true
      while (full && hits.length < limit) {
        const rows = (only === undefined ? batch.iterate(match, after, this.rankedRows) : batch.iterate(match, after, only, this.rankedRows)) as Iterator<{ no: number; size: number; last: number; read: number }>
        full = false
        try {
          // Sessions are taken best first, a tie of equal scores whole (ordered by `tieBreak`), until they could fill what is left.
          let taken: [string, number, number][] = []
          let tie: [string, number, number][] = []
          const flush = (): void => {
            tie.sort((a, b) => tieBreak(a[0], b[0]))
            taken.push(...tie)
            tie = []
          }
          for (let next = rows.next(); hits.length < limit; next = rows.next()) {
            if (next.done === true || (tie.length > 0 && scoreOf(next.value.size) !== tie[0]![2])) {
              flush()
              if (taken.length >= limit - hits.length || next.done === true) {
                this.excerpts(taken, terms, runs, limit, hits)
                taken = []
              }
              if (next.done === true) break
            }
            const { no, size, last, read } = next.value
            after = last
            full = read >= this.rankedRows
            if (seen.has(no)) continue
            seen.add(no)
            const id = this.idOf(no)
            if (id !== undefined && admit(id)) tie.push([id, no, scoreOf(size)])
          }
        } finally {
          rows.return?.()
        }
      }
      if (hits.length < limit) {
        const across = this.acrossSegments(terms, match, admit, seen).sort(tieBreak)
        this.excerpts(across.flatMap(id => { const no = this.noOf(id); return no === undefined ? [] : [[id, no, 0] as [string, number, number]] }), terms, runs, limit, hits)
      }
    } finally {
      this.unpacked = undefined
    }
    return hits
  }

  /**
   * Adds to `hits`, in order, the candidates whose excerpt can be made (see
   * {@link excerpt}), until `limit`. The pieces each needs are found a few
   * candidates at a time, with one query of `places` per term group.
   */
  private excerpts(candidates: readonly [id: string, no: number, score: number][], terms: readonly QueryTerm[], runs: readonly Run[], limit: number, hits: ContentHit[]): void {
    if (!this.places) {
      for (const [id, no, score] of candidates) {
        if (hits.length >= limit) break
        const excerpt = this.excerptByScan(no, terms, runs)
        if (excerpt !== undefined) hits.push({ id, score, ...excerpt })
      }
      return
    }
    // The excerpt is of the first message that holds the query's first word or run.
    const lead = groupsOf(terms)[0]!
    const leadIsRun = isRun(lead)
    for (let at = 0; at < candidates.length && hits.length < limit;) {
      const take = candidates.slice(at, at + limit - hits.length)
      at += take.length
      const nos = take.map(([, no]) => no)
      const whole = runs.map(run => this.located(matchOf(run.terms), nos))
      const first = leadIsRun ? whole[0]! : this.located(matchOf(lead), nos)
      for (const [id, no, score] of take) {
        const excerpt = this.excerpt(no, terms, runs.map((run, n) => [run, whole[n]!.get(no)]), first.get(no))
        if (excerpt !== undefined) hits.push({ id, score, ...excerpt })
      }
    }
  }

  /**
   * For each of the given sessions, the first of its pieces of text that
   * `places` says match, in one query (the walk of the matching pieces, over
   * the range of rows those sessions span, and the choice stay inside SQLite).
   */
  private located(match: string, nos: readonly number[]): Map<number, number> {
    if (nos.length === 0) return new Map()
    // The range lets FTS5 skip the rows before and after the sessions asked for (a batch's sessions are neighbours in row order).
    const rows = this.statement(`SELECT rowid / ${ROW_SPAN} AS no, min(rowid) AS row FROM places WHERE places MATCH ? AND rowid >= ? AND rowid < ? AND (rowid / ${ROW_SPAN}) IN (SELECT value FROM json_each(?)) GROUP BY 1`)
      .all(match, Math.min(...nos) * ROW_SPAN, (Math.max(...nos) + 1) * ROW_SPAN, JSON.stringify(nos)) as { no: number; row: number }[]
    return new Map(rows.map(({ no, row }) => [no, row]))
  }

  private noOf(id: string): number | undefined {
    return (this.statements.session.get(id) as { no: number } | undefined)?.no
  }

  /** Sessions of several segments, not yet seen, whose segments hold every term between them. */
  private acrossSegments(terms: readonly QueryTerm[], match: string, admit: (id: string) => boolean, seen: ReadonlySet<number>): string[] {
    if (terms.length < 2) return []
    const split = (this.statements.split.all() as { no: number }[]).map(({ no }) => no)
    if (split.length === 0) return []
    const has = this.statement('SELECT 1 AS hit FROM terms WHERE terms MATCH ? AND rowid >= ? AND rowid < ? LIMIT 1')
    const out: string[] = []
    for (const no of split) {
      const id = this.idOf(no)
      if (id === undefined || seen.has(no) || !admit(id)) continue
      if (has.get(match, no * ROW_SPAN, (no + 1) * ROW_SPAN) !== undefined) continue
      if (terms.every(term => has.get(quoted(term), no * ROW_SPAN, (no + 1) * ROW_SPAN) !== undefined)) out.push(id)
    }
    return out
  }

  /** A stored piece of text, by its row. */
  private piece(row: number): StoredPiece {
    const known = this.unpacked?.get(row)
    if (known !== undefined) return known
    const found = this.statements.text.get(row) as { body: Uint8Array } | undefined
    if (found === undefined) throw new UnpackError('a piece of text the index names is missing')
    const piece = unpack(found.body)
    this.unpacked?.set(row, piece)
    return piece
  }

  /**
   * The excerpt of a session's first message that matches, from its pieces
   * of text unpacked in order only as far as needed; `undefined` when a run
   * of the query stands whole in none of its messages (its pairs were found
   * apart), or no message matches.
   */
  private excerptByScan(no: number, terms: readonly QueryTerm[], runs: readonly Run[]): Pick<ContentHit, 'snippet' | 'origin'> | undefined {
    const left = new Set(runs.map(run => run.text))
    let found: Pick<ContentHit, 'snippet' | 'origin'> | undefined
    const from = no * ROW_SPAN
    const pieces = this.statement('SELECT row, body FROM texts WHERE row >= ? AND row < ? ORDER BY row').iterate(from, from + ROW_SPAN) as Iterator<{ row: number; body: Uint8Array }>
    try {
      for (let next = pieces.next(); next.done !== true && (found === undefined || left.size > 0); next = pieces.next()) {
        const [messages, origins] = unpack(next.value.body)
        for (const [n, message] of messages.entries()) {
          if (left.size > 0) {
            const folded = foldedForMatch(message)
            for (const run of left) if (folded.includes(run)) left.delete(run)
          }
          if (found === undefined) {
            const snippet = snippetOf([message], terms)
            if (snippet !== undefined) found = excerptAt(snippet, next.value.row - from + n, origins[n])
          }
          if (found !== undefined && left.size === 0) break
        }
      }
    } finally {
      pieces.return?.()
    }
    return left.size > 0 ? undefined : found
  }

  /**
   * The excerpt of a session's first message that holds the query's first
   * word or run, made from the pieces of text `places` named: each run of
   * the query must stand whole in a message of a piece that holds its pairs
   * (the first such piece is tried, then the session's others; else
   * `undefined`: the pairs were found apart). Where the named piece gives no
   * excerpt (a match past what excerpts scan of a long message), the
   * session's pieces are read in order.
   */
  private excerpt(no: number, terms: readonly QueryTerm[], runs: readonly (readonly [Run, number | undefined])[], first: number | undefined): Pick<ContentHit, 'snippet' | 'origin'> | undefined {
    const from = no * ROW_SPAN
    const holds = (row: number, run: Run): boolean => this.piece(row)[0].some(message => foldedForMatch(message).includes(run.text))
    let lead = first
    for (const [n, [run, row]] of runs.entries()) {
      if (row !== undefined && holds(row, run)) continue
      const other = (this.statements.places.all(matchOf(run.terms), from, from + ROW_SPAN) as { row: number }[]).find(({ row: piece }) => piece !== row && holds(piece, run))
      if (other === undefined) return undefined
      // The first run may be the query's first group, whose piece the excerpt is made from.
      if (n === 0 && first === row && isRun(groupsOf(terms)[0]!)) lead = other.row
    }
    if (lead !== undefined) {
      const [messages, origins] = this.piece(lead)
      for (const [n, message] of messages.entries()) {
        const snippet = snippetOf([message], terms)
        if (snippet !== undefined) return excerptAt(snippet, lead - from + n, origins[n])
      }
    }
    return this.excerptByScan(no, terms, [])
  }

}
