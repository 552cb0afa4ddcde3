/**
 * What the host half and the search worker say to each other: one request per call, each answered once
 * with its result or an error message.
 * @module @wishp3/dsh-sessions/host/search/worker-protocol
 */
import type { Snippet } from '../../shared/wire.ts'
import type { ConversationText, MessageOrigin, MessageRole } from '../official/conversation.ts'
import type { ConversationPage } from './text/conversation-page.ts'
import type { SessionMatches } from './text/conversation-search.ts'
import type { SessionFind } from './text/conversation-find.ts'
import type { QueryTerm } from './text/terms.ts'

/** One session a content query found, with its score and the excerpt of its best message. */
export interface ContentHit {
  readonly id: string
  readonly score: number
  readonly snippet: Snippet
  /** The log event of the message the excerpt is from, where the index knows it. */
  readonly origin?: MessageOrigin
}

/** The free space and size of a disk, in bytes. */
export interface DiskFigures {
  readonly free: number
  readonly total: number
}

/** Where a disk stands against the floor. */
export interface DiskSpace extends DiskFigures {
  readonly floor: number
  /** Whether it has less free space than the floor. */
  readonly low: boolean
}

/** What the error message of a write refused for low disk space starts with; the host half reads it off the worker's answer. */
export const LOW_DISK_MESSAGE = 'indexing is paused: low disk space'

/** What the error message of a call that found the index file damaged starts with (the file was set aside and a fresh one opened); the host half reads it off the worker's answer. */
export const DAMAGED_MESSAGE = 'the content index file is damaged'

/** Scopes the worker keeps at once; the host half remembers what it sent of as many. */
export const SCOPES_HELD = 8

/** Most characters of one session's conversation either side reads. */
export const MAX_READ_TEXT = 16 * 1024 * 1024

/** What the index keeps of a session that the host half mirrors: enough to tell a changed log and to name the session. */
export interface EntrySummary {
  readonly revision: string | undefined
  readonly title: string | undefined
}

/** Where the index lives: on disk in SQLite, or nowhere (`node:sqlite` or its FTS5 is missing: titles only). */
export type IndexEngine = 'sqlite' | 'none'

/** What the index holds of one session. */
export interface ContentEntry extends ConversationText {
  /** Revision of the log the text was read from (`live:<seq>` for text taken from a live session); `undefined` when unknown. */
  readonly revision: string | undefined
}

/** A live session's new messages, added to the earlier ones the file holds. */
export interface ContentAppend extends ConversationText {
  readonly revision: string | undefined
  /** The earlier messages the file must hold for these to be added: their count and digest. */
  readonly after: { readonly messages: number; readonly digest: string }
  /** The digest of the earlier messages and these together. */
  readonly digest: string
}

/** The revision of a cold session's content, from its log file's status, as both sides tell it (the worker looks at a log itself when it reads one the index does not hold). `info`: the log file's size and modification time. */
export function logRevision(info: { readonly size: number; readonly mtimeMs: number }): string {
  return `${info.size}:${info.mtimeMs}`
}

/** A session's log to read into the index: the file and its revision; without a revision, the worker looks at the file as it reads it, and answers with what it found. */
export interface LogToRead {
  readonly session: string
  readonly path: string
  readonly revision?: string
}

/** What reading a log gave: its title and whether it was there (`found: false`: the file is gone, and the session forgotten), with the revision and size of a file the worker looked at itself; or why it could not be read. */
export type LogRead = { readonly found: boolean; readonly title: string | undefined; readonly revision?: string; readonly bytes?: number } | { readonly failed: string }

/** What the worker is started with. */
export interface WorkerStart {
  readonly engine: IndexEngine | undefined
}

/** How the index file was found when it was loaded; `low-disk`: no file exists and the disk has no room for one (nothing is open). */
export type LoadReason = 'restored' | 'partial' | 'missing' | 'corrupt' | 'outdated' | 'unavailable' | 'low-disk'

/** One query: its terms, the most hits, the side whose words count (`from:`), and whether it ranks by the words held alone (see `RankedQuery.mostWords`). */
export interface SearchAsk {
  readonly terms: readonly QueryTerm[]
  readonly limit: number
  readonly role?: MessageRole | undefined
  readonly mostWords?: boolean | undefined
}

/** Which sessions a query may find. The worker keeps a creation time per session, given once (`dates`) and forgotten when asked (`dropped`); a query admits the sessions named in `only`, or else every session with a creation time except those in `except`, so the larger of the two lists is never sent. */
export interface SearchScope {
  /** Creation times (Unix epoch milliseconds) to keep, new or changed. */
  readonly dates?: readonly (readonly [string, number])[]
  /** Sessions whose creation times to forget. */
  readonly dropped?: readonly string[]
  readonly only?: readonly string[]
  readonly except?: readonly string[]
}

