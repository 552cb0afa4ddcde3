/**
 * Bodies of the `/dsh-sessions` routes, shared by the host routes and the browser's calls.
 * @module @wishp3/dsh-sessions/shared/wire
 */

/** Every JSON route the browser half calls, by its path under `/dsh-sessions/`: what its `POST` body holds and what it answers. The host parses each body into its `request` and answers its `response`; the browser sends the one and reads the other. A refused request answers an {@link ErrorResponse}. The host's `GET content-index` and `settings` routes answer the host's own types and are not called by the browser half. */
export interface RouteCalls {
  /** The `@` menu's candidates for a query typed in `citingSessionId`'s draft; `limit` at least 1. */
  candidates: { request: { readonly citingSessionId: string; readonly query?: string; readonly limit?: number }; response: CandidatesResponse }
  /** A whole draft checked once; `chips` names the sessions the draft holds as chips (at most 64). */
  preflight: { request: { readonly citingSessionId: string; readonly text: string; readonly chips?: readonly string[] }; response: PreflightResponse }
  /** What the pre-step could not attach after outcome `after`, waiting up to `waitMs` (at most 25 s) for news. */
  outcomes: { request: { readonly citingSessionId: string; readonly after?: number; readonly waitMs?: number }; response: OutcomesResponse }
  /** The sidebar's search over every session the host lists; any text is answered, only its first 256 characters are read. */
  search: { request: { readonly query: string; readonly limit?: number }; response: SidebarSearchResponse }
  /** The titles the plugin knows of at most 1,000 sessions. */
  titles: { request: { readonly ids: readonly string[] }; response: TitlesResponse }
  /** The reference to one message of a session; 404 when it is not there. */
  'message-reference': { request: { readonly sourceId: string } & MessageHandle; response: MessageReferenceResponse }
  /** The canonical mention of a session the index holds; 404 for any other. */
  mention: { request: { readonly sourceId: string }; response: MentionResponse }
  /** The latest messages of `sourceId`, for narrowing a chip of `citingSessionId`'s draft; 404 for a source out of scope. */
  messages: { request: { readonly citingSessionId: string; readonly sourceId: string }; response: SourceMessagesResponse }
  /** What each of at most 32 sent references' sources gained since its snapshot. */
  since: { request: { readonly sources: readonly SentReference[] }; response: SinceResponse }
  /** The messages of `sessionId` that hold a query (at most 256 characters), in order after message number `after` (default 0: from the start), a page at a time; 404 for a session the host does not list. */
  find: { request: { readonly sessionId: string; readonly query: string; readonly after?: number }; response: FindResponse }
  /** At most 3 sessions in scope that `citingSessionId`'s draft `text` is about (only its first 2,000 characters are read), none of those named in `except` (at most 64). */
  related: { request: { readonly citingSessionId: string; readonly text: string; readonly except?: readonly string[] }; response: RelatedResponse }
}

export type Route = keyof RouteCalls

export type RouteRequest<K extends Route> = RouteCalls[K]['request']

export type RouteResponse<K extends Route> = RouteCalls[K]['response']

/** An excerpt of a session's text around the first match of a query; plain text, never markup. */
export interface Snippet {
  readonly text: string
  /** Matched ranges of `text` as UTF-16 offsets `[start, end)`, ascending and disjoint. */
  readonly marks: readonly (readonly [number, number])[]
  /** The number (from 1) of the message the excerpt is from, among the session's own messages and reply texts in order. */
  readonly message?: number
  /** For a session that holds only some of the query's words: the words it lacks, as the query has them (folded). */
  readonly missing?: readonly string[]
}

export interface Candidate {
  readonly sessionId: string
  readonly label: string
  readonly cwd?: string
  readonly createdAt: number
  readonly mention: string
  /** Present when the session was found by what was said in it rather than by title, id or cwd. */
  readonly snippet?: Snippet
  /** The name of the session's workspace folder, under scope `all` when it is not the citing session's. */
  readonly workspace?: string
}

