/**
 * The Search sessions box, answered by the plugin's `search` route instead of the host's search.
 * @module @wishp3/dsh-sessions/client/sidebar/search
 */
import type { RouteResponse } from '../../shared/wire.ts'
import type { MarkedText } from '../core/snippet.ts'
import type { SessionsLookup } from '../locales.ts'
import type { SearchPage } from '../../workspace-browser/contract.ts'
import type { TitleStore } from './titles.ts'

/** The plugin's route as the sidebar asks it: one query, answered with as many sessions as the sidebar shows. */
export interface SidebarRoute {
  search(query: string, signal: AbortSignal): Promise<RouteResponse<'search'>>
}

/** The host page's list of sessions, whose rows a search answer can name. */
export interface SessionList {
  /** Whether the list holds a session. */
  has(sessionId: string): boolean
  /** Asks the host for the list again. */
  refresh(): void
}

/** Most sessions remembered as asked for; past them the memory starts over. */
const MAX_ASKED = 1024

/** What the sidebar search keeps of its last answers. */
export class SidebarSearch {
  /** The matching message's log sequence number of each session found by what was said in it, for the latest query. */
  private readonly matches = new Map<string, number | undefined>()
  private indexing: { query: string; note: string } | undefined
  private readonly api: SidebarRoute
  private readonly t: SessionsLookup
  private readonly titles: Pick<TitleStore, 'learn'>
  private readonly excerpt: (snippet: MarkedText) => string
  private readonly list: SessionList | undefined
  /** Sessions found but missing from the page's list, for which the list was asked again. */
  private readonly asked = new Set<string>()

  /** `titles`: the rows' title store, which learns the titles each answer names. `excerpt`: the text a row shows for an excerpt, its matches highlighted or marked. `list`: the page's list of sessions, asked again (once per session) when an answer names a session it lacks, such as one another dsh process wrote since the page loaded: the host's sidebar shows only sessions of its list. */
  constructor(api: SidebarRoute, t: SessionsLookup, rows: { readonly titles: Pick<TitleStore, 'learn'>; readonly excerpt: (snippet: MarkedText) => string; readonly list?: SessionList | undefined }) {
    const { titles, excerpt, list } = rows
    this.api = api
    this.t = t
    this.titles = titles
    this.excerpt = excerpt
    this.list = list
  }

  /** Answers one query. */
  async search(query: string, signal: AbortSignal, hostSearch: (query: string, signal: AbortSignal) => Promise<SearchPage>): Promise<SearchPage> {
    let answer
    try {
      answer = await this.api.search(query, signal)
    } catch (error) {
      signal.throwIfAborted()
      this.matches.clear()
      this.indexing = undefined
      return hostSearch(query, signal)
    }
    // A query typed over may still be answered; what it found must not replace the answer on screen.
    signal.throwIfAborted()
    this.matches.clear()
    for (const result of answer.results) if (result.snippet !== undefined) this.matches.set(result.sessionId, result.snippet.seq)
    this.titles.learn(answer.results.flatMap(result => result.title === undefined ? [] : [[result.sessionId, result.title] as const]))
    this.askForMissing(answer.results.map(result => result.sessionId))
    this.indexing = answer.indexing === undefined ? undefined : {
      query,
      note: this.t(answer.indexing.paused === 'low-disk' ? 'sidebar.paused' : 'sidebar.indexing', { indexed: answer.indexing.indexed.toLocaleString(), total: answer.indexing.total.toLocaleString() }),
    }
    return {
      // The matches shown as the `@` menu shows them: the rows draw the excerpt as text.
      items: answer.results.map(result => result.snippet === undefined
        ? { sessionId: result.sessionId }
        : { sessionId: result.sessionId, snippet: this.excerpt(result.snippet) }),
      hasMore: answer.hasMore,
    }
  }

  private askForMissing(ids: readonly string[]): void {
    const list = this.list
    if (list === undefined) return
    const missing = ids.filter(id => !list.has(id) && !this.asked.has(id))
    if (missing.length === 0) return
    if (this.asked.size + missing.length > MAX_ASKED) this.asked.clear()
    for (const id of missing) this.asked.add(id)
    list.refresh()
  }

  /** The note shown while the index is still being built. */
  indexingNote(query: string): string | undefined {
    return this.indexing?.query === query.trim() ? this.indexing.note : undefined
  }

  /** Where a found session's match is. Returns `{ seq }` for a match of what was said (`seq` undefined where the index does not know it); `undefined` for a title match. */
  matchOf(sessionId: string): { seq: number | undefined } | undefined {
    return this.matches.has(sessionId) ? { seq: this.matches.get(sessionId) } : undefined
  }
}
