/**
 * Lookups of single sessions: an id the catalog lacks is read from storage only before the first
 * listing, within the calling text's budget, and a miss is remembered briefly.
 * @module @wishp3/dsh-sessions/host/sessions/catalog-lookup
 */
import type { Context } from '@deepseek-ai/cordis'
import { SessionId } from '@deepseek-ai/dsh-session'
import { SessionQueryError } from '@deepseek-ai/dsh-session-query'
import { BoundedMap } from '../bounded-map.ts'
import { readStoredTitleSnapshot } from '../official/session-query.ts'
import type { CatalogedSession, CatalogEntries } from './catalog-entries.ts'

/** How many storage reads one text may still spend on ids the catalog does not know. */
export interface LookupBudget {
  remaining: number
}

/** Storage reads one text may spend on unknown ids before the first listing has succeeded. */
export const STORAGE_READS_PER_TEXT = 2

/** Most remembered misses; the oldest are forgotten first. */
const MAX_MISSES = 4096

/** What a lookup asks of the catalog it serves. */
export interface LookupOwner {
  readonly entries: CatalogEntries
  /** Whether a listing has succeeded. */
  isListed(): boolean
  /** Drops a session the host says is gone. */
  remove(id: string): void
  readonly signal: AbortSignal
}

/** Whether a read failure is the host saying the session does not exist. */
function isGone(error: unknown): boolean {
  return error instanceof SessionQueryError && error.code === 'SESSION_QUERY_SESSION_NOT_FOUND'
}

/** The lookups of one catalog. */
export class CatalogLookup {
  /** Storage misses and when they expire. */
  private readonly misses = new BoundedMap<string, number>(MAX_MISSES)
  private readonly ctx: Context
  private readonly owner: LookupOwner
  private readonly missMs: number

  constructor(ctx: Context, owner: LookupOwner, missMs: number) {
    this.ctx = ctx
    this.owner = owner
    this.missMs = missMs
  }

  /** The session with this id: at once when known; once listed, an unknown id is unknown without a read; before that, read while the budget lasts. `budget`: the storage reads the calling text may still spend; omit for one unbudgeted read. */
  async lookup(id: string, budget?: LookupBudget): Promise<CatalogedSession | undefined> {
    const known = this.owner.entries.get(id)
    if (known !== undefined) return known
    if (this.owner.isListed()) return undefined
    const until = this.misses.get(id)
    if (until !== undefined && until > Date.now()) return undefined
    if (budget !== undefined) {
      if (budget.remaining <= 0) return undefined
      budget.remaining -= 1
    }
    const found = await this.refresh(id)
    if (found === undefined) this.misses.set(id, Date.now() + this.missMs)
    return found
  }

  /** Reads one session from storage: catalogs it when it exists, drops it when the host says it does not, and leaves the catalog as it was on any other error. Before the first listing a stored session is read from its one log. Returns the fresh entry; the held one after a read error; `undefined` for a session that is gone. */
  async refresh(id: string): Promise<CatalogedSession | undefined> {
    const { entries, signal } = this.owner
    const persistence = this.ctx.get('sessionPersistence')
    if (!this.owner.isListed() && persistence !== undefined && this.ctx.sessions.get(SessionId(id)) === undefined) {
      // Before the first listing the query service's read would list the whole store; the one log is read instead.
      try {
        const observation = await readStoredTitleSnapshot(persistence, SessionId(id), signal)
        return entries.stored(observation.session, observation.title)
      } catch {
        // No such log, or one that cannot be read: the session stays unknown until a listing says otherwise.
        return entries.get(id)
      }
    }
    try {
      const observation = await this.ctx.sessionQuery.readTitleSnapshot(SessionId(id), signal)
      return entries.stored(observation.session, observation.title?.title)
    } catch (error) {
      if (isGone(error)) {
        this.owner.remove(id)
        return undefined
      }
      if (!signal.aborted) this.ctx.logger('dsh-sessions').warn('session catalog: reading %s failed: %s', id, error)
      return entries.get(id)
    }
  }

  /** Forgets every remembered miss (after a listing). */
  clearMisses(): void {
    this.misses.clear()
  }
}
