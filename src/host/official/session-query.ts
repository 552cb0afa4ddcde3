/**
 * The one reach into the official `sessionQuery` instance: its
 * `searchSessions` method replaced by an own property of the instance, and
 * the property deleted again, which brings the class's method back. rc.8
 * lets a service have one provider, and its web profile mounts the official
 * one with search off; the host's `session.search` calls this method on that
 * instance. `tests/host/host-search.spec.ts` runs the replacement on the
 * official class and fails when the method stops being looked up on the
 * instance.
 * @module @wishp3/dsh-sessions/host/official/session-query
 */
import type { SessionQueryEngine } from '@deepseek-ai/dsh-session-query'

/** The method replaced. */
export type SearchSessions = SessionQueryEngine['searchSessions']

/**
 * Replaces the instance's `searchSessions`.
 * @param engine - the official instance.
 * @param replace - builds the replacement from the official method (bound to the instance).
 * @returns the call that restores what the instance had.
 */
export function replaceSearchSessions(engine: SessionQueryEngine, replace: (official: SearchSessions) => SearchSessions): () => void {
  const target: { searchSessions: SearchSessions } = engine
  const own = Object.getOwnPropertyDescriptor(target, 'searchSessions')
  const official: SearchSessions = target.searchSessions.bind(engine)
  target.searchSessions = replace(official)
  return () => {
    if (own === undefined) Reflect.deleteProperty(target, 'searchSessions')
    else Object.defineProperty(target, 'searchSessions', own)
  }
}
