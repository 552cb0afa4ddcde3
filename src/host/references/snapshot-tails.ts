/**
 * Kept tails of long sessions.
 * @module @wishp3/dsh-sessions/host/references/snapshot-tails
 */
import { createHash } from 'node:crypto'
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { dshHomePath } from '@deepseek-ai/dsh-home-paths'
import { SessionId } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-persistence'
import type { SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import type {} from '@deepseek-ai/dsh-session-reference'
import { readGzipJson, writeGzipJson } from '../gzip-json-file.ts'
import { referenceLimits } from '../official/session-reference.ts'
import type { LogHeader, SessionLogLocator } from '../search/log-locator.ts'
import type { LogFollower } from '../search/log-pass.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'
import { type LeftOut, tailOf, type TrimmedSurface } from './retention.ts'
import { StoredReads } from './stored-reads.ts'

/** Bytes of a log file from which its session's tail is kept: a log this long takes tens of milliseconds to read and fold. */
export const TAIL_FROM_LOG_BYTES = 256 * 1024

/** Where the tails are kept: a folder beside the content index. */
export function snapshotTailsDir(): string {
  return dshHomePath('dsh-sessions', 'snapshot-tails')
}

/** The name of the file of a session's tail made from one revision of its log under one budget. */
export function tailFileName(id: string, revision: string, maxBytes: number): string {
  return `${id}.${createHash('sha256').update(`${revision}\u0000${maxBytes}`).digest('base64url').slice(0, 16)}.json.gz`
}

/** What a tail file holds, named by its format. */
const FORMAT = 'dsh-sessions-snapshot-tail'
const VERSION = 1

/** Session ids that are safe as a file name. */
const FILE_SAFE = /^[A-Za-z0-9_-]{1,200}$/

interface TailFile {
  readonly format: typeof FORMAT
  readonly version: typeof VERSION
  readonly sessionId: string
  readonly revision: string
  readonly maxBytes: number
  readonly leftOut: LeftOut
  readonly surface: SessionSurfaceSnapshot
}

function isTailFile(value: unknown, expected: { readonly sessionId: string; readonly revision: string; readonly maxBytes: number }): value is TailFile {
  const { sessionId, revision, maxBytes } = expected
  if (typeof value !== 'object' || value === null) return false
  const file = value as Partial<TailFile>
  const leftOut = file.leftOut as Partial<LeftOut> | undefined
  const surface = file.surface as Partial<SessionSurfaceSnapshot> | undefined
  return file.format === FORMAT && file.version === VERSION && file.sessionId === sessionId && file.revision === revision && file.maxBytes === maxBytes
    && Number.isSafeInteger(leftOut?.messages) && Number.isSafeInteger(leftOut?.bytes)
    && surface?.session?.id === sessionId && Array.isArray(surface.events)
}

/** Options of {@link SnapshotTails}. */
export interface SnapshotTailsOptions {
  /** The folder of the tail files. */
  readonly dir: string
  /** Bytes of a log file from which a tail is kept. */
  readonly fromLogBytes?: number
  /** The reads of stored surfaces, shared with the snapshot cache; one of its own when not given. */
  readonly reads?: StoredReads
  /** Reads a tail off the host's thread, where it can. */
  readonly reader?: TailReader
}

/** What reads the tail of a cold session's log off the host's thread (see `tailOf`). */
export interface TailReader {
  /** The tail of a session's log at a revision under a byte budget; `undefined` when it cannot read here (the caller reads on the host's thread then). */
  tail(id: string, revision: string, maxBytes: number): Promise<TrimmedSurface | undefined>
}

/** The kept tails. */
export class SnapshotTails implements LogFollower {
  /** The file name of each session's tail: the folder listed once, then kept current by this instance. */
  private names: Promise<Map<string, string>> | undefined
  /** Bytes of a log file from which its tail is kept. */
  readonly fromLogBytes: number
  private readonly dir: string
  private readonly ctx: Context
  private readonly logs: SessionLogLocator
  private readonly reads: StoredReads
  private readonly reader: TailReader | undefined

  constructor(ctx: Context, sources: { readonly catalog: SessionCatalog; readonly logs: SessionLogLocator }, options: SnapshotTailsOptions) {
    const { catalog, logs } = sources
    this.ctx = ctx
    this.logs = logs
    this.dir = options.dir
    this.reads = options.reads ?? new StoredReads(ctx)
    this.reader = options.reader
    this.fromLogBytes = options.fromLogBytes ?? TAIL_FROM_LOG_BYTES
    ctx.effect(() => catalog.onRemoved(id => { void this.forget(id) }), 'dsh-sessions: snapshot tails')
  }

  /** The byte budget of one source's snapshot, as the host's official service has it now. */
  private get maxBytes(): number {
    return referenceLimits(this.ctx.sessionReferenceResolver).maxReferenceBytes
  }

  /** The folder's tails by session id, listed once. */
  private kept(): Promise<Map<string, string>> {
    this.names ??= (async () => {
      const names = new Map<string, string>()
      let files: string[] = []
      try {
        files = await readdir(this.dir)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.ctx.logger('dsh-sessions').warn('snapshot tails: %s', error)
      }
      for (const file of files) {
        const match = /^(.+)\.[A-Za-z0-9_-]{16}\.json\.gz$/.exec(file)
        if (match === null) void rm(join(this.dir, file), { force: true }).catch(() => undefined)
        else names.set(match[1]!, file)
      }
      return names
    })()
    return this.names
  }

  async wants(id: string, revision: string, bytes: number): Promise<boolean> {
    if (bytes < this.fromLogBytes || !FILE_SAFE.test(id) || this.ctx.get('sessionPersistence') === undefined) return false
    return (await this.kept()).get(id) !== tailFileName(id, revision, this.maxBytes)
  }

  async keep(session: LogHeader, revision: string, signal?: AbortSignal): Promise<void> {
    const persistence = this.ctx.get('sessionPersistence')
    if (persistence === undefined || !FILE_SAFE.test(session.id)) return
    const maxBytes = this.maxBytes
    const tail = await this.reader?.tail(session.id, revision, maxBytes) ?? tailOf(await this.reads.read(SessionId(session.id), revision, signal), maxBytes)
    // A log that changed while it was read is kept at the pass that reads its new revision.
    const now = await this.logs.state(session)
    if (typeof now === 'string' || now.revision !== revision) return
    const file: TailFile = { format: FORMAT, version: VERSION, sessionId: session.id, revision, maxBytes, leftOut: tail.leftOut, surface: tail.surface }
    const names = await this.kept()
    const name = tailFileName(session.id, revision, maxBytes)
    await writeGzipJson(join(this.dir, name), file)
    const old = names.get(session.id)
    names.set(session.id, name)
    if (old !== undefined && old !== name) await rm(join(this.dir, old), { force: true })
  }

  /** The kept tail of a session, when it was made from this revision of its log under the current budget. `id`: a cold session the session catalog holds. `maxBytes`: the byte budget of the snapshot to make. Returns the tail and what it leaves out; `undefined` when none is kept for them (nothing is read then, after the folder's one listing). */
  async read(id: string, revision: string, maxBytes: number): Promise<TrimmedSurface | undefined> {
    const name = tailFileName(id, revision, maxBytes)
    const names = await this.kept()
    if (names.get(id) !== name) return undefined
    const value = await readGzipJson(join(this.dir, name))
    if (isTailFile(value, { sessionId: id, revision, maxBytes })) return { surface: value.surface, leftOut: value.leftOut }
    if (names.get(id) === name) names.delete(id)
    await rm(join(this.dir, name), { force: true })
    return undefined
  }

  async passed(listed: ReadonlySet<string>): Promise<void> {
    const names = await this.kept()
    for (const id of [...names.keys()]) if (!listed.has(id)) await this.forget(id)
  }

  /** Removes a session's tail. */
  async forget(id: string): Promise<void> {
    const names = await this.kept()
    const name = names.get(id)
    if (name === undefined) return
    names.delete(id)
    await rm(join(this.dir, name), { force: true })
  }
}
