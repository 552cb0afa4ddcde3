/**
 * The host's listings merged into the catalog: the first, the periodic ones that catch what other
 * processes changed, and retries with a doubling delay after a failure; between them, the host's
 * events.
 * @module @wishp3/dsh-sessions/host/sessions/catalog-listing
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Context } from '@deepseek-ai/cordis'
import { type Session, type SessionEvent, type SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-projection-cache'
import type { SessionRecord } from '@deepseek-ai/dsh-session-query'
import type { CatalogEntries } from './catalog-entries.ts'

/** What a listing asks of the catalog it fills. */
export interface ListingOwner {
  readonly entries: CatalogEntries
  /** Drops a session the host no longer lists. */
  remove(id: string): void
  /** Called after every successful listing. */
  listed(): void
  readonly signal: AbortSignal
}

function latestTitle(events: readonly SessionEvent[]): string | undefined {
  for (let at = events.length - 1; at >= 0; at -= 1) {
    const event = events[at]!
    if (event.type === 'session/title') return (event.data as { title: string }).title
  }
  return undefined
}

/** What lists the stored sessions' headers as the host's persistence service does, off the host's thread. */
export interface StoredListing {
  /** Every stored session's header; `undefined` when it cannot list here (the host's query service lists then). Rejects with the listing's failure. */
  list(): Promise<readonly SessionHeader[] | undefined>
}

/** Records merged between two turns of the host's event loop. */
export const MERGED_PER_TURN = 256

/** The listings of one catalog. */
export class CatalogListing {
  /** Ids the host's events announced while a listing was under way: that listing may predate them. */
  private readonly announcedDuringListing = new Set<string>()
  private listed = false
  private reconciling: Promise<boolean> | undefined
  private readonly ctx: Context
  private readonly owner: ListingOwner
  private readonly store: StoredListing | undefined

  /** `store`: lists the stored sessions off the host's thread, where it can. */
  constructor(ctx: Context, owner: ListingOwner, store?: StoredListing) {
    this.ctx = ctx
    this.owner = owner
    this.store = store
  }

  /** Whether a listing has succeeded since start. */
  get isListed(): boolean {
    return this.listed
  }

  /** Lists every session and merges, one listing at a time; resolves whether it succeeded. */
  reconcile(): Promise<boolean> {
    this.reconciling ??= this.listAndMerge().finally(() => { this.reconciling = undefined })
    return this.reconciling
  }

  /** Retries a failed first listing with a doubling delay until one succeeds or the fiber ends. */
  async retry(firstMs: number): Promise<void> {
    let delay = firstMs
    while (!this.listed && !this.owner.signal.aborted) {
      // The timer's abort listener goes with the timer, so failed attempts leave none behind.
      try {
        await sleep(delay, undefined, { signal: this.owner.signal })
      } catch {
        // Aborted by the plugin's stop: no listing is left to retry.
        return
      }
      if (this.listed) return
      if (await this.reconcile()) return
      delay = Math.min(delay * 2, 30_000)
    }
  }

  /** Notes that the host's events named a session, so a listing already under way keeps it. */
  announce(id: string): void {
    if (this.reconciling !== undefined) this.announcedDuringListing.add(id)
  }

  /** Catalogs a session live in this process, with the latest title its events hold. */
  upsertLive(session: Session): void {
    this.announce(session.id)
    try {
      this.owner.entries.live(session.header, latestTitle(session.events))
    } catch (error) {
      this.ctx.logger('dsh-sessions').warn('session catalog: %s', error)
    }
  }

  /** The stored sessions and the live ones, as the query service lists them, listed by the store's own lister; `undefined` where it cannot list. */
  private async listStored(): Promise<Pick<SessionRecord, 'header'>[] | undefined> {
    const headers = await this.store?.list()
    if (headers === undefined) return undefined
    const records = headers.map(header => ({ header }))
    const stored = new Set(headers.map(header => header.id))
    for (const session of this.ctx.sessions.list()) if (!stored.has(session.id)) records.push({ header: session.header })
    return records
  }

  /** Lists every session and merges: new ones added, vanished cold ones dropped, event titles kept. */
  private async listAndMerge(): Promise<boolean> {
    const { entries, signal } = this.owner
    this.announcedDuringListing.clear()
    let records: readonly Pick<SessionRecord, 'header'>[]
    try {
      records = await this.listStored() ?? await this.ctx.sessionQuery.listSessions(signal)
    } catch (error) {
      if (!signal.aborted) this.ctx.logger('dsh-sessions').warn('session catalog listing failed: %s', error)
      return false
    }
    const cache = this.ctx.get('sessionProjectionCache')
    const sessions = this.ctx.sessions
    const seen = new Set<string>()
    for (const [n, record] of records.entries()) {
      // A slice of the records at a time: each title looked up in the host's projection cache costs tens of microseconds on the host's thread.
      if (n > 0 && n % MERGED_PER_TURN === 0) await new Promise(resolve => setImmediate(resolve))
      if (signal.aborted) return false
      const { id } = record.header
      seen.add(id)
      if (entries.isEventTitled(id)) continue
      const live = sessions.get(id)
      if (live !== undefined) {
        this.upsertLive(live)
        continue
      }
      const cached = cache?.cachedSnapshot(record.header)?.values as { title?: string | null } | undefined
      entries.stored(record.header, cached?.title ?? undefined)
    }
    for (const id of entries.ids()) {
      if (seen.has(id) || this.announcedDuringListing.has(id)) continue
      if (this.ctx.sessions.get(SessionId(id)) === undefined) this.owner.remove(id)
    }
    this.announcedDuringListing.clear()
    this.listed = true
    this.owner.listed()
    return true
  }
}
