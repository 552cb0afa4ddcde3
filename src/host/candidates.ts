/**
 * Reference candidates: the official `listCandidates()` ranking (same
 * cwd, then no cwd, then other cwds; newest first within a group;
 * case-insensitive substring match on id, cwd or label), restricted to the
 * configured scope and served from the session index.
 * @module @wishp3/dsh-sessions/host/candidates
 */
import { formatSessionReferenceMention } from '@deepseek-ai/dsh-session-reference'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { Config } from '../config.ts'
import type { Candidate } from '../shared/wire.ts'
import { isInScope, rankGroup, type ReferenceTarget } from './scope.ts'
import type { IndexedSession, SessionIndex } from './session-index.ts'

/**
 * The in-scope sessions a target may reference, in ranking order.
 * @param index - the session index.
 * @param target - the citing session.
 * @param config - the effective configuration.
 * @returns every in-scope session, best first.
 */
export function rankedInScope(index: SessionIndex, target: ReferenceTarget, config: Pick<Config, 'scope'>): IndexedSession[] {
  const groups: [IndexedSession[], IndexedSession[], IndexedSession[]] = [[], [], []]
  for (const session of index.list()) {
    if (isInScope(config.scope, target, session)) groups[rankGroup(session.cwd, target.cwd)].push(session)
  }
  return groups.flat()
}

/**
 * Candidates for one `@` query.
 * @param index - the session index.
 * @param target - the citing session.
 * @param query - the text typed after `@`.
 * @param config - the effective configuration; `candidateLimit` caps the result.
 * @param limit - an optional smaller cap.
 * @returns at most the cap, best first.
 */
export function listCandidates(
  index: SessionIndex,
  target: ReferenceTarget,
  query: string,
  config: Pick<Config, 'scope' | 'candidateLimit'>,
  limit: number = config.candidateLimit,
): Candidate[] {
  const typed = query.toLocaleLowerCase()
  const cap = Math.min(limit, config.candidateLimit)
  const found: Candidate[] = []
  for (const session of rankedInScope(index, target, config)) {
    if (found.length >= cap) break
    if (typed !== '' && !session.matchKeys.some(key => key.includes(typed))) continue
    found.push({
      sessionId: session.id,
      label: session.label,
      ...(session.cwd === undefined ? {} : { cwd: session.cwd }),
      createdAt: session.createdAt,
      mention: formatSessionReferenceMention({ sessionId: SessionId(session.id), label: session.label }),
    })
  }
  return found
}
