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
import type { Snippet } from '../../shared/wire.ts'
import type { ConversationText } from './conversation.ts'
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
}

/** What {@link ContentIndex.jsonParts} writes and {@link ContentIndex.fromJSON} takes. */
export interface ContentIndexData {
  readonly sessions: readonly (readonly [string, ContentEntry])[]
  readonly index: AsPlainObject
}

/** The MiniSearch fields its own `toJSON` reads; see {@link ContentIndex.jsonParts}. */
interface MiniSearchState {
  readonly _documentCount: number
  readonly _nextId: number
  readonly _documentIds: Map<number, unknown>
  readonly _fieldIds: Record<string, number>
  readonly _fieldLength: Map<number, number[]>
  readonly _avgFieldLength: number[]
  readonly _storedFields: Map<number, unknown>
  readonly _dirtCount: number
  readonly _index: Iterable<[string, Map<number, Map<number, number>>]>
}

/** Index terms written between two yields of {@link ContentIndex.jsonParts}. */
const TERMS_PER_PART = 2_000

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
      if (snippet !== undefined) hits.push({ id: result.id as string, score: result.score, snippet })
    }
    return hits
  }

  /** Cleans discarded sessions out of the term index. */
  async vacuum(): Promise<void> {
    if (this.search_.dirtCount > 0) await this.search_.vacuum()
  }

  /**
   * The index as JSON text, in pieces: the sessions' texts, then
   * MiniSearch's own serialized form (`AsPlainObject`, which
   * `MiniSearch.loadJS` reads), written from the same fields its `toJSON`
   * reads. `toJSON` builds the whole object at once, and at 2,000 sessions
   * that takes seconds and hundreds of megabytes; this yields a piece every
   * {@link TERMS_PER_PART} terms so the caller can write and rest between
   * them. The index must not change while the pieces are taken.
   * `tests/host/content-search.spec.ts` holds the result equal to `toJSON`.
   * @yields consecutive pieces of one JSON object `{ sessions, index }`.
   */
  *jsonParts(): Generator<string> {
    const state = stateOf(this.search_)
    const sessions = [...this.entries]
    for (let at = 0; at < sessions.length || at === 0; at += SESSIONS_PER_PART) {
      const slice = JSON.stringify(sessions.slice(at, at + SESSIONS_PER_PART)).slice(1, -1)
      yield `${at === 0 ? '{"sessions":[' : ','}${slice}`
    }
    yield '],"index":{'
    yield `"documentCount":${state._documentCount},"nextId":${state._nextId}`
    yield `,"documentIds":${JSON.stringify(Object.fromEntries(state._documentIds))},"fieldIds":${JSON.stringify(state._fieldIds)}`
    yield `,"fieldLength":${JSON.stringify(Object.fromEntries(state._fieldLength))},"averageFieldLength":${JSON.stringify(state._avgFieldLength)}`
    yield `,"storedFields":${JSON.stringify(Object.fromEntries(state._storedFields))},"dirtCount":${state._dirtCount},"index":[`
    let part = ''
    let count = 0
    for (const [term, fields] of state._index) {
      part += `${count === 0 ? '' : ','}[${JSON.stringify(term)},{`
      let firstField = true
      for (const [fieldId, frequencies] of fields) {
        part += `${firstField ? '' : ','}"${fieldId}":{`
        let firstDocument = true
        for (const [documentId, frequency] of frequencies) {
          part += `${firstDocument ? '' : ','}"${documentId}":${frequency}`
          firstDocument = false
        }
        part += '}'
        firstField = false
      }
      part += '}]'
      count += 1
      if (count % TERMS_PER_PART === 0) {
        yield part
        part = ''
      }
    }
    yield `${part}],"serializationVersion":2}}`
  }
}

function isState(search: object): search is MiniSearchState {
  return typeof Reflect.get(search, '_documentCount') === 'number' && Reflect.get(search, '_index') instanceof Object
    && Reflect.get(search, '_documentIds') instanceof Map && Reflect.get(search, '_fieldLength') instanceof Map && Reflect.get(search, '_storedFields') instanceof Map
}

function stateOf(search: object): MiniSearchState {
  if (!isState(search)) throw new TypeError('MiniSearch no longer keeps the fields its serialization reads')
  return search
}
