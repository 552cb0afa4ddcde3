/**
 * The catalog's file: what the last listing of this home said of each
 * session (its id, cwd, creation time and title), kept so that a restart
 * answers from it at once instead of waiting for the host's first listing of
 * the whole store, which reads every log's header.
 *
 * It is a cache of the host's own answers, never an authority: the first
 * listing after a start replaces it (sessions it no longer lists leave, as
 * they do from any listing), and a session's cwd and creation time never
 * change once it exists. The file is written whole under a temporary name
 * and renamed over the old one, so a stop at any moment leaves one or the
 * other; a temporary file a killed process left is removed at the next read.
 * A file that cannot be read or is not a catalog is ignored, and the next
 * save replaces it; an entry that is not well formed is skipped.
 * @module @wishp3/dsh-sessions/host/sessions/catalog-file
 */
import { dshHomePath } from '@deepseek-ai/dsh-home-paths'
import { readGzipJson, removeLeftoverTemporaries, writeGzipJson } from '../gzip-json-file.ts'
import type { IndexedSession, SessionHeaderFields } from './catalog.ts'

/**
 * Where the catalog is kept: beside the content index.
 * @returns `$DSH_HOME/dsh-sessions/session-catalog.json.gz` (`~/.dsh/…` by default).
 */
export function catalogFile(): string {
  return dshHomePath('dsh-sessions', 'session-catalog.json.gz')
}

/** What the file holds, named by its format. */
const FORMAT = 'dsh-sessions-session-catalog'
const VERSION = 1

/** One session as the file keeps it: id, creation time, cwd (or `null`), title (or `null`). */
type Row = [id: string, createdAt: number, cwd: string | null, title: string | null]

/** One session restored from the file. */
export interface CatalogRecord {
  readonly header: SessionHeaderFields
  readonly title: string | undefined
}

/** Session ids as the host makes them; anything else in the file is skipped. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,200}$/

function recordOf(row: unknown): CatalogRecord | undefined {
  if (!Array.isArray(row) || row.length !== 4) return undefined
  const [id, createdAt, cwd, title] = row as unknown[]
  if (typeof id !== 'string' || !SESSION_ID.test(id) || typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return undefined
  if ((cwd !== null && typeof cwd !== 'string') || (title !== null && typeof title !== 'string')) return undefined
  return { header: cwd === null ? { id, createdAt } : { id, cwd, createdAt }, title: title ?? undefined }
}

/**
 * Reads the file.
 * @returns its sessions; `undefined` when there is no file, or it cannot be read or is not a catalog.
 */
export async function readCatalogFile(file: string): Promise<CatalogRecord[] | undefined> {
  await removeLeftoverTemporaries(file)
  const value = await readGzipJson(file)
  if (typeof value !== 'object' || value === null) return undefined
  const held = value as { format?: unknown; version?: unknown; sessions?: unknown }
  if (held.format !== FORMAT || held.version !== VERSION || !Array.isArray(held.sessions)) return undefined
  const records: CatalogRecord[] = []
  for (const row of held.sessions) {
    const record = recordOf(row)
    if (record !== undefined) records.push(record)
  }
  return records
}

/**
 * Writes the file whole (see `gzip-json-file.ts`).
 * @param sessions - every session to keep.
 * @returns the file's size in bytes.
 */
export async function writeCatalogFile(file: string, sessions: readonly IndexedSession[]): Promise<number> {
  const rows: Row[] = sessions.map(session => [session.id, session.createdAt, session.cwd ?? null, session.title ?? null])
  return writeGzipJson(file, { format: FORMAT, version: VERSION, sessions: rows })
}
