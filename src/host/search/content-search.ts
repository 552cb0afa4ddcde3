/**
 * Search by what was said: the queries of the content index, which `index-upkeep.ts` keeps current.
 * See docs/content-index.md.
 * @module @wishp3/dsh-sessions/host/search/content-search
 */
import { liveSession } from '../official/live-sessions.ts'
import type { Context } from '@deepseek-ai/cordis'
import { dshHomePath } from '@deepseek-ai/dsh-home-paths'
import type { SessionLogLocator } from './log-locator.ts'
import { roledConversationOf } from '../official/conversation.ts'
import { type ConversationPage, pageOf } from './text/conversation-page.ts'
import { scanMessages, type SessionMatches } from './text/conversation-search.ts'
import { findInConversation, type SessionFind } from './text/conversation-find.ts'
import type { QueryTerm } from './text/terms.ts'
import type { SearchWorker } from './worker-client.ts'
import { BoundedMap } from '../bounded-map.ts'
import { type HeldScopeQuery, MAX_READ_TEXT, SCOPE_NOT_HELD, SCOPES_HELD, type SearchAsk, type SessionFacts, type ContentHit } from './worker-protocol.ts'
import type { CatalogedSession, SessionCatalog } from '../sessions/session-catalog.ts'
import { scopeViewsOf } from '../sessions/scope-views.ts'
import type { IndexingProgress } from '../../shared/wire.ts'
import { IndexUpkeep } from './index-upkeep.ts'
import { type ContentSearchOptions, type ContentSearchStatus, says } from './content-status.ts'

export type { ContentSearchOptions, ContentSearchStatus } from './content-status.ts'

/** Where the plugin keeps the content index: its own folder of the harness home. The SQLite file sits beside this path as `content-index.sqlite` (see `index-keeper.ts`); this path is the JSON file of earlier versions, removed at the first start. */
export function contentIndexFile(): string {
  return dshHomePath('dsh-sessions', 'content-index.json')
}

/** The sessions a query may find, as a scope: a key naming the scope, its sessions, and those of them this query leaves out. The content search keeps what it sent of a scope by key and by the identity of `sessions`: the caller gives the same set object for as long as the scope's sessions stay the same, and a new one when they change. */
export interface Admission {
  readonly key: string
  readonly sessions: ReadonlySet<string>
  /** Sessions of the scope this query leaves out (few: they are sent with every query). */
  readonly except?: readonly string[]
}

/** A scope changed in at most one session in this many is sent as what changed. */
const FEW_CHANGED = 4

/** What the worker was sent of a scope. */
interface SentScope {
  readonly sessions: ReadonlySet<string>
  readonly version: number
}

/** The content search. */
export class ContentSearch {
  /** The creation times the worker was given for the sessions it may find (its copy of this map is kept equal to it). */
  private readonly datesSent = new Map<string, number>()
  /** Whether sessions left {@link summaries} since the last query, so the worker's dates may name some that are gone. */
  private datesStale = false
  /** Per scope key, the sessions last sent to the worker and the version they were sent as, least recently used first. */
  private readonly scopesSent = new BoundedMap<string, SentScope>(SCOPES_HELD)
  private nextScope = 1
  private readonly upkeep: IndexUpkeep
  private readonly ctx: Context
  private readonly catalog: SessionCatalog
  private readonly logs: SessionLogLocator

  constructor(ctx: Context, sources: { readonly catalog: SessionCatalog; readonly logs: SessionLogLocator }, options: ContentSearchOptions = {}) {
    const { catalog, logs } = sources
    this.ctx = ctx
    this.catalog = catalog
    this.logs = logs
    this.upkeep = new IndexUpkeep(ctx, { catalog, logs, dropped: () => { this.datesStale = true } }, options)
    // Once the sessions are listed and indexed, the scope of every session (the sidebar's) is sent ahead of the first search in it.
    const prepareEvery = (): void => {
      void this.whenReady().then(() => {
        const every = scopeViewsOf(catalog).everyone().set
        return this.prepare({ key: every.key, sessions: every.ids })
      })
    }
    catalog.onListed(prepareEvery)
    if (catalog.isListed) prepareEvery()
  }

  /** Where the index stands. */
  status(): ContentSearchStatus {
    return this.upkeep.status()
  }

