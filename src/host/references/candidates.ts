/**
 * Reference candidates: the sessions of the scope that an `@` query finds, each with its canonical
 * mention, and for a match of what was said an excerpt. The scope is applied before anything is
 * matched, so no excerpt of a session outside it is ever made. A draft the page holds open with no
 * message yet has nothing to reference and is left out, as is the citing session itself.
 * @module @wishp3/dsh-sessions/host/references/candidates
 */
import { basename } from 'node:path'
import { formatSessionReferenceMention } from '@deepseek-ai/dsh-session-reference'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { Config } from '../../config.ts'
import type { ContentSearch } from '../search/content-search.ts'
import { filteredScope } from '../search/filtered-scope.ts'
import { parseQuery, passes } from '../search/text/query-grammar.ts'
import { titledIn, titleWords } from '../search/sidebar-search.ts'
import { queryTerms } from '../search/text/terms.ts'
import type { Candidate, Snippet } from '../../shared/wire.ts'
import type { ReferenceTarget } from '../sessions/scope.ts'
import { scopeViewsOf } from '../sessions/scope-views.ts'
import type { CatalogedSession, SessionCatalog } from '../sessions/session-catalog.ts'

/** The canonical mention of a session, labelled as the `@` menu labels it. */
export function mentionOf(session: CatalogedSession): string {
  return formatSessionReferenceMention({ sessionId: SessionId(session.id), label: session.label })
}

function candidate(session: CatalogedSession, target: ReferenceTarget, snippet?: Snippet): Candidate {
  const elsewhere = session.cwd !== undefined && session.cwd !== target.cwd
  return {
    sessionId: session.id,
    label: session.label,
    ...(session.cwd === undefined ? {} : { cwd: session.cwd }),
    createdAt: session.createdAt,
    mention: mentionOf(session),
    ...(snippet === undefined ? {} : { snippet }),
    ...(elsewhere ? { workspace: basename(session.cwd) } : {}),
  }
}

/** Where candidates come from: the session catalog, and the content search (without it only titles, ids and cwds match). */
export interface CandidateSources {
  readonly catalog: SessionCatalog
  readonly content?: ContentSearch | undefined
}

/** One `@` query: the text typed after `@` (or inside `@"…"`) in `target`'s draft, under a scope; `candidateLimit` (the setting) caps `limit`. */
export interface CandidateQuery {
  readonly target: ReferenceTarget
  readonly query: string
  readonly scope: Config['scope']
  readonly candidateLimit: number
  readonly limit?: number
  /** Rank what was said by the words held alone, each by its rarity, a session holding every word first only as far as its words weigh (a draft's many words; see `RankedQuery.mostWords`). */
  readonly mostWords?: boolean
}

/**
 * Candidates for one `@` query, in one ranking with the sidebar's and `search_sessions`': the sessions
 * the official `listCandidates()` would find (case-insensitive substring of id, cwd or label), in its
 * order; then sessions whose title holds every word; then the content search's ranking (every word,
 * then other forms, then partial matches that name what they lack). A query's filters (see
 * `query-grammar.ts`) narrow every tier; with `from:` only what was said matches.
 */
export async function listCandidates(from: CandidateSources, asked: CandidateQuery): Promise<Candidate[]> {
  return (await rankedCandidates(from, asked)).map(({ candidate }) => candidate)
}

/** A candidate, with its score in the content ranking where what was said found it (see `ContentHit.score`). */
export interface RankedCandidate {
  readonly candidate: Candidate
  readonly score?: number
}

/** The candidates of {@link listCandidates}, in its order, each with its score where the content ranking found it. */
export async function rankedCandidates(from: CandidateSources, asked: CandidateQuery): Promise<RankedCandidate[]> {
  const { catalog, content } = from
  const { target, query } = asked
  const limit = asked.limit ?? asked.candidateLimit
  const { text, filters } = parseQuery(query)
  const typed = text.toLocaleLowerCase()
  const cap = Math.min(limit, asked.candidateLimit)
  const found: RankedCandidate[] = []
  const taken = new Set<string>()
  const take = (session: CatalogedSession, hit?: { readonly snippet: Snippet; readonly score: number }): void => {
    found.push(hit === undefined ? { candidate: candidate(session, target) } : { candidate: candidate(session, target, hit.snippet), score: hit.score })
    taken.add(session.id)
  }
  const admissible = (session: CatalogedSession): boolean => session.id !== target.id && !taken.has(session.id) && !catalog.isEmptyDraft(session.id) && passes(filters, session)
  // The scope's sessions and their title matches are kept while the listing stays the same (see `scope-views.ts`).
  const view = scopeViewsOf(catalog).of(asked.scope, target.cwd)
  if (filters.from === undefined) {
    for (const session of typed === '' ? view.ranked : view.matching(typed)) {
      if (found.length >= cap) break
      if (admissible(session)) take(session)
    }
    const words = titleWords(text)
    if (words.length > 1) {
      for (const session of view.inOrder(titledIn(catalog.list(), words))) {
        if (found.length >= cap) break
        if (admissible(session)) take(session)
      }
    }
  }
  if (content === undefined || found.length >= cap || typed === '') return found
  const terms = queryTerms(text)
  if (terms.length === 0) return found
  const scope = filteredScope(view.set, view.ranked, filters)
  for (const hit of await content.search(terms, { admit: { key: scope.key, sessions: scope.ids, except: [target.id, ...taken] }, limit: cap - found.length, role: filters.from, mostWords: asked.mostWords })) {
    const session = catalog.get(hit.id)
    if (session !== undefined) take(session, hit)
  }
  return found
}