export interface CandidatesResponse {
  readonly candidates: readonly Candidate[]
  /** Present while the content index is still being built: content matches cover the `indexed` sessions of `total` so far, newest first. */
  readonly indexing?: IndexingProgress
}

export interface SidebarResult {
  readonly sessionId: string
  /** Its latest title; absent while the plugin knows none (the sidebar's row then shows what the host shows). */
  readonly title?: string
  /** Present when it was found by what was said in it rather than by its title; `seq` names the matching message's log event. */
  readonly snippet?: Snippet & { readonly seq?: number }
}

export interface SidebarSearchResponse {
  /** Title matches first, newest first; then matches of what was said, best first, then newest. */
  readonly results: readonly SidebarResult[]
  readonly hasMore: boolean
  /** Present while the content index is still being built: matches of what was said cover the `indexed` sessions of `total` so far. */
  readonly indexing?: IndexingProgress
}

export interface TitlesResponse {
  readonly titles: Readonly<Record<string, string>>
  /** Whether titles not known yet may still be found (the logs are still being read). */
  readonly pending: boolean
}

/** How far a build of the content index has come. */
export interface IndexingProgress {
  readonly indexed: number
  readonly total: number
  /** Present while indexing is paused: `low-disk` when the disk holding the index has less free space than the plugin leaves to the host. */
  readonly paused?: 'low-disk'
}

/** Why a session a message names is not attached: the one closed set the preflight answer, the pre-step's outcomes and the browser's sentences share. `out-of-scope`: outside the `scope` setting; `self-reference`: the session the message is written in; `too-many`: past the limit of sources per message; `not-found`: no such session, or it cannot be read; `too-large`: its snapshot cannot fit the byte budget; `invalid-reference`: a malformed session reference; `cancelled`: the send was abandoned while it was prepared; `unavailable`: the snapshot service cannot prepare it; `agent-cannot-read`: a pointer for the agent to read while the session tools are off. */
export type SendCheckCode =
  | 'out-of-scope'
  | 'self-reference'
  | 'too-many'
  | 'not-found'
  | 'too-large'
  | 'invalid-reference'
  | 'cancelled'
  | 'unavailable'
  | 'agent-cannot-read'

/** One session a text names, and what sending it would do with it. */
export interface SourceOutcome {
  readonly sessionId?: string
  readonly label: string
  /** Whether it came from a chip of the draft (as the request said). */
  readonly chip: boolean
  /** The text names the same session too (a bare id or a typed title): it is one source, sent once, as its chip cites it. */
  readonly alsoInText?: boolean
  readonly ok: boolean
  readonly bytes?: number
  readonly tokens?: number
  readonly truncated?: boolean
  readonly code?: SendCheckCode
  readonly message?: string
}

/** `POST /dsh-sessions/preflight` answer: the whole draft checked once. */
export type PreflightResponse =
  | { readonly ok: true; readonly text: string; readonly references: readonly { sessionId: string; label?: string }[]; readonly sources: readonly SourceOutcome[]; readonly omitted?: number }
  | { readonly ok: false; readonly code: SendCheckCode; readonly message: string; readonly sessionId?: string; readonly label?: string; readonly sources: readonly SourceOutcome[]; readonly omitted?: number }

/** A reference the pre-step could not attach. */
export interface OutcomeReference {
  readonly sessionId?: string
  readonly label: string
  readonly code: SendCheckCode
  readonly message: string
}

