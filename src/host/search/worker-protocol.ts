/**
 * What the host half and the search worker say to each other: one request
 * per call, each answered once with its result or an error message. Types
 * only.
 * @module @wishp3/dsh-sessions/host/search/worker-protocol
 */
import type { ContentEntry, ContentHit } from './content-index.ts'
import type { ConversationPage } from './conversation-page.ts'
import type { QueryTerm } from './text.ts'

/** What the index keeps of a session that the host half mirrors: enough to tell a changed log and to name the session. */
export interface EntrySummary {
  readonly revision: string | undefined
  readonly title: string | undefined
}

/** Every call, by name: what it takes and what it answers. */
export interface WorkerCalls {
  /** Indexes a session's text as given (a live session's, from its events). */
  put: { args: { session: string; entry: ContentEntry }; result: null }
  /** Reads a session's log file and indexes its text; `found: false` when the file is gone (the session is forgotten). */
  read: { args: { session: string; path: string; revision: string }; result: { found: boolean; title: string | undefined } }
  forget: { args: { session: string }; result: null }
  /** Sessions whose text has every term; only `admitted` sessions, equally good ones newest first (by the creation time given). */
  search: { args: { terms: readonly QueryTerm[]; admitted: readonly (readonly [string, number])[]; limit: number }; result: readonly ContentHit[] }
  /** Writes the index file; the index takes changes again once it is written. */
  save: { args: { file: string }; result: { bytes: number } }
  /** Cancels a save under way; answered once it has settled and its temporary file is gone. */
  cancelSave: { args: Record<string, never>; result: null }
  /** A page of a cold session's conversation, read from its log (the `read_session` tool); `null` when the log is gone. */
  page: { args: { path: string; revision: string; from: number; maxChars: number }; result: ConversationPage | null }
  /** Removes temporary files stopped writers left, then replaces the index with the file's, when it can be used. */
  load: { args: { file: string }; result: { ok: true; entries: readonly (readonly [string, EntrySummary])[] } | { ok: false; reason: string } }
}

/** A call's name. */
export type WorkerCall = keyof WorkerCalls

/** One request. */
export interface WorkerRequest<K extends WorkerCall = WorkerCall> {
  readonly id: number
  readonly call: K
  readonly args: WorkerCalls[K]['args']
}

/** One answer. */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string }
