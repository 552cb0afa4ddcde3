/**
 * Typed calls from the browser to the host's `/dsh-sessions` routes (same origin, so the host's trust
 * fence admits them), each typed by the route's declaration in `shared/wire.ts`.
 * @module @wishp3/dsh-sessions/client/api
 */
import type { DshSessionsErrorCode, ErrorResponse, MessageHandle, Route, RouteRequest, RouteResponse, SentReference } from '../shared/wire.ts'

/** A route's refusal: its message is the one the host sent (or `HTTP <status>` when the body names none), with the host's error code when it sent one. */
export class RouteError extends Error {
  /** The host's error code; `undefined` when the body carried none. */
  readonly code: DshSessionsErrorCode | undefined
  /** The HTTP status. */
  readonly status: number

  constructor(message: string, answer: { readonly status: number; readonly code: DshSessionsErrorCode | undefined }, options?: ErrorOptions) {
    const { status, code } = answer
    super(message, options)
    this.name = 'RouteError'
    this.status = status
    this.code = code
  }
}

/** A page of the find bar's matches: a session, a query, and the message number they come after. */
export interface FindAsked {
  readonly sessionId: string
  readonly query: string
  readonly after: number
}

/** The routes, as the browser half uses them. */
export interface SessionsApi {
  /** Candidates for a session's `@` query. */
  candidates(sessionId: string, query: string, signal: AbortSignal): Promise<RouteResponse<'candidates'>>
  /** Checks a whole text once; `chips` names the sessions cited by chips. */
  preflight(draft: { readonly sessionId: string; readonly text: string; readonly chips: readonly string[] }, signal: AbortSignal): Promise<RouteResponse<'preflight'>>
  /** Outcomes newer than `after`, waiting up to `waitMs` for one. */
  outcomes(asked: { readonly sessionId: string; readonly after: number; readonly waitMs: number }, signal: AbortSignal): Promise<RouteResponse<'outcomes'>>
  /** The sidebar's search over every session: at most `limit` sessions, and whether there are more. */
  search(query: string, limit: number, signal: AbortSignal): Promise<RouteResponse<'search'>>
  /** The titles the plugin knows of these sessions. */
  titles(ids: readonly string[], signal: AbortSignal): Promise<RouteResponse<'titles'>>
  /** The canonical mention of a whole session. */
  mention(sessionId: string, signal: AbortSignal): Promise<RouteResponse<'mention'>>
  /** The reference to one message of a session, by the message's id or log seq. */
  messageReference(sessionId: string, message: MessageHandle, signal: AbortSignal): Promise<RouteResponse<'message-reference'>>
  /** The latest messages of a chip's source, for narrowing the chip in `sessionId`'s draft (the scope's sources only). */
  messages(sessionId: string, source: string, signal: AbortSignal): Promise<RouteResponse<'messages'>>
  /** What the sources of sent references gained since their snapshots. */
  since(sources: readonly SentReference[], signal: AbortSignal): Promise<RouteResponse<'since'>>
  /** The messages of a session that hold a query, in order after message number `after`, a page at a time. */
  find(asked: FindAsked, signal: AbortSignal): Promise<RouteResponse<'find'>>
  /** The sessions a draft of `sessionId` is about, none of `except`. */
  related(draft: { readonly sessionId: string; readonly text: string; readonly except: readonly string[] }, signal: AbortSignal): Promise<RouteResponse<'related'>>
}

/** Calls a route; a refusal throws a {@link RouteError}. */
async function post<K extends Route>(fetcher: typeof fetch, route: K, request: { readonly body: RouteRequest<K>; readonly signal: AbortSignal }): Promise<RouteResponse<K>> {
  const { body, signal } = request
  const res = await fetcher(`/dsh-sessions/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
  const json = await res.json() as RouteResponse<K> | ErrorResponse
  if (!res.ok) {
    const refusal = (json as Partial<ErrorResponse> | null)?.error
    throw new RouteError(refusal?.message ?? `HTTP ${res.status}`, { status: res.status, code: refusal?.code }, { cause: json })
  }
  return json as RouteResponse<K>
}

/** Binds the routes to a fetch implementation. */
export function createSessionsApi(fetcher: typeof fetch): SessionsApi {
  return {
    candidates: (sessionId, query, signal) => post(fetcher, 'candidates', { body: { citingSessionId: sessionId, query }, signal: signal }),
    preflight: ({ sessionId, text, chips }, signal) => post(fetcher, 'preflight', { body: { citingSessionId: sessionId, text, chips }, signal: signal }),
    outcomes: ({ sessionId, after, waitMs }, signal) => post(fetcher, 'outcomes', { body: { citingSessionId: sessionId, after, waitMs }, signal: signal }),
    search: (query, limit, signal) => post(fetcher, 'search', { body: { query, limit }, signal: signal }),
    titles: (ids, signal) => post(fetcher, 'titles', { body: { ids }, signal: signal }),
    mention: (sessionId, signal) => post(fetcher, 'mention', { body: { sourceId: sessionId }, signal: signal }),
    messageReference: (sessionId, message, signal) => post(fetcher, 'message-reference', { body: { sourceId: sessionId, ...message }, signal: signal }),
    messages: (sessionId, source, signal) => post(fetcher, 'messages', { body: { citingSessionId: sessionId, sourceId: source }, signal: signal }),
    since: (sources, signal) => post(fetcher, 'since', { body: { sources }, signal: signal }),
    find: ({ sessionId, query, after }, signal) => post(fetcher, 'find', { body: { sessionId, query, after }, signal: signal }),
    related: ({ sessionId, text, except }, signal) => post(fetcher, 'related', { body: { citingSessionId: sessionId, text, except }, signal: signal }),
  }
}