  /** How far the build has come (see `IndexUpkeep.progress`). */
  progress(within?: (session: CatalogedSession) => boolean): IndexingProgress | undefined {
    return this.upkeep.progress(within)
  }

  /** Resolves once the index answers for every session. */
  whenReady(): Promise<void> {
    return this.upkeep.readiness.whenReady()
  }

  /** Resolves when the log pass has nothing left to read. */
  idle(): Promise<void> {
    return this.upkeep.pass.idle()
  }

  /** Whether the search worker runs. */
  get available(): boolean {
    return this.upkeep.available
  }

  /** Sessions whose text has every term, best first, then newest first. `admit`: which sessions may be found: a predicate, asked of every indexed session, or a scope's sessions ({@link Admission}), which the worker keeps for the next query in the same scope; either way applied before the worker sees the query, so it never makes an excerpt of another. `role`: only the words one side said count (a query's `from:`). Returns the hits with their excerpts; none when the worker is not running. */
  async search(terms: readonly QueryTerm[], asked: Omit<SearchAsk, 'terms'> & { readonly admit: ((id: string) => boolean) | Admission }): Promise<readonly ContentHit[]> {
    const { admit, limit, role, mostWords } = asked
    const side = { ...(role === undefined ? {} : { role }), ...(mostWords === true ? { mostWords } : {}) }
    const worker = this.upkeep.worker
    // While the index is built again after damage, titles alone answer.
    if (terms.length === 0 || limit <= 0 || worker?.alive !== true || this.upkeep.rebuilding) return []
    if (typeof admit !== 'function') return this.searchIn(worker, admit, { terms, limit, ...side })
    // The worker keeps each session's creation time (for ties), so a query sends only the dates it lacks and the shorter of the sessions admitted and those not.
    const only: string[] = []
    const except: string[] = []
    const dates: [string, number][] = []
    for (const id of this.upkeep.heldIds()) {
      const session = this.catalog.get(id)
      if (session === undefined || !admit(id)) {
        except.push(id)
        continue
      }
      only.push(id)
      if (this.datesSent.get(id) !== session.createdAt) {
        dates.push([id, session.createdAt])
        this.datesSent.set(id, session.createdAt)
      }
    }
    if (only.length === 0) return []
    try {
      return await this.stillStored(await worker.call('search', { terms, limit, dates, dropped: this.dropped(), ...side, ...(only.length <= except.length ? { only } : { except }) }))
    } catch (error) {
      if (!this.upkeep.damagedBy(error)) this.ctx.logger('dsh-sessions').warn('content search: %s', error)
      return []
    }
  }

  /** A query within a scope: its sessions (with the creation times the worker lacks) are sent once per key and set, and the worker keeps them; later queries in the same scope send only the sessions they leave out. */
  private async searchIn(worker: SearchWorker, admission: Admission, query: SearchAsk): Promise<readonly ContentHit[]> {
    const { terms, limit, ...side } = query
    const except = admission.except ?? []
    if (admission.sessions.size <= except.length && [...admission.sessions].every(id => except.includes(id))) return []
    const ask = (sent: SentScope | undefined): Promise<readonly ContentHit[]> => {
      if (sent?.sessions === admission.sessions) {
        // Most recently used last, as the worker orders the scopes it keeps.
        this.scopesSent.set(admission.key, sent)
        return worker.call('search', { terms, limit, ...side, dropped: this.dropped(), held: { key: admission.key, version: sent.version, except } })
      }
      const { dates, held } = this.sending(admission, sent)
      return worker.call('search', { terms, limit, ...side, dates, dropped: this.dropped(), held: { ...held, except } })
    }
    try {
      try {
        return await this.stillStored(await ask(this.scopesSent.get(admission.key)))
      } catch (error) {
        // The worker gave the scope up (or opened its file anew): its sessions are sent again.
        if (!says(error, SCOPE_NOT_HELD)) throw error
        return await this.stillStored(await ask(undefined))
      }
    } catch (error) {
      if (!this.upkeep.damagedBy(error)) this.ctx.logger('dsh-sessions').warn('content search: %s', error)
      return []
    }
  }

