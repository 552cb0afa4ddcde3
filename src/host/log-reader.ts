/**
 * Where a persisted session's log is and how current it is: the file the
 * host's persistence backend names for it (`sessionPersistence.locate`), so
 * nothing searches every workspace folder, and its revision, the file's size
 * and modification time, which change whenever the host appends to it.
 * Reading the file is `search/log-file.ts`'s part.
 * @module @wishp3/dsh-sessions/host/log-reader
 */
import { stat } from 'node:fs/promises'
import type { Context } from '@deepseek-ai/cordis'
import { SESSION_FORMAT_VERSION, SessionId } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-persistence'

/** What names a session's log. */
export interface LogHeader {
  readonly id: string
  readonly cwd: string | undefined
  readonly createdAt: number
}

/** Locations and revisions of persisted logs. */
export class SessionLogReader {
  private readonly ctx: Context

  constructor(ctx: Context) {
    this.ctx = ctx
  }

  /**
   * The log file of a session.
   * @param header - the session.
   * @returns the path; `undefined` when the backend keeps no file per session.
   */
  path(header: LogHeader): string | undefined {
    const persistence = this.ctx.get('sessionPersistence')
    if (persistence === undefined) return undefined
    const meta = { version: SESSION_FORMAT_VERSION, id: SessionId(header.id), createdAt: header.createdAt, ...(header.cwd === undefined ? {} : { cwd: header.cwd }) }
    try {
      return persistence.locate(meta)?.path
    } catch {
      return undefined
    }
  }

  /**
   * The current revision of a session's log.
   * @param header - the session.
   * @returns `size:mtime`; `undefined` when there is no log file to look at.
   */
  async revision(header: LogHeader): Promise<string | undefined> {
    const path = this.path(header)
    if (path === undefined) return undefined
    try {
      const info = await stat(path)
      return `${info.size}:${info.mtimeMs}`
    } catch {
      return undefined
    }
  }
}
