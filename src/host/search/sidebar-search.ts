/**
 * The sidebar's session search: every session the host lists, in every workspace, found by its title
 * or by what was said in it.
 * @module @wishp3/dsh-sessions/host/search/sidebar-search
 */
import type { Snippet, IndexingProgress } from '../../shared/wire.ts'
import { JoinedText } from '../sessions/joined-text.ts'
import { MatchMemo } from '../sessions/match-memo.ts'
import { scopeViewsOf } from '../sessions/scope-views.ts'
import type { CatalogedSession, SessionCatalog } from '../sessions/session-catalog.ts'
import type { ContentSearch } from './content-search.ts'
import { filteredScope } from './filtered-scope.ts'
import { parseQuery, passes } from './text/query-grammar.ts'
import { fold, queryTerms } from './text/terms.ts'

/** Most characters of a query read; the rest is ignored. */
export const MAX_SIDEBAR_QUERY = 256

/** Most sessions one query returns. */
export const MAX_SIDEBAR_RESULTS = 200

/** One session found. */
export interface SidebarMatch {
  readonly session: CatalogedSession
  /** Present when the session was found by what was said in it rather than by its title; `seq` is the matching message's log event, where the index knows it. */
  readonly snippet?: Snippet & { readonly seq?: number }
}

/** What one query found. */
export interface SidebarAnswer {
  readonly matches: readonly SidebarMatch[]
  /** Whether more sessions match than were returned. */
  readonly hasMore: boolean
  /** Present while the content index is still being built: text matches cover the sessions indexed so far. */
  readonly indexing?: IndexingProgress
}

/** The part of a query that is read: surrounding space trimmed, at most {@link MAX_SIDEBAR_QUERY} characters, never ending in half a surrogate pair. */
export function boundedQuery(query: string): string {
  const trimmed = query.trim()
  if (trimmed.length <= MAX_SIDEBAR_QUERY) return trimmed
  const cut = trimmed.slice(0, MAX_SIDEBAR_QUERY)
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
}

/** The words of a query that a title must hold, folded: a run of letters, marks or digits each. */
export function titleWords(query: string): string[] {
  return fold(query).match(/[\p{L}\p{M}\p{N}]+/gu) ?? []
}

/** Folded titles, per catalog entry (entries are replaced, never changed, when a title changes). */
const foldedTitles = new WeakMap<CatalogedSession, string>()

function foldedTitle(session: CatalogedSession, title: string): string {
  let folded = foldedTitles.get(session)
  if (folded === undefined) {
    folded = fold(title)
    foldedTitles.set(session, folded)
  }
  return folded
}

/** Title matches per session catalog (see `match-memo.ts`). */
const titleMemos = new WeakMap<SessionCatalog, MatchMemo<CatalogedSession>>()

function titleMemoOf(catalog: SessionCatalog): MatchMemo<CatalogedSession> {
  let memo = titleMemos.get(catalog)
  if (memo === undefined) {
    memo = new MatchMemo()
    titleMemos.set(catalog, memo)
  }
  return memo
}

/** Whether folded text holds every one of a query's folded words. */
function foldedHolds(folded: string, words: readonly string[]): boolean {
  return words.length > 0 && words.every(word => folded.includes(word))
}

/** Whether a session's title holds every one of a query's folded words. */
export function titleHolds(session: CatalogedSession, words: readonly string[]): boolean {
  return session.title !== undefined && foldedHolds(foldedTitle(session, session.title), words)
}

/** Every session's folded title, joined, per listing (a listing is replaced, never changed). */
const joinedTitles = new WeakMap<readonly CatalogedSession[], JoinedText>()

/** The sessions of a listing whose title holds every one of a query's folded words, in its order. */
export function titledIn(listing: readonly CatalogedSession[], words: readonly string[]): CatalogedSession[] {
  let titles = joinedTitles.get(listing)
  if (titles === undefined) {
    titles = new JoinedText(listing.map(session => (session.title === undefined ? '' : foldedTitle(session, session.title))))
    joinedTitles.set(listing, titles)
  }
  return titles.holdingEvery(words).map(n => listing[n]!)
}

/** What the sidebar's search reads: the session catalog and the content search. */
export interface SidebarSources {
  readonly catalog: SessionCatalog
  readonly content: ContentSearch
}

/** One sidebar query: its text, the most sessions to return, and a signal that aborts it when superseded. */
export interface SidebarQuery {
  readonly query: string
  readonly limit: number
  readonly signal?: AbortSignal | undefined
}

/** Answers one sidebar query: title matches first, newest first, then the content search's ranking (see `index-search.ts`); a query's filters (see `query-grammar.ts`) narrow both, and with `from:` only what was said matches. `limit`: most sessions returned (at most {@link MAX_SIDEBAR_RESULTS}). `signal`: aborts a superseded query before its content search starts. */
export async function searchSidebar(from: SidebarSources, asked: SidebarQuery): Promise<SidebarAnswer> {
  const { catalog, content } = from
  const { query, limit, signal } = asked
  const cap = Math.max(0, Math.min(limit, MAX_SIDEBAR_RESULTS))
  const { text, filters } = parseQuery(boundedQuery(query))
  const words = titleWords(text)
  const indexing = content.progress()
  const progress = indexing === undefined ? {} : { indexing }
  if (cap === 0 || words.length === 0) return { matches: [], hasMore: false, ...progress }
  const matches: SidebarMatch[] = []
  const byTitle = new Set<string>()
  // Title matches are kept while the listing stays the same; a query typed further narrows an earlier one's.
  const titled = filters.from !== undefined ? [] : titleMemoOf(catalog).get(catalog.generation, words.join('\u0000'), {
    listing: () => titledIn(catalog.list(), words),
    test: session => titleHolds(session, words),
    narrows: earlier => earlier.split('\u0000').every(word => words.some(typed => typed.includes(word))),
  }).filter(session => passes(filters, session))
  const hasMore = titled.length > cap
  for (const session of titled.slice(0, cap)) {
    matches.push({ session })
    byTitle.add(session.id)
  }
  const terms = queryTerms(text)
  if (hasMore || terms.length === 0 || signal?.aborted === true) return { matches, hasMore, ...progress }
  const room = cap - matches.length
  const every = scopeViewsOf(catalog).everyone()
  const scope = filteredScope(every.set, every.ranked, filters)
  const hits = await content.search(terms, { admit: { key: scope.key, sessions: scope.ids, except: [...byTitle] }, limit: room + 1, role: filters.from })
  let more = false
  for (const hit of hits) {
    const session = catalog.get(hit.id)
    if (session === undefined) continue
    if (matches.length >= cap) {
      more = true
      break
    }
    matches.push({ session, snippet: hit.origin === undefined ? hit.snippet : { ...hit.snippet, seq: hit.origin.seq } })
  }
  return { matches, hasMore: more, ...progress }
}