  /** Sends a scope's sessions to the worker ahead of its first query (see `WorkerCalls.hold`), unless the worker was sent these already: at 20,000 sessions they take some 50–70 ms that the first query would wait for. A failure leaves nothing recorded as sent, so the next query in the scope sends them. */
  async prepare(admission: Pick<Admission, 'key' | 'sessions'>): Promise<void> {
    const worker = this.upkeep.worker
    if (worker?.alive !== true || this.upkeep.rebuilding || this.scopesSent.get(admission.key)?.sessions === admission.sessions) return
    const { dates, held } = this.sending(admission, this.scopesSent.get(admission.key))
    try {
      await worker.call('hold', { dates, dropped: this.dropped(), held })
    } catch (error) {
      // The scope and the creation times are sent again with the next query in it.
      this.scopesSent.delete(admission.key)
      for (const [id] of dates) this.datesSent.delete(id)
      if (!says(error, SCOPE_NOT_HELD) && !this.upkeep.damagedBy(error)) this.ctx.logger('dsh-sessions').warn('content search: %s', error)
    }
  }

  /** A new version of a scope, recorded as sent: its sessions, or, when few changed since the version `sent` before, what changed (a new session costs one id, not the scope's); and the creation times of its sessions the worker lacks (recorded as sent too). */
  private sending(admission: Pick<Admission, 'key' | 'sessions'>, sent: SentScope | undefined): { held: HeldScopeQuery; dates: [string, number][] } {
    const version = this.nextScope++
    const dates: [string, number][] = []
    const added: string[] = []
    for (const id of admission.sessions) {
      if (sent !== undefined && !sent.sessions.has(id)) added.push(id)
      const createdAt = this.catalog.get(id)?.createdAt
      if (createdAt === undefined || this.datesSent.get(id) === createdAt) continue
      dates.push([id, createdAt])
      this.datesSent.set(id, createdAt)
    }
    const removed = sent === undefined ? [] : [...sent.sessions].filter(id => !admission.sessions.has(id))
    this.scopesSent.set(admission.key, { sessions: admission.sessions, version })
    const few = sent !== undefined && added.length + removed.length <= admission.sessions.size / FEW_CHANGED
    return { held: { key: admission.key, version, ...(few ? { changed: { from: sent.version, added, removed } } : { ids: [...admission.sessions] }) }, dates }
  }

  /** The hits whose sessions still exist. Until the session catalog has listed, the sessions it holds may come from its file (see `sessions/catalog-file.ts`), written before this start: a cold hit whose log file is gone since is left out (one look at each hit's log). After the listing, the index holds only sessions the host lists. */
  private async stillStored(hits: readonly ContentHit[]): Promise<readonly ContentHit[]> {
    const listing = this.catalog.catalogStatus()
    if (listing.listed || listing.restored === 0 || hits.length === 0) return hits
    const gone = await Promise.all(hits.map(async hit => {
      if (liveSession(this.ctx, hit.id) !== undefined) return false
      const session = this.catalog.get(hit.id)
      return session === undefined || (await this.logs.state(session)) === 'missing'
    }))
    return hits.filter((_, index) => !gone[index])
  }

  /** Sessions whose creation times the worker may forget: those that left both indexes since the last query. */
  private dropped(): string[] {
    const dropped: string[] = []
    if (!this.datesStale) return dropped
    this.datesStale = false
    for (const id of this.datesSent.keys()) if (!this.upkeep.holds(id) && this.catalog.get(id) === undefined) dropped.push(id)
    for (const id of dropped) this.datesSent.delete(id)
    return dropped
  }

  /** A page of a session's conversation, numbered as search hits number their message: from memory while the session is live in this process, else from its log through the worker. `from`: the first message number wanted (from 1). Returns the page; `undefined` when the session's text cannot be read (no log, no worker, or the log is gone). */
  async page(id: string, from: number, maxChars: number): Promise<ConversationPage | undefined> {
    const live = liveSession(this.ctx, id)
    if (live !== undefined) return pageOf(roledConversationOf(live.events, MAX_READ_TEXT), from, maxChars)
    const session = this.catalog.get(id)
    const worker = this.upkeep.worker
    if (session === undefined || worker?.alive !== true) return undefined
    const path = this.logs.path(session)
    const revision = path === undefined ? undefined : await this.logs.revision(session)
    if (path === undefined || revision === undefined) return undefined
    try {
      return (await worker.call('page', { path, revision, from, maxChars })) ?? undefined
    } catch (error) {
      this.ctx.logger('dsh-sessions').warn('content search: reading %s failed: %s', id, error)
      return undefined
    }
  }

