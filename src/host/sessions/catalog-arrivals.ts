/**
 * Sessions another process wrote or deleted, taken in the order they were noticed: a cataloged session
 * whose log is gone leaves the catalog; a session the catalog lacks is read from its one log and
 * cataloged; then every listener hears that its stored log changed. Sessions live in this process are
 * left to the host's events. At most {@link MAX_WAITING} wait; past that the rest are left to one listing.
 * @module @wishp3/dsh-sessions/host/sessions/catalog-arrivals
 */
import { stat } from 'node:fs/promises'
import type { Context } from '@deepseek-ai/cordis'
import { SessionId } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-persistence'
import { locatedLog, readStoredTitleSnapshot } from '../official/session-query.ts'
import type { CatalogedSession, CatalogEntries } from './catalog-entries.ts'

/** Most sessions waiting to be taken; a notice past them asks for a listing instead. */
export const MAX_WAITING = 4096

/** What arrivals ask of the catalog they feed. */
export interface ArrivalsOwner {
  readonly entries: CatalogEntries
  /** Lists the whole store once (the notices overflowed). */
  relist(): void
  /** Drops a session whose log is gone. */
  remove(id: string): void
  /** A session's stored log changed: called once it is cataloged. */
  changed(id: string): void
  readonly signal: AbortSignal
}

/** The arrivals of one catalog. */
export class CatalogArrivals {
  /** Sessions noticed and not yet taken, in the order first noticed. */
  private readonly waiting = new Set<string>()
  private timer: ReturnType<typeof setTimeout> | undefined
  private overflowed = false
  private readonly ctx: Context
  private readonly owner: ArrivalsOwner
  private readonly delayMs: number

  /** `delayMs`: the wait after the first notice, so that a burst of changes to one log is taken once. */
  constructor(ctx: Context, owner: ArrivalsOwner, delayMs: number) {
    this.ctx = ctx
    this.owner = owner
    this.delayMs = delayMs
  }

  /** How many sessions wait. */
  get pending(): number {
    return this.waiting.size
  }

  /** Notes that a session's folder or log changed. */
  noticed(id: string): void {
    if (this.owner.signal.aborted || this.waiting.has(id)) return
    if (this.waiting.size >= MAX_WAITING) this.overflowed = true
    else this.waiting.add(id)
    if (this.timer !== undefined) return
    this.timer = setTimeout(() => void this.take(), this.delayMs)
    this.timer.unref()
  }

  /** Drops every session still waiting. */
  stop(): void {
    clearTimeout(this.timer)
    this.waiting.clear()
  }

  /** Takes the waiting sessions one at a time, oldest notice first; notices meanwhile wait for the next turn. */
  private async take(): Promise<void> {
    for (const id of this.waiting) {
      if (this.owner.signal.aborted) return
      this.waiting.delete(id)
      await this.takeOne(id)
    }
    this.timer = undefined
    if (this.overflowed) {
      this.overflowed = false
      this.owner.relist()
    }
  }

  private async takeOne(id: string): Promise<void> {
    if (this.ctx.sessions.get(SessionId(id)) !== undefined) return
    const { entries, signal } = this.owner
    const known = entries.get(id)
    // A log gone from where the catalog has it: deleted, or moved to another workspace's folder (read below).
    if (known !== undefined && await this.logGone(known)) this.owner.remove(id)
    if (entries.get(id) === undefined) {
      const persistence = this.ctx.get('sessionPersistence')
      if (persistence === undefined) return
      try {
        const observation = await readStoredTitleSnapshot(persistence, SessionId(id), signal)
        entries.stored(observation.session, observation.title)
      } catch {
        // No log yet (a folder made before its first write), or a log being replaced: its next change is noticed again, and the listing remains.
        return
      }
    }
    this.owner.changed(id)
  }

  /** Whether a cataloged session's log file is missing; `false` when no file is named or it cannot be told. */
  private async logGone(session: CatalogedSession): Promise<boolean> {
    const persistence = this.ctx.get('sessionPersistence')
    const path = persistence === undefined ? undefined : locatedLog(persistence, session)?.path
    if (path === undefined) return false
    try {
      await stat(path)
      return false
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT'
    }
  }
}
