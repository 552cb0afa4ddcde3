/**
 * Which sessions a target session may reference: with `workspace`, only sessions whose cwd equals the
 * target's (plain string equality, the official ranking's "same cwd" group, so a session without a cwd
 * matches nothing); with `all`, every visible session.
 * @module @wishp3/dsh-sessions/host/sessions/scope
 */
import type { ReferenceScope } from '../../config.ts'
import type { CatalogedSession } from './catalog-entries.ts'

/** The session a message is sent in. */
export interface ReferenceTarget {
  readonly id: string
  /** Its working directory; `undefined` for a session without one. */
  readonly cwd: string | undefined
}

/** Whether a source session is inside the scope of a target. Returns true when the target may reference the source. */
export function isInScope(scope: ReferenceScope, target: ReferenceTarget, source: { id: string; cwd?: string | undefined }): boolean {
  if (source.id === target.id) return false
  return scope === 'all' || rankGroup(source.cwd, target.cwd) === 0
}

/** The official ranking group: same cwd first, then no cwd, then other cwds. rc.8 keeps this ranking private inside `listCandidates()`, so it is restated here; `tests/host/routes.spec.ts` compares the candidates route with the official call for every query and fails when the official order changes. */
export function rankGroup(cwd: string | undefined, targetCwd: string | undefined): 0 | 1 | 2 {
  if (cwd !== undefined && cwd === targetCwd) return 0
  return cwd === undefined ? 1 : 2
}

/** The in-scope sessions a target may reference, in ranking order. */
export function rankedInScope(sessions: readonly CatalogedSession[], target: ReferenceTarget, scope: ReferenceScope): CatalogedSession[] {
  const groups: [CatalogedSession[], CatalogedSession[], CatalogedSession[]] = [[], [], []]
  for (const session of sessions) {
    if (isInScope(scope, target, session)) groups[rankGroup(session.cwd, target.cwd)].push(session)
  }
  return groups.flat()
}