/** What the pre-step did with the references of one sent message. */
export interface Outcome {
  readonly id: number
  readonly at: number
  /** `not-attached`: the message was sent without these snapshots; `rejected`: the step was rejected and the message not sent; `ids-as-text`: bare ids in the message named no session the scope shows (unknown and out of scope alike) and went as the text they are; `same-source`: the message's text named sessions its chips cite (by a bare id or a typed title), each sent once, as its chip cites it. */
  readonly kind: 'not-attached' | 'rejected' | 'ids-as-text' | 'same-source'
  readonly references: readonly OutcomeReference[]
  /** The message as the user wrote it, for a rejected step. */
  readonly text?: string
  /** How many distinct ids went as text, for `ids-as-text`. */
  readonly count?: number
  /** The labels of the chips whose sessions the text named too, for `same-source`. */
  readonly labels?: readonly string[]
}

export interface OutcomesResponse {
  readonly outcomes: readonly Outcome[]
  /** The newest outcome id the host knows; read after it next time. */
  readonly last: number
}

/** Why the host refused a request: the closed set of codes its error bodies carry. `invalid-settings`, `settings-refused` and `unavailable` come from a settings write; `internal` from a handler that failed unexpectedly; the rest from the request itself. */
export type DshSessionsErrorCode =
  | 'bad-request'
  | 'malformed-json'
  | 'unsupported-media-type'
  | 'body-too-large'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'invalid-settings'
  | 'settings-refused'
  | 'unavailable'
  | 'internal'

export interface ErrorResponse {
  readonly error: { readonly code: DshSessionsErrorCode; readonly message: string }
}

/** How the browser names a message: by its id (a reply's actions know it) or its log seq (a user message's row knows it). */
export type MessageHandle = { readonly messageId: string } | { readonly seq: number }

export interface MentionResponse {
  readonly sessionId: string
  readonly label: string
  /** The `@[label](dsh-session:…)` mention the `@` menu inserts. */
  readonly mention: string
}

/** `POST /dsh-sessions/message-reference` answer: a reference to one message of a session. */
export interface MessageReferenceResponse {
  /** The `@[Title · #n](dsh-messages:…)` mention (see `shared/message-reference.ts`). */
  readonly mention: string
  readonly label: string
  readonly sessionId: string
  readonly seq: number
  readonly number: number
}

/** One message of a session, as a chip's narrowing lists it. */
export interface SourceMessage {
  readonly seq: number
  readonly number: number
  readonly role: 'user' | 'assistant'
  /** The start of its text, at most 120 characters. */
  readonly excerpt: string
}

/** `POST /dsh-sessions/messages` answer: a session's messages, the latest last. */
export interface SourceMessagesResponse {
  readonly sessionId: string
  readonly title: string
  /** The latest messages, at most 200. */
  readonly messages: readonly SourceMessage[]
  readonly total: number
}

/** One sent reference, as `POST /dsh-sessions/since` asks about it. */
export interface SentReference {
  readonly sessionId: string
  /** The log event the snapshot was captured through. */
  readonly capturedThroughSeq: number | null
}

/** What one sent reference's source gained since its snapshot. */
export interface SourceSince {
  readonly sessionId: string
  readonly capturedThroughSeq: number | null
  /** Messages the source has now that came after the snapshot; 0 when none, or when the source cannot be read. */
  readonly newMessages: number
  readonly firstNewSeq?: number
}

export interface SinceResponse {
  readonly sources: readonly SourceSince[]
}

/** One message that holds the query: its number (from 1), its log event and side where known, and an excerpt. */
export interface FoundMessage {
  readonly number: number
  readonly seq?: number
  readonly role?: 'user' | 'assistant'
  readonly snippet: Snippet
}

/** At most 50 matches after the message asked, in order; `total` counts those after it in the text read, all of them when `complete`. */
export interface FindResponse {
  readonly matches: readonly FoundMessage[]
  readonly total: number
  readonly complete: boolean
}

/** A session a draft is about, with the excerpt that matched and the mention a chip of it sends. */
export interface RelatedSession {
  readonly sessionId: string
  readonly label: string
  readonly createdAt: number
  readonly mention: string
  readonly snippet: Snippet
}

export interface RelatedResponse {
  readonly sessions: readonly RelatedSession[]
}
