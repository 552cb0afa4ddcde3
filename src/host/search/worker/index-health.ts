/**
 * A cheap look at whether the content index's file on disk is still the file the index opened, and
 * readable.
 * @module @wishp3/dsh-sessions/host/search/worker/index-health
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { BUSY_MS, isDamaged, SQLITE_FORMAT, sqliteCodeOf } from './index-file.ts'
import type { SqliteModule } from './sqlite-capability.ts'
import { unpack, UnpackError } from '../text/stored-text.ts'

/** Rows read at random from each table in one look. */
export const HEALTH_PROBES = 12

/** What the file is expected to be. */
export interface ExpectedFile {
  /** The file's inode when the index opened it. */
  readonly inode: number | bigint
  readonly pageSize: number
}

/** SQLite's code for a read past the end of a file (`SQLITE_IOERR_SHORT_READ`). */
const SHORT_READ = 522

const HEADER = 'SQLite format 3\u0000'

/** Whether an error met while reading the file back says it is damaged: SQLite finds no database or a damaged one, a stored text does not unpack, or a read runs past the file's end. A busy, locked or otherwise unreadable file is not damaged. */
export function isDamageSign(error: unknown): boolean {
  return isDamaged(error) || error instanceof UnpackError || sqliteCodeOf(error) === SHORT_READ
}

/** What is wrong with the file as it stands on disk, or `undefined`. */
function fileProblem(path: string, expected: ExpectedFile): string | undefined {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 'the file is gone'
  }
  if (!stat.isFile()) return 'the path holds no file'
  if (stat.ino !== expected.inode) return 'the file was replaced'
  const header = Buffer.alloc(100)
  let read = 0
  const fd = openSync(path, 'r')
  try {
    read = readSync(fd, header, 0, 100, 0)
  } finally {
    closeSync(fd)
  }
  if (read < 100 || header.toString('latin1', 0, 16) !== HEADER) return 'the file has no SQLite header'
  const pageSize = header.readUInt16BE(16) === 1 ? 65_536 : header.readUInt16BE(16)
  if (pageSize !== expected.pageSize) return 'the header names another page size'
  // The header's page count holds when its change counter matches the one it was written with.
  const pages = header.readUInt32BE(28)
  if (header.readUInt32BE(24) === header.readUInt32BE(92) && stat.size < pages * pageSize) return 'the file is shorter than its header says'
  return undefined
}

/** Reads back the schema, `meta` and random rows of each table through its own connection. */
function readProblem(sqlite: SqliteModule, path: string, probes: number): string | undefined {
  let db
  try {
    db = new sqlite.DatabaseSync(path, { readOnly: true, timeout: BUSY_MS })
  } catch (error) {
    return isDamaged(error) ? String(error) : undefined
  }
  try {
    const format = (db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value?: unknown } | undefined)?.value
    if (format !== SQLITE_FORMAT) return 'meta does not name the index format'
    const tables: [table: string, key: string, column: string][] = [
      ['sessions', 'no', 'id'],
      ['segments', 'row', 'size'],
      ['texts', 'row', 'body'],
      ['terms_data', 'id', 'block'],
      ['places_data', 'id', 'block'],
      ['inside_data', 'id', 'block'],
    ]
    for (const [table, key, column] of tables) {
      const { top } = db.prepare(`SELECT max(${key}) AS top FROM ${table}`).get() as { top: number | null }
      if (top === null) continue
      const probe = db.prepare(`SELECT ${column} AS value FROM ${table} WHERE ${key} >= ? ORDER BY ${key} LIMIT 1`)
      for (let n = 0; n < probes; n += 1) {
        const row = probe.get(Math.floor(Math.random() * (top + 1))) as { value: unknown } | undefined
        if (table === 'texts' && row?.value instanceof Uint8Array) unpack(row.value)
      }
    }
    return undefined
  } catch (error) {
    if (isDamageSign(error)) return String(error)
    // Busy, locked or unreadable for another reason: not a sign of damage.
    return undefined
  } finally {
    db.close()
  }
}

/** What is wrong with the index file, if anything. `expected`: what the file is expected to be. `probes`: rows read at random from each table. Returns why the file is damaged, or `undefined` when the look found nothing wrong. */
export function indexFileProblem(sqlite: SqliteModule, file: { readonly path: string; readonly expected: ExpectedFile }, probes = HEALTH_PROBES): string | undefined {
  const { path, expected } = file
  try {
    return fileProblem(path, expected) ?? readProblem(sqlite, path, probes)
  } catch (error) {
    return `the file cannot be read: ${String(error)}`
  }
}
