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

/** Where the index lives: on disk in SQLite, or in the worker's memory with a JSON file. */
export type IndexEngine = 'sqlite' | 'memory'

/** What the worker is started with. */
export interface WorkerStart {
  readonly engine: IndexEngine | undefined
}

/** How the index file was found when it was loaded. */
export type LoadReason = 'restored' | 'partial' | 'missing' | 'unreadable' | 'corrupt' | 'outdated'

/** Every call, by name: what it takes and what it answers. */
export interface WorkerCalls {
  /** Indexes a session's text as given (a live session's, from its events). */
  put: { args: { session: string; entry: ContentEntry }; result: null }
  /** Reads a session's log file and indexes its text; `found: false` when the file is gone (the session is forgotten). */
  read: { args: { session: string; path: string; revision: string }; result: { found: boolean; title: string | undefined } }
  forget: { args: { session: string }; result: null }
  /** Sessions whose text has every term; only `admitted` sessions, equally good ones newest first (by the creation time given). */
  search: { args: { terms: readonly QueryTerm[]; admitted: readonly (readonly [string, number])[]; limit: number }; result: readonly ContentHit[] }
  /** Writes the index file (`complete`: every listed session is indexed); with the memory engine, the index takes changes again once it is written. */
  save: { args: { file: string; complete: boolean }; result: { bytes: number } }
  /** Cancels a save under way; answered once it has settled and its temporary file is gone. */
  cancelSave: { args: Record<string, never>; result: null }
  /** A page of a cold session's conversation, read from its log (the `read_session` tool); `null` when the log is gone. */
  page: { args: { path: string; revision: string; from: number; maxChars: number }; result: ConversationPage | null }
  /** Opens the index file with the engine that can serve (see `index-keeper.ts`); `why`: why SQLite could not, when the memory engine serves instead. */
  load: { args: { file: string }; result: { engine: IndexEngine; entries: readonly (readonly [string, EntrySummary])[]; reason: LoadReason; bytes: number; why?: string } }
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
