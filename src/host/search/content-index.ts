/**
 * The full-text index of what was said in each session, one document per
 * session, kept by MiniSearch (BM25 ranking, prefix search over a radix
 * tree). Beside it, each session's text, title and log revision, for
 * excerpts and for telling later whether the log changed.
 *
 * A query matches a session when every one of its terms occurs somewhere in
 * the session's text (see `text.ts` for terms); the caller's filter decides
 * which sessions may match at all, before any excerpt is made.
 * @module @wishp3/dsh-sessions/host/search/content-index
 */
import MiniSearch, { type AsPlainObject, type Options } from 'minisearch'
import { plainObjectParts } from '../official/minisearch.ts'
import type { Snippet } from '../../shared/wire.ts'
import { originAt, type ConversationText, type MessageOrigin } from './conversation.ts'
import { snippetOf } from './snippet.ts'
import { indexTerms, type QueryTerm } from './text.ts'

/** What the index holds of one session. */
export interface ContentEntry extends ConversationText {
  /** Revision of the log the text was read from (`live:<seq>` for text taken from a live session); `undefined` when unknown. */
  readonly revision: string | undefined
}

/** One session found by its text. */
export interface ContentHit {
  readonly id: string
  readonly score: number
  readonly snippet: Snippet
  /** The log event of the message the excerpt is from, where the index knows it. */
  readonly origin?: MessageOrigin
}

/** What {@link ContentIndex.jsonParts} writes and {@link ContentIndex.fromJSON} takes. */
export interface ContentIndexData {
  readonly sessions: readonly (readonly [string, ContentEntry])[]
  readonly index: AsPlainObject
}

/** Sessions' texts written between two yields of {@link ContentIndex.jsonParts}. */
const SESSIONS_PER_PART = 100

interface Document {
  readonly id: string
  readonly text: string
}

/** Terms are made here, not by MiniSearch: index text through {@link indexTerms}; query terms arrive made. */
const OPTIONS: Options<Document> = {
  fields: ['text'],
  // Discarded documents are cleaned up by {@link ContentIndex.vacuum}, when the caller says, never in the middle of writing the file.
  autoVacuum: false,
  tokenize: text => indexTerms(text),
  processTerm: term => term,
  searchOptions: { tokenize: text => [text], processTerm: term => term },
}

/** The content index. */
export class ContentIndex {
  private readonly entries: Map<string, ContentEntry>
  private readonly search_: MiniSearch<Document>

  private constructor(entries: Map<string, ContentEntry>, search: MiniSearch<Document>) {
    this.entries = entries
    this.search_ = search
  }

  /** An empty index. */
  static empty(): ContentIndex {
    return new ContentIndex(new Map(), new MiniSearch<Document>(OPTIONS))
  }

  /**
   * An index restored from what {@link ContentIndex.jsonParts} wrote, without tokenizing again.
   * @param data - the saved index.
   * @returns the index; rejects when the data does not fit this version.
   */
  static async fromJSON(data: ContentIndexData): Promise<ContentIndex> {
    if (!Array.isArray(data.sessions) || typeof data.index !== 'object' || data.index === null) throw new TypeError('not a content index')
    const entries = new Map<string, ContentEntry>()
    for (const [id, entry] of data.sessions) {
      if (typeof id !== 'string' || typeof entry !== 'object' || entry === null || !Array.isArray(entry.messages)) throw new TypeError('not a content index entry')
      entries.set(id, entry)
    }
    const search = await MiniSearch.loadJSAsync<Document>(data.index, OPTIONS)
    if (search.documentCount !== [...entries.values()].filter(entry => entry.messages.length > 0).length) throw new TypeError('content index documents and sessions differ')
    return new ContentIndex(entries, search)
  }

  /**
   * What the index holds of a session.
   * @param id - a session id.
   * @returns the entry, or `undefined`.
   */
  get(id: string): ContentEntry | undefined {
    return this.entries.get(id)
  }

  /** Ids of every session the index holds. */
  ids(): string[] {
    return [...this.entries.keys()]
  }

  /**
   * Indexes a session's text, replacing what the index held of it.
   * @param id - the session.
   * @param entry - its text, title and revision.
   */
  set(id: string, entry: ContentEntry): void {
    if (this.search_.has(id)) this.search_.discard(id)
    this.entries.set(id, entry)
    if (entry.messages.length > 0) this.search_.add({ id, text: entry.messages.join('\n') })
  }

  /**
   * Forgets a session.
   * @param id - the session.
   * @returns whether the index held it.
   */
  delete(id: string): boolean {
    if (this.search_.has(id)) this.search_.discard(id)
    return this.entries.delete(id)
  }

  /**
   * Sessions whose text has every term, best match first; ties go to the
   * order `tieBreak` gives. Excerpts are made only for the sessions returned.
   * @param terms - the query's terms (see `queryTerms`).
   * @param admit - whether a session may be found at all.
   * @param limit - most sessions returned.
   * @param tieBreak - orders sessions of equal score.
   * @returns the hits.
   */
  search(terms: readonly QueryTerm[], admit: (id: string) => boolean, limit: number, tieBreak: (a: string, b: string) => number): ContentHit[] {
    if (terms.length === 0 || limit <= 0) return []
    const results = this.search_.search(
      { combineWith: 'AND', queries: terms.map(({ term, prefix }) => ({ queries: [term], prefix })) },
      { filter: result => admit(result.id as string) },
    )
    results.sort((a, b) => b.score - a.score || tieBreak(a.id as string, b.id as string))
    const hits: ContentHit[] = []
    for (const result of results) {
      if (hits.length >= limit) break
      const entry = this.entries.get(result.id as string)
      const snippet = entry === undefined ? undefined : snippetOf(entry.messages, terms)
      const origin = snippet?.message === undefined || entry === undefined ? undefined : originAt(entry, snippet.message - 1)
      if (snippet !== undefined) hits.push({ id: result.id as string, score: result.score, snippet, ...(origin === undefined ? {} : { origin }) })
    }
    return hits
  }

  /** Cleans discarded sessions out of the term index. */
  async vacuum(): Promise<void> {
    if (this.search_.dirtCount > 0) await this.search_.vacuum()
  }

  /**
   * The index as JSON text, in pieces: the sessions' texts, then
   * MiniSearch's own serialized form in pieces (see `official/minisearch.ts`),
   * so the caller can write and rest between them. The index must not change
   * while the pieces are taken.
   * @yields consecutive pieces of one JSON object `{ sessions, index }`.
   */
  *jsonParts(): Generator<string> {
    const sessions = [...this.entries]
    for (let at = 0; at < sessions.length || at === 0; at += SESSIONS_PER_PART) {
      const slice = JSON.stringify(sessions.slice(at, at + SESSIONS_PER_PART)).slice(1, -1)
      yield `${at === 0 ? '{"sessions":[' : ','}${slice}`
    }
    yield '],"index":'
    yield* plainObjectParts(this.search_)
    yield '}'
  }
}
