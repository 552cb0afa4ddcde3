/**
 * Reference candidates: first the sessions the official `listCandidates()` would find
 * (case-insensitive substring match on id, cwd or label), in its ranking (same cwd, then no cwd, then
 * other cwds.
 * @module @wishp3/dsh-sessions/host/references/candidates
 */
import { basename } from 'node:path'
import { formatSessionReferenceMention } from '@deepseek-ai/dsh-session-reference'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { Config } from '../../config.ts'
import type { ContentSearch } from '../search/content-search.ts'
import { queryTerms } from '../search/terms.ts'
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

/** Candidates for one `@` query. `query`: the text typed after `@` (or inside `@"…"`). `config`: the effective configuration; `candidateLimit` caps the result. `content`: the content search; without it only titles, ids and cwds match. */
export async function listCandidates(
  catalog: SessionCatalog,
  target: ReferenceTarget,
  query: string,
  config: Pick<Config, 'scope' | 'candidateLimit'>,
  limit: number = config.candidateLimit,
  content?: ContentSearch,
): Promise<Candidate[]> {
  const typed = query.toLocaleLowerCase()
  const cap = Math.min(limit, config.candidateLimit)
  const found: Candidate[] = []
  // The scope's sessions and their title matches are kept while the listing stays the same (see `scope-views.ts`).
  const view = scopeViewsOf(catalog).of(config.scope, target.cwd)
  for (const session of typed === '' ? view.ranked : view.matching(typed)) {
    if (found.length >= cap) break
    if (session.id === target.id || catalog.isEmptyDraft(session.id)) continue
    found.push(candidate(session, target))
  }
  if (content === undefined || found.length >= cap || typed === '') return found
  const terms = queryTerms(query)
  if (terms.length === 0) return found
  const except = [target.id, ...found.map(({ sessionId }) => sessionId)]
  for (const hit of await content.search(terms, { key: view.set.key, sessions: view.set.ids, except }, cap - found.length)) {
    const session = catalog.get(hit.id)
    if (session !== undefined) found.push(candidate(session, target, hit.snippet))
  }
  return found
}
