/**
 * Where a persisted session's log is, and what identifies the current content of any session: its
 * revision.
 * @module @wishp3/dsh-sessions/host/search/log-locator
 */
import { stat } from 'node:fs/promises'
import type { Context } from '@deepseek-ai/cordis'
import { type Session, SessionId } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-persistence'
import { locatedLog } from '../official/session-query.ts'
import { logRevision } from './worker-protocol.ts'

/** What names a session's log. */
export interface LogHeader {
  readonly id: string
  readonly cwd?: string | undefined
  readonly createdAt: number
}

/** What can be told of a session's content in one look: its revision (and, for a cold session, its log's size in bytes); `'missing'` when the backend names a log file for a session that is not live and there is none; `'unknown'` when no file is named or it cannot be read for another reason. */
export type LogState = { readonly revision: string; readonly bytes?: number } | 'missing' | 'unknown'

/** The revision of a live session's content. */
export function liveRevision(session: { readonly seq: number }): string {
  return `live:${session.seq}`
}

/** The host's services a look at many sessions' logs asks, each looked up once: the look at one session through the context costs more than the look itself (a fresh proxy of each service per lookup). Good for one short stretch of work, not to be kept. */
export interface LogLookup {
  /** The session while it is live in this process. */
  live(id: string): Session | undefined
  /** See {@link SessionLogLocator.path}. */
  path(header: LogHeader): string | undefined
  /** See {@link SessionLogLocator.state}. */
  state(header: LogHeader): Promise<LogState>
}

/** Locations and revisions of session logs. */
export class SessionLogLocator {
  private readonly ctx: Context

  constructor(ctx: Context) {
    this.ctx = ctx
  }

  /** The host's services as they are now, for a stretch of looks at many sessions (see {@link LogLookup}). */
  lookup(): LogLookup {
    const sessions = this.ctx.sessions
    const persistence = this.ctx.get('sessionPersistence')
    const path = (header: LogHeader): string | undefined => persistence === undefined ? undefined : locatedLog(persistence, header)?.path
    return {
      live: id => sessions.get(SessionId(id)),
      path,
      state: async header => {
        const live = sessions.get(SessionId(header.id))
        if (live !== undefined) return { revision: liveRevision(live) }
        const info = await fileStat(path(header))
        return typeof info === 'string' ? info : { revision: logRevision(info), bytes: info.size }
      },
    }
  }

  /** The log file of a session. Returns the path; `undefined` when the backend keeps no file per session. */
  path(header: LogHeader): string | undefined {
    return this.lookup().path(header)
  }

  /** When a session last changed: its newest event's time while it is live in this process, else its log's modification time. Returns Unix epoch milliseconds; `undefined` when there is no log file to look at. */
  async lastActivity(header: LogHeader): Promise<number | undefined> {
    const live = this.ctx.sessions.get(SessionId(header.id))
    if (live !== undefined) return live.events.at(-1)?.time ?? header.createdAt
    const info = await fileStat(this.path(header))
    return typeof info === 'string' ? undefined : info.mtimeMs
  }

  /** What identifies the current content of a session. Returns its {@link liveRevision} while it is live in this process, else `size:mtime` of its log; `undefined` when there is no log file to look at. */
  async revision(header: LogHeader): Promise<string | undefined> {
    const state = await this.state(header)
    return typeof state === 'string' ? undefined : state.revision
  }

  /** A session's revision, or why there is none, at the cost of at most one look at its log: a backend without a file per session never says `'missing'`. Returns its {@link liveRevision} while it is live in this process, else `size:mtime` of its log, else `'missing'` or `'unknown'` (see {@link LogState}). */
  state(header: LogHeader): Promise<LogState> {
    return this.lookup().state(header)
  }

}

/** Size and modification time of a log file; `'missing'` when it does not exist, `'unknown'` when none is named or it cannot be read. */
async function fileStat(path: string | undefined): Promise<{ size: number; mtimeMs: number } | 'missing' | 'unknown'> {
  if (path === undefined) return 'unknown'
  try {
    return await stat(path)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unknown'
  }
}
