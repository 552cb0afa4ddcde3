/**
 * The content index's file: its layout and schema, opening it (and building it anew when it is
 * missing, not a usable SQLite file, or of another layout or term pipeline), removing it, and setting
 * a damaged one aside.
 * @module @wishp3/dsh-sessions/host/search/worker/index-file
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import type { SqliteModule } from './sqlite-capability.ts'
import { termsFingerprint } from '../text/terms.ts'
import { DAMAGED_MESSAGE } from '../worker-protocol.ts'

/** The file's format name, kept in its `meta` table. */
export const SQLITE_FORMAT = 'dsh-sessions-content-index-sqlite'

/** Version of the file's layout; a file of another version is built again. */
export const SQLITE_VERSION = 7

/** Bytes of a page of a new file. */
const PAGE_SIZE = 16_384

/** Pages of write-ahead log after which a commit folds it into the file (16 MiB of 16 KiB pages; SQLite's default is 1,000): a build that folds every 4 MiB spends some 12 % more of its time writing the same hot pages again. */
export const WAL_PAGES = 1024

/** Bytes a write-ahead log is cut back to once folded into the file. */
export const WAL_BYTES = 4 * 2 ** 20

/** Milliseconds a change waits for another process's write to finish. */
export const BUSY_MS = 5_000

/** Row ids of stored pieces of text (and of `places` and `inside`): a session's number times this, plus the piece's first message's index. */
export const ROW_SPAN = 2 ** 20

/** Segment row ids (of `terms` and `segments`): a session's number times this, plus the segment's index. Dense ids keep each term's list of rows small: FTS5 stores the gaps between them. */
export const SEGMENT_SPAN = 16

/** How FTS5 merges a term table's segments: a level is merged once it holds `automerge` segments; a write waits for a whole merge only at `crisismerge`. */
const MERGE = { automerge: 16, crisismerge: 64 }

/** Characters of message text stored in one compressed piece at most (a longer message is a piece of its own): an excerpt unpacks the pieces of its session only up to its first match. */
export const PIECE_CHARS = 4 * 1024

/** The Brotli quality of the stored text: 2 packs a piece in some 40 % of the time 5 takes (a fifth of a cold build's work), for 17–20 % more bytes of stored text, and unpacks it as fast; the quality is not part of the layout, so pieces of any quality read alike. Measured on the bench corpora's pieces; `npm run bench -- --only relevance` reports the file's size. */
export const TEXT_QUALITY = 2

/** Pieces a session must have for `places` to name them; a shorter session is excerpted by unpacking its few pieces in order. */
export const PLACES_FROM = 8

/** The layout a file records: FTS5 keeps only the segments that hold each term, numbered densely, no prefix indexes, 4 KiB pieces, `places` for sessions of more than 8 pieces with a word named in the first piece of a segment and later pieces' words in `inside`, Chinese and Japanese text as pairs of characters, and English words by stem in `forms`, text compressed with Brotli. The compression quality and the merge settings are not recorded: a file written otherwise reads alike. */
const LAYOUT_NAME = 'detail=none;prefix=;piece=4096;places=true;pairs=true;words=apart;placesFrom=8;segments=16;forms=porter2;text=brotli'

/** A recorded layout as {@link LAYOUT_NAME} gives it: files of earlier versions recorded their deflate level too. */
const recordedLayout = (name: string | undefined): string | undefined => name?.replace(/;level=\d+/, '')

/** The statements that give a new FTS5 table the merge settings. */
const mergeOf = (table: 'terms' | 'places' | 'inside'): string => Object.entries(MERGE).map(([key, value]) => `INSERT INTO ${table}(${table}, rank) VALUES ('${key}', ${value});`).join('\n')

/** An FTS5 table of terms that records only the rows holding each. */
const termTable = (name: 'terms' | 'places' | 'inside'): string => `CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING fts5(body, content='', contentless_delete=1, tokenize='ascii', detail=none);\n${mergeOf(name)}`

