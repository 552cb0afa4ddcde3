/**
 * What a content search reads of the index, and what it gives: the hits, each with its excerpt.
 * @module @wishp3/dsh-sessions/host/search/worker/searched-index
 */
import type { StatementSync } from 'node:sqlite'
import type { Snippet } from '../../../shared/wire.ts'
import type { MessageRole } from '../../official/conversation.ts'
import type { Forms } from '../text/form-expansion.ts'
import type { Vocabulary } from './prefix-expansion.ts'
import type { StoredPiece } from '../text/stored-text.ts'
import { SEGMENT_SPAN } from './index-file.ts'
import type { ContentHit } from '../worker-protocol.ts'
import type { Expansions, Run } from '../text/match-expression.ts'
import type { QueryTerm } from '../text/terms.ts'

/** One session found by its text. */
/** The SQL that keeps a query to the admitted sessions' segment rows, and its parameter. */
export interface Scope {
  readonly within: string
  readonly only: string | undefined
}

/** A hit's excerpt of the message at `index` (from 0), with its origin where known. */
export function excerptAt(snippet: Snippet, index: number, origin: StoredPiece[1][number] | undefined): Pick<ContentHit, 'snippet' | 'origin'> {
  return { snippet: { ...snippet, message: index + 1 }, ...(origin === null || origin === undefined || origin[0] < 0 ? {} : { origin: { seq: origin[0], time: origin[1], role: origin[2] } }) }
}

/** The only sessions whose rows a query reads: their ids, or a temporary table of their session numbers (see `held-scopes.ts`). */
export type AdmittedRows = readonly string[] | { readonly table: string }

/** What a search reads of the index. */
export interface SearchedIndex {
  /** A prepared statement, kept for the next query. */
  statement(sql: string): StatementSync
  idOf(no: number): string | undefined
  noOf(id: string): number | undefined
  /** Sessions the file holds. */
  size(): number
  /** A stored piece of text by its row. */
  readonly texts: StatementSync
  /** The pieces of a session's rows that `places` says match. */
  readonly placesOf: StatementSync
  /** Sessions of more than one segment. */
  readonly split: StatementSync
  /** Of the given sessions, those written without `places` (their few pieces are unpacked in order). */
  unplaced(nos: readonly number[]): ReadonlySet<number>
  /** The index's terms by prefix, for prefixes asked as their terms (see `prefix-expansion.ts`). */
  readonly vocabulary: Vocabulary
  /** The index's words that have a stem (see `word-forms.ts`). */
  readonly forms: Forms
  /** The mean length of a segment in distinct terms (at least 1), for BM25's length normalisation; it may be a minute old. */
  meanSize(): number
  /** The segments' lengths in distinct terms as the file holds them now, for one query: by row, `undefined` for a row it lacks. */
  sizes(): (row: number) => number | undefined
}

/** Whether any segment of session `no` matches an FTS5 expression: one seek of the index (some 0.6 ms for a common word at 20,000 sessions). */
export function sessionHolds(file: Pick<SearchedIndex, 'statement'>, no: number, match: string): boolean {
  return file.statement('SELECT 1 AS hit FROM terms WHERE terms MATCH ? AND rowid >= ? AND rowid < ? LIMIT 1').get(match, no * SEGMENT_SPAN, (no + 1) * SEGMENT_SPAN) !== undefined
}

/** How a query ranks: which sessions may be found (`admit`), the most it returns, the order of ties, the only sessions whose rows are read at all (`admitted`, when given), and the side whose words count (`role`, a query's `from:`). */
export interface RankedQuery {
  readonly admit: (id: string) => boolean
  readonly limit: number
  readonly tieBreak: (a: string, b: string) => number
  readonly admitted?: AdmittedRows | undefined
  readonly role?: MessageRole | undefined
  /** Rank by the words held alone, each by its rarity (the partial tier), a session holding every word first only as far as its words weigh: for a long text of many words, such as a draft. */
  readonly mostWords?: boolean | undefined
}

/** What a query's excerpts are cut for: its terms, their expansions, its runs and the most hits. */
export interface ExcerptQuery {
  readonly terms: readonly QueryTerm[]
  readonly expansions: Expansions
  readonly runs: readonly Run[]
  readonly limit: number
}
