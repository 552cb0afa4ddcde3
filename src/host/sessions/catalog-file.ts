/**
 * The catalog's file: what the last listing of this home said of each session (its id, cwd, creation
 * time and title), kept so that a restart answers from it at once instead of waiting for the host's
 * first listing of the whole store, which reads every log's header.
 * @module @wishp3/dsh-sessions/host/sessions/catalog-file
 */
import { dshHomePath } from '@deepseek-ai/dsh-home-paths'
import { readGzipJson, removeLeftoverTemporaries, writeGzipJson } from '../gzip-json-file.ts'
import type { Context } from '@deepseek-ai/cordis'
import type { CatalogedSession, CatalogEntries, SessionHeaderFields } from './catalog-entries.ts'

/** Where the catalog is kept: beside the content index. */
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

/** Reads the file. Returns its sessions; `undefined` when there is no file, or it cannot be read or is not a catalog. */
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

/** Writes the file whole (see `gzip-json-file.ts`). */
export async function writeCatalogFile(file: string, sessions: readonly CatalogedSession[]): Promise<number> {
  const rows: Row[] = sessions.map(session => [session.id, session.createdAt, session.cwd ?? null, session.title ?? null])
  return writeGzipJson(file, { format: FORMAT, version: VERSION, sessions: rows })
}

/** What keeping the file asks of the catalog it keeps. */
export interface KeptCatalog {
  readonly entries: CatalogEntries
  /** Whether a listing has succeeded (a restore after one changes nothing). */
  isListed(): boolean
  /** Whether each session has a log yet (a draft with no event has none, and is not kept), as the host holds its sessions now: asked once per write, so the host's session service is looked up once, not once per session (through the context's proxy that took 165 ms at 20,000 sessions, on the host's thread). */
  logged(): (id: string) => boolean
  readonly signal: AbortSignal
}

/** The catalog's file kept: filled from once at the start, written when the catalog changed, one write at a time. */
export class CatalogFileKeeper {
  private restoring: Promise<void> | undefined
  /** How many sessions the file gave the catalog at start. */
  private restoredCount = 0
  /** The catalog's generation the file was last written from. */
  private savedGeneration = -1
  private saving: Promise<void> = Promise.resolve()
  private readonly ctx: Context
  private readonly file: string
  private readonly kept: KeptCatalog
  private readonly restored: () => void

  /** @param restored - called once the file has given the catalog at least one session. */
  constructor(ctx: Context, place: { readonly file: string; readonly kept: KeptCatalog }, restored: () => void) {
    const { file, kept } = place
    this.ctx = ctx
    this.file = file
    this.kept = kept
    this.restored = restored
  }

  /** How many sessions the file gave the catalog at start. */
  get restoredSessions(): number {
    return this.restoredCount
  }

  /** Fills the catalog from the file once, unless a listing has already succeeded; sessions it holds already stay as they are. */
  restore(): Promise<void> {
    this.restoring ??= (async () => {
      const records = await readCatalogFile(this.file)
      if (records === undefined || this.kept.isListed() || this.kept.signal.aborted) return
      for (const { header, title } of records) {
        if (this.kept.entries.get(header.id) !== undefined) continue
        this.kept.entries.stored(header, title)
        this.restoredCount += 1
      }
      if (this.restoredCount > 0) this.restored()
    })().catch(error => {
      this.ctx.logger('dsh-sessions').warn('session catalog: reading its file failed: %s', error)
    })
    return this.restoring
  }

  /** Writes the file if the catalog changed since it was last written; called only once a listing has succeeded, so the file always starts from one. */
  save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      const generation = this.kept.entries.generation
      if (generation === this.savedGeneration) return
      try {
        // A draft with no event yet has no log: a restart would offer a session that does not exist.
        const logged = this.kept.logged()
        await writeCatalogFile(this.file, this.kept.entries.list().filter(session => logged(session.id)))
        this.savedGeneration = generation
      } catch (error) {
        this.ctx.logger('dsh-sessions').warn('session catalog: writing its file failed: %s', error)
      }
    })
    return this.saving
  }
}