/** A query within a scope the worker keeps between queries (see `held-scopes.ts`): the host half names it by key and version, and sends its sessions only when the worker does not hold that version yet (all of them, or what changed since a version sent before); a query naming a version the worker does not hold, or changes from one, fails with {@link SCOPE_NOT_HELD}, and the host half sends it again with the sessions. Sessions with no creation time given are found all the same. */
export interface HeldScopeQuery {
  readonly key: string
  /** Changes whenever the scope's sessions change. */
  readonly version: number
  /** The scope's sessions, when the worker may not hold this version. */
  readonly ids?: readonly string[]
  /** Instead of `ids`: the sessions added to and removed from the version `from` of the same key, which the worker may hold. */
  readonly changed?: ScopeChange
  /** Sessions of the scope this query leaves out (few). */
  readonly except?: readonly string[]
}

/** How a scope's sessions changed since a version the worker was sent. */
export interface ScopeChange {
  readonly from: number
  readonly added: readonly string[]
  readonly removed: readonly string[]
}

/** What the error message of a change that came while no index file is open starts with (the host half opens one again). */
export const NOT_OPEN_MESSAGE = 'the content index file is not open'

/** What the error of a query within a scope the worker does not hold says. */
export const SCOPE_NOT_HELD = 'the search worker does not hold this scope'

/** What the index knows of one session without reading its log. */
export interface SessionFacts {
  /** Its messages, those past what the index keeps included where counted. */
  readonly messages: number
  /** Its first message from the user, as the index keeps it. */
  readonly firstUserMessage?: string
  /** Its newest message's log event. */
  readonly newest?: { readonly seq: number; readonly time: number }
}

/** Every call, by name: what it takes and what it answers. */
export interface WorkerCalls {
  /** Indexes a session's text as given (a live session's, from its events). */
  put: { args: { session: string; entry: ContentEntry }; result: null }
  /** Adds a live session's new messages; `appended: false` when the file does not hold the earlier ones the append names. */
  append: { args: { session: string; entry: ContentAppend }; result: { appended: boolean } }
  /** Reads session logs in order and indexes their text in one transaction, until the text read reaches a batch's bound (see `index-keeper.ts`): an answer for each log read, the first ones asked; the others are for a later call. */
  read: { args: { logs: readonly LogToRead[] }; result: { read: readonly LogRead[] } }
  forget: { args: { session: string }; result: null }
  /** Sessions whose text has every term, among those admitted (see {@link SearchScope}, or within `held`, see {@link HeldScopeQuery}), equally good ones newest first. */
  search: { args: SearchScope & SearchAsk & { held?: HeldScopeQuery }; result: readonly ContentHit[] }
  /** Keeps a scope's sessions (with creation times to keep or forget) before any query asks within it, its table of session numbers made where it needs one: what a first query in the scope would otherwise wait for. */
  hold: { args: Pick<SearchScope, 'dates' | 'dropped'> & { held: HeldScopeQuery }; result: null }
  /** Records whether the build completed (`complete`: every listed session is indexed) and folds the write-ahead log into the file; with `merge`, the first such save of a complete file merges its term tables too (seconds at 20,000 sessions, so a stop does not ask it). */
  save: { args: { file: string; complete: boolean; merge?: boolean }; result: { bytes: number } }
  /** A page of a cold session's conversation, read from its log (the `read_session` tool); `null` when the log is gone. */
  page: { args: { path: string; revision: string; from: number; maxChars: number }; result: ConversationPage | null }
  /** The messages of one session that hold a query: from the index where it holds the session, else from its log (`path`), or `null`. */
  /** What the index knows of one session, or `null` when it does not hold it. */
  facts: { args: { session: string }; result: SessionFacts | null }
  searchSession: { args: { session: string; terms: readonly QueryTerm[]; limit: number; path?: string; revision?: string }; result: SessionMatches | null }
  /** Ends the worker once the call before it is done, so it never stops inside one (a thread stopped while it opens a Brotli stream aborts the process). */
  shutdown: { args: Record<string, never>; result: null }
  /** How many segments hold each word (up to `cap`), and how many sessions the file holds; `null` without an index. */
  wordCounts: { args: { words: readonly string[]; cap: number }; result: { counts: number[]; sessions: number } | null }
  /** The messages of one session that hold a query, in order after message `after`, from the index, else from its log when `path` is given; `null` when neither holds it. */
  findInSession: { args: { session: string; terms: readonly QueryTerm[]; after: number; limit: number; path?: string; revision?: string }; result: SessionFind | null }
  /** Looks at the file's health and the disk's free space against the floor; fails with the damage message when the file was found damaged. */
  check: { args: { freeSpaceMiB: number }; result: { space: DiskSpace; open: boolean; bytes: number } }
  /** Opens the index file (see `index-keeper.ts`), or without one (`null`) an index in memory; engine `none` and `why` where SQLite cannot serve. */
  load: { args: { file: string | null; freeSpaceMiB?: number }; result: { engine: IndexEngine; entries: readonly (readonly [string, EntrySummary])[]; reason: LoadReason; bytes: number; why?: string } }
}
