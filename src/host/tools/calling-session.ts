/**
 * Who calls a session tool, and which sessions it may see: exactly the sessions the `@` menu of the
 * calling session may reference under the current scope, never the calling session itself.
 * @module @wishp3/dsh-sessions/host/tools/calling-session
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { SessionId } from '@deepseek-ai/dsh-session'
import type { ReferenceScope } from '../../config.ts'
import { isSessionId } from '../references/session-ids.ts'
import type { CatalogedSession } from '../sessions/catalog-entries.ts'
import { isInScope, type ReferenceTarget } from '../sessions/scope.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'

/** The calling session as a reference target. Returns the target; `undefined` without an agent. */
export function callingTarget(ctx: Context, catalog: SessionCatalog, agent: Agent | undefined): ReferenceTarget | undefined {
  if (agent === undefined) return undefined
  const header = agent.session.header
  if (header.origin === 'subagent' && header.parentSession !== undefined) {
    const parent = ctx.sessions.get(header.parentSession)?.header ?? catalog.get(header.parentSession)
    if (parent !== undefined) return { id: agent.id, cwd: parent.cwd }
  }
  return { id: agent.id, cwd: header.cwd }
}

/** The session a tool argument names, when the caller may see it. Returns the session; `undefined` for every id the caller may not see, for whatever reason. */
export async function visibleSession(catalog: SessionCatalog, reader: { readonly target: ReferenceTarget; readonly scope: ReferenceScope }, id: string): Promise<CatalogedSession | undefined> {
  const { target, scope } = reader
  if (!isSessionId(id) || id === target.id) return undefined
  const session = await catalog.lookup(SessionId(id))
  return session !== undefined && isInScope(scope, target, session) ? session : undefined
}
