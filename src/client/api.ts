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

  constructor(message: string, status: number, code: DshSessionsErrorCode | undefined, options?: ErrorOptions) {
    super(message, options)
    this.name = 'RouteError'
    this.status = status
    this.code = code
  }
}

/** The routes, as the browser half uses them. */
export interface SessionsApi {
  /** Candidates for a session's `@` query. */
  candidates(sessionId: string, query: string, signal: AbortSignal): Promise<RouteResponse<'candidates'>>
  /** Checks a whole text once; `chips` names the sessions cited by chips. */
  preflight(sessionId: string, text: string, chips: readonly string[], signal: AbortSignal): Promise<RouteResponse<'preflight'>>
  /** Outcomes newer than `after`, waiting up to `waitMs` for one. */
  outcomes(sessionId: string, after: number, waitMs: number, signal: AbortSignal): Promise<RouteResponse<'outcomes'>>
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
  find(sessionId: string, query: string, after: number, signal: AbortSignal): Promise<RouteResponse<'find'>>
  /** The sessions a draft of `sessionId` is about, none of `except`. */
  related(sessionId: string, text: string, except: readonly string[], signal: AbortSignal): Promise<RouteResponse<'related'>>
}

/** Calls a route; a refusal throws a {@link RouteError}. */
async function post<K extends Route>(fetcher: typeof fetch, route: K, body: RouteRequest<K>, signal: AbortSignal): Promise<RouteResponse<K>> {
  const res = await fetcher(`/dsh-sessions/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
  const json = await res.json() as RouteResponse<K> | ErrorResponse
  if (!res.ok) {
    const refusal = (json as Partial<ErrorResponse> | null)?.error
    throw new RouteError(refusal?.message ?? `HTTP ${res.status}`, res.status, refusal?.code, { cause: json })
  }
  return json as RouteResponse<K>
}

/** Binds the routes to a fetch implementation. */
export function createSessionsApi(fetcher: typeof fetch): SessionsApi {
  return {
    candidates: (sessionId, query, signal) => post(fetcher, 'candidates', { citingSessionId: sessionId, query }, signal),
    preflight: (sessionId, text, chips, signal) => post(fetcher, 'preflight', { citingSessionId: sessionId, text, chips }, signal),
    outcomes: (sessionId, after, waitMs, signal) => post(fetcher, 'outcomes', { citingSessionId: sessionId, after, waitMs }, signal),
    search: (query, limit, signal) => post(fetcher, 'search', { query, limit }, signal),
    titles: (ids, signal) => post(fetcher, 'titles', { ids }, signal),
    mention: (sessionId, signal) => post(fetcher, 'mention', { sourceId: sessionId }, signal),
    messageReference: (sessionId, message, signal) => post(fetcher, 'message-reference', { sourceId: sessionId, ...message }, signal),
    messages: (sessionId, source, signal) => post(fetcher, 'messages', { citingSessionId: sessionId, sourceId: source }, signal),
    since: (sources, signal) => post(fetcher, 'since', { sources }, signal),
    find: (sessionId, query, after, signal) => post(fetcher, 'find', { sessionId, query, after }, signal),
    related: (sessionId, text, except, signal) => post(fetcher, 'related', { citingSessionId: sessionId, text, except }, signal),
  }
}