  /** What the index knows of one session (its number of messages, its first user message, its newest message's event), without reading its log. Returns the facts; `undefined` when the index does not hold it or cannot answer. */
  async facts(id: string): Promise<SessionFacts | undefined> {
    const worker = this.upkeep.worker
    if (worker?.alive !== true || this.upkeep.rebuilding || !this.upkeep.holds(id)) return undefined
    try {
      return (await worker.call('facts', { session: id })) ?? undefined
    } catch (error) {
      if (!this.upkeep.damagedBy(error)) this.ctx.logger('dsh-sessions').warn('content search: %s', error)
      return undefined
    }
  }

  /** The messages of one session that hold every term, best first: from the index where it holds the session, else from the session's events while it is live in this process, else from its log through the worker. Returns the matches; `undefined` when the session's text cannot be read. */
  async searchSession(id: string, terms: readonly QueryTerm[], limit: number): Promise<SessionMatches | undefined> {
    const worker = this.upkeep.worker
    const indexed = worker?.alive === true && !this.upkeep.rebuilding && this.upkeep.holds(id)
    const live = liveSession(this.ctx, id)
    if (!indexed && live !== undefined) return scanMessages(roledConversationOf(live.events, MAX_READ_TEXT), terms, limit)
    const session = this.catalog.get(id)
    if (session === undefined || worker?.alive !== true) return undefined
    const path = this.logs.path(session)
    const revision = path === undefined ? undefined : await this.logs.revision(session)
    try {
      return (await worker.call('searchSession', { session: id, terms, limit, ...(path === undefined || revision === undefined ? {} : { path, revision }) })) ?? undefined
    } catch (error) {
      if (!this.upkeep.damagedBy(error)) this.ctx.logger('dsh-sessions').warn('content search: searching %s failed: %s', id, error)
      return undefined
    }
  }

  /** How many segments of the index hold each word (up to `cap`), and how many sessions it holds, for weighing a draft's words by rarity. Returns `undefined` while the index cannot answer. */
  async wordCounts(words: readonly string[], cap: number): Promise<{ counts: number[]; sessions: number } | undefined> {
    const worker = this.upkeep.worker
    if (worker?.alive !== true || this.upkeep.rebuilding || words.length === 0) return undefined
    try {
      return (await worker.call('wordCounts', { words, cap })) ?? undefined
    } catch (error) {
      if (!this.upkeep.damagedBy(error)) this.ctx.logger('dsh-sessions').warn('content search: %s', error)
      return undefined
    }
  }

  /** The messages of one session that hold a query, in order after message `after`, as {@link searchSession} reads them. Returns the page; `undefined` when the session's text cannot be read. */
  async findInSession(id: string, query: { readonly terms: readonly QueryTerm[]; readonly after: number; readonly limit: number }): Promise<SessionFind | undefined> {
    const { terms, after, limit } = query
    const worker = this.upkeep.worker
    const indexed = worker?.alive === true && !this.upkeep.rebuilding && this.upkeep.holds(id)
    const live = liveSession(this.ctx, id)
    if (!indexed && live !== undefined) return findInConversation(roledConversationOf(live.events, MAX_READ_TEXT), { terms, after, limit })
    const session = this.catalog.get(id)
    if (session === undefined || worker?.alive !== true) return undefined
    const path = this.logs.path(session)
    const revision = path === undefined ? undefined : await this.logs.revision(session)
    try {
      return (await worker.call('findInSession', { session: id, terms, after, limit, ...(path === undefined || revision === undefined ? {} : { path, revision }) })) ?? undefined
    } catch (error) {
      if (!this.upkeep.damagedBy(error)) this.ctx.logger('dsh-sessions').warn('content search: finding in %s failed: %s', id, error)
      return undefined
    }
  }

  /** When a session last changed (see `log-locator.ts`). Returns Unix epoch milliseconds; `undefined` when it cannot be told. */
  lastActivity(id: string): Promise<number | undefined> {
    const session = this.catalog.get(id)
    return session === undefined ? Promise.resolve(undefined) : this.logs.lastActivity(session)
  }

}
