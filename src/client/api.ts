/**
 * Typed calls from the browser to the host's `/dsh-sessions` routes
 * (same origin, so the host's trust fence admits them).
 * @module @wishp3/dsh-sessions/client/api
 */
import type {
  CandidatesResponse, ErrorResponse, MentionResponse, MessageHandle, MessageReferenceResponse, OutcomesResponse, PreflightResponse, SentReference, SidebarSearchResponse, SinceResponse,
  SourceMessagesResponse, TitlesResponse,
} from '../shared/wire.ts'

/** The routes, as the browser half uses them. */
export interface SessionsApi {
  /**
   * Candidates for a session's `@` query.
   * @param sessionId - the citing session.
   * @param query - the text typed after `@`.
   * @param signal - cancellation.
   */
  candidates(sessionId: string, query: string, signal: AbortSignal): Promise<CandidatesResponse>
  /** Checks a whole text once; `chips` names the sessions cited by chips. */
  preflight(sessionId: string, text: string, chips: readonly string[], signal: AbortSignal): Promise<PreflightResponse>
  /** Outcomes newer than `after`, waiting up to `waitMs` for one. */
  outcomes(sessionId: string, after: number, waitMs: number, signal: AbortSignal): Promise<OutcomesResponse>
  /** The sidebar's search over every session. */
  search(query: string, signal: AbortSignal): Promise<SidebarSearchResponse>
  /** The titles the plugin knows of these sessions. */
  titles(ids: readonly string[], signal: AbortSignal): Promise<TitlesResponse>
  /** The canonical mention of a whole session. */
  mention(sessionId: string, signal: AbortSignal): Promise<MentionResponse>
  /** The reference to one message of a session, by the message's id or log seq. */
  messageReference(sessionId: string, message: MessageHandle, signal: AbortSignal): Promise<MessageReferenceResponse>
  /** The latest messages of a chip's source, for narrowing the chip in `sessionId`'s draft (the scope's sources only). */
  messages(sessionId: string, source: string, signal: AbortSignal): Promise<SourceMessagesResponse>
  /** What the sources of sent references gained since their snapshots. */
  since(sources: readonly SentReference[], signal: AbortSignal): Promise<SinceResponse>
}

async function post<T>(fetcher: typeof fetch, path: string, body: unknown, signal: AbortSignal): Promise<T> {
  const res = await fetcher(`/dsh-sessions/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
  const json = await res.json() as T | ErrorResponse
  if (!res.ok) throw new Error((json as ErrorResponse).error?.message ?? `HTTP ${res.status}`)
  return json as T
}

/**
 * Binds the routes to a fetch implementation.
 * @param fetcher - the page's `fetch`.
 * @returns the calls.
 */
export function createSessionsApi(fetcher: typeof fetch): SessionsApi {
  return {
    candidates: (sessionId, query, signal) => post(fetcher, 'candidates', { sessionId, query }, signal),
    preflight: (sessionId, text, chips, signal) => post(fetcher, 'preflight', { sessionId, text, chips }, signal),
    outcomes: (sessionId, after, waitMs, signal) => post(fetcher, 'outcomes', { sessionId, after, waitMs }, signal),
    search: (query, signal) => post(fetcher, 'search', { query }, signal),
    titles: (ids, signal) => post(fetcher, 'titles', { ids }, signal),
    mention: (sessionId, signal) => post(fetcher, 'mention', { sessionId }, signal),
    messageReference: (sessionId, message, signal) => post(fetcher, 'message-reference', { sessionId, ...message }, signal),
    messages: (sessionId, source, signal) => post(fetcher, 'messages', { sessionId, source }, signal),
    since: (sources, signal) => post(fetcher, 'since', { sources }, signal),
  }
}