/** The tables of a new file (run only when the file is created or built again). */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sessions(
  no INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  revision TEXT,
  title TEXT,
  messages INTEGER NOT NULL,
  total INTEGER,
  digest TEXT NOT NULL,
  segments INTEGER NOT NULL,
  placed INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS sessions_split ON sessions(no) WHERE segments > 1;
CREATE TABLE IF NOT EXISTS segments(row INTEGER PRIMARY KEY, size INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS texts(row INTEGER PRIMARY KEY, body BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS forms(stem TEXT NOT NULL, word TEXT NOT NULL, PRIMARY KEY(stem, word)) WITHOUT ROWID;
${termTable('terms')}
${termTable('places')}
${termTable('inside')}
`

/** SQLite's primary result codes for a file that is not a database, or is damaged. */
const DAMAGED = new Set([11, 26])

/** The result code SQLite gave for an error (its extended code; the primary code is its low byte). Returns the code, or `undefined` for an error that did not come from SQLite. */
export function sqliteCodeOf(error: unknown): number | undefined {
  const code = (error as { errcode?: unknown } | null)?.errcode
  return typeof code === 'number' ? code : undefined
}

/** Whether an error says the file is not a usable database (as opposed to busy, full or unreadable). */
export function isDamaged(error: unknown): boolean {
  return DAMAGED.has((sqliteCodeOf(error) ?? 0) & 0xff)
}

/** Whether an error says another connection holds the file (`SQLITE_BUSY`, `SQLITE_LOCKED`). */
export function isBusy(error: unknown): boolean {
  const primary = (sqliteCodeOf(error) ?? 0) & 0xff
  return primary === 5 || primary === 6
}

/** The index file turned out damaged after it was opened (SQLite said so, or a stored text did not unpack). */
export class IndexDamagedError extends Error {
  constructor(cause: unknown) {
    super(`${DAMAGED_MESSAGE}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'IndexDamagedError'
  }
}

/** What opening the file gave: its database, and whether it was built anew (and why). */
export interface IndexFileOpened {
  readonly db: DatabaseSync
  /** `undefined` when the file was used as it was; else why it was built anew. */
  readonly rebuilt: 'missing' | 'corrupt' | 'outdated' | undefined
}

/** Opens the index file, creating it, or building it anew when it is not a usable file of this layout and term pipeline (its old files are removed). */
export function openIndexFile(sqlite: SqliteModule, path: string): IndexFileOpened {
  mkdirSync(dirname(path), { recursive: true })
  let db: DatabaseSync
  try {
    db = connect(sqlite, path)
  } catch (error) {
    if (!isDamaged(error)) throw error
    setIndexFileAside(path)
    return { db: openIndexFile(sqlite, path).db, rebuilt: 'corrupt' }
  }
  let rebuilt: IndexFileOpened['rebuilt']
  // One transaction, so another process opening the file at the same time sees it whole or waits.
  try {
    db.exec('BEGIN IMMEDIATE')
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'terms_%'").all() as { name: string }[]).map(row => row.name)
      const meta = tables.includes('meta') ? Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map(row => [row.key, row.value])) : {}
      if (tables.length === 0) rebuilt = 'missing'
      else if (meta.format !== SQLITE_FORMAT) rebuilt = 'corrupt'
      else if (meta.version !== String(SQLITE_VERSION) || meta.terms !== termsFingerprint() || recordedLayout(meta.layout) !== LAYOUT_NAME) rebuilt = 'outdated'
      if (rebuilt === 'corrupt' || rebuilt === 'outdated') for (const name of tables) db.exec(`DROP TABLE IF EXISTS "${name.replaceAll('"', '""')}"`)
      if (rebuilt !== undefined) {
        db.exec(SCHEMA)
        const write = db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)')
        write.run('format', SQLITE_FORMAT)
        write.run('version', String(SQLITE_VERSION))
        write.run('terms', termsFingerprint())
        write.run('layout', LAYOUT_NAME)
      }
      db.exec('COMMIT')
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK')
      throw error
    }
  } catch (error) {
    db.close()
    if (!isDamaged(error)) throw error
    setIndexFileAside(path)
    return { db: openIndexFile(sqlite, path).db, rebuilt: 'corrupt' }
  }
  if (rebuilt !== undefined) {
    // Dropped tables leave their pages in the file: give them back (an older layout's file could be gigabytes).
    // A new file gets its header and schema written to it at once, so a health check can read them there.
    try {
      db.exec(rebuilt === 'missing' ? 'PRAGMA wal_checkpoint(TRUNCATE)' : 'VACUUM; PRAGMA wal_checkpoint(TRUNCATE)')
    } catch {
      // another process is reading it: the pages are reused by the new build instead, and the header is written at the next checkpoint
    }
  }
  return { db, rebuilt }
}

/** Removes an index file and the write-ahead log beside it. */
export function removeIndexFile(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(file, { force: true })
}

/** Moves a damaged index file and its write-ahead log aside, to `<file>.damaged` (replacing one an earlier damage left), for a look later. */
export function setIndexFileAside(path: string): string {
  const aside = `${path}.damaged`
  // What stood at the path may be a folder, not a file.
  for (const end of ['', '-wal', '-shm', '-journal']) rmSync(`${aside}${end}`, { force: true, recursive: true })
  for (const end of ['', '-wal']) {
    try {
      renameSync(`${path}${end}`, `${aside}${end}`)
    } catch {
      // A companion file that cannot be moved aside is removed, so the fresh file starts clean.
      rmSync(`${path}${end}`, { force: true, recursive: true })
    }
  }
  for (const end of ['-shm', '-journal']) rmSync(`${path}${end}`, { force: true, recursive: true })
  return aside
}

function connect(sqlite: SqliteModule, path: string): DatabaseSync {
  const db = new sqlite.DatabaseSync(path, { timeout: BUSY_MS })
  try {
    // The page size counts only when the file is created: larger pages hold the compressed pieces of text with less room left over.
    db.exec(`PRAGMA page_size = ${PAGE_SIZE}`)
    // The write-ahead log is folded into the file once it holds WAL_PAGES pages, and cut back to WAL_BYTES after.
    db.exec(`PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = ${WAL_PAGES}; PRAGMA journal_size_limit = ${WAL_BYTES}; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8000; PRAGMA temp_store = MEMORY`)
  } catch (error) {
    db.close()
    throw error
  }
  return db
}
