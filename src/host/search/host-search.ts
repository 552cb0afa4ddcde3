/**
 * The host's own session search (`session.search`, which every client of the host calls) answered from
 * this plugin's content index.
 * @module @wishp3/dsh-sessions/host/search/host-search
 */
import type { Context } from '@deepseek-ai/cordis'
import { SESSION_FORMAT_VERSION, type SessionHeader, SessionId } from '@deepseek-ai/dsh-session'
import {
  type SessionEventMetadataFilter,
  SessionQueryError,
  type SessionSearchHit,
  type SessionSearchRequest,
  SessionSearchCursor,
} from '@deepseek-ai/dsh-session-query'
import { replaceSearchSessions, type SearchSessions } from '../official/session-query.ts'
import { scopeViewsOf } from '../sessions/scope-views.ts'
import type { CatalogedSession, SessionCatalog } from '../sessions/session-catalog.ts'
import type { ContentSearch } from './content-search.ts'
import { boundedQuery } from './sidebar-search.ts'
import { filteredScope } from './filtered-scope.ts'
import { parseQuery } from './text/query-grammar.ts'
import { queryTerms } from './text/terms.ts'

/** Most sessions one page may ask for. */
export const MAX_PAGE = 100

/** Most sessions a query is paged through. */
export const MAX_HITS = 200


const MESSAGE_TYPES: ReadonlySet<string> = new Set(['user/message', 'assistant/message'])

/** Whether every event filter is one this index applies already: message types, the current surface. */
function answerable(request: SessionSearchRequest): boolean {
  if (request.sessionFilters !== undefined && request.sessionFilters.length > 0) return false
  const types = new Set<string>(MESSAGE_TYPES)
  for (const filter of request.eventFilters ?? [] as readonly SessionEventMetadataFilter[]) {
    if (filter.kind === 'surface') {
      if (!filter.values.includes('current')) return false
    } else if (filter.kind === 'type') {
      for (const type of [...types]) if (!(filter.values as readonly string[]).includes(type)) types.delete(type)
    } else {
      return false
    }
  }
  return types.size === MESSAGE_TYPES.size
}

interface CursorState {
  readonly q: string
  readonly at: number
}

function cursorOf(state: CursorState): SessionSearchCursor {
  return SessionSearchCursor(`dsh-sessions:${Buffer.from(JSON.stringify(state)).toString('base64url')}`)
}

function readCursor(cursor: string, query: string): number {
  const invalid = () => new SessionQueryError('this cursor does not belong to this query', 'SESSION_QUERY_INVALID_CURSOR')
  if (typeof cursor !== 'string' || !cursor.startsWith('dsh-sessions:')) throw invalid()
  let state: unknown
  try {
    state = JSON.parse(Buffer.from(cursor.slice('dsh-sessions:'.length), 'base64url').toString('utf8'))
  } catch (error) {
    throw new SessionQueryError('this cursor does not belong to this query', 'SESSION_QUERY_INVALID_CURSOR', { cause: error })
  }
  const { q, at } = (state ?? {}) as Partial<CursorState>
  if (q !== query || typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0 || at > MAX_HITS) throw invalid()
  return at
}

function headerOf(session: CatalogedSession): SessionHeader {
  const given = session.header as Partial<SessionHeader>
  if (typeof given.version === 'number') return structuredClone(given as SessionHeader)
  return { version: SESSION_FORMAT_VERSION, id: SessionId(session.id), createdAt: session.createdAt, ...(session.cwd === undefined ? {} : { cwd: session.cwd }) }
}

/** The `searchSessions` this plugin serves. `official`: the official method, for requests this index does not answer. */
export function hostSearch(ctx: Context, sources: { readonly catalog: SessionCatalog; readonly content: ContentSearch }, official: SearchSessions): SearchSessions {
  const { catalog, content } = sources
  return async (request, exec) => {
    const signal = exec?.signal
    const aborted = () => new SessionQueryError('session search was aborted', 'SESSION_QUERY_ABORTED', { cause: signal?.reason })
    const isAborted = () => signal?.aborted === true
    if (isAborted()) throw aborted()
    if (!answerable(request)) return official(request, exec)
    if (typeof request.query !== 'string' || request.query.trim() === '') throw new SessionQueryError('the query must be non-empty text', 'SESSION_QUERY_INVALID_QUERY')
    const limit = request.limit ?? 20
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new SessionQueryError(`limit must be a whole number from 1 to ${MAX_PAGE}`, 'SESSION_QUERY_INVALID_LIMIT')
    const query = boundedQuery(request.query)
    const at = request.cursor === undefined ? 0 : readCursor(request.cursor, query)
    // The same grammar as the sidebar's box: filters narrow, words match.
    const { text, filters } = parseQuery(query)
    const terms = queryTerms(text)
    await catalog.ready()
    const wanted = Math.min(at + limit + 1, MAX_HITS)
    const every = scopeViewsOf(catalog).everyone()
    const scope = filteredScope(every.set, every.ranked, filters)
    const hits = terms.length === 0 || at >= wanted ? [] : await content.search(terms, { admit: { key: scope.key, sessions: scope.ids }, limit: wanted, role: filters.from })
    if (isAborted()) throw aborted()
    const items: SessionSearchHit[] = []
    for (const hit of hits.slice(at, at + limit)) {
      const session = catalog.get(hit.id)
      const origin = hit.origin
      if (session === undefined || origin === undefined) continue
      const sessionId = SessionId(session.id)
      const live = ctx.sessions.get(sessionId) !== undefined
      items.push({
        header: headerOf(session),
        live,
        persisted: true,
        bestMatch: { sessionId, seq: origin.seq, type: origin.role === 'user' ? 'user/message' : 'assistant/message', time: origin.time, surface: 'current', snippet: hit.snippet.text },
      })
    }
    const next = at + limit
    return { items, ...(hits.length > next && next < MAX_HITS ? { nextCursor: cursorOf({ q: query, at: next }) } : {}) }
  }
}

/** Sets {@link hostSearch} on the official `sessionQuery` instance for as long as the row runs. */
export function serveHostSearch(ctx: Context, catalog: SessionCatalog, content: ContentSearch): void {
  ctx.effect(() => {
    try {
      return replaceSearchSessions(ctx.sessionQuery, official => hostSearch(ctx, { catalog: catalog, content: content }, official))
    } catch (error) {
      // The host's search stays the official one; the plugin's own sidebar search does not depend on it.
      ctx.logger('dsh-sessions').warn('the host\'s session search is left as it is: %s', error)
      return () => undefined
    }
  }, 'dsh-sessions: the host\'s session search')
}
