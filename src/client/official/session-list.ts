/**
 * The page's list of sessions, asked again by rc.8's public `refresh()` (not in its type) if it can be.
 * @module @wishp3/dsh-sessions/client/official/session-list
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type { SessionList } from '../sidebar/search.ts'

export function sessionList(sessions: ClientContext['sessions']): SessionList {
  const refresh: unknown = Reflect.get(sessions, 'refresh')
  return {
    has: id => Object.hasOwn(sessions.list.getSnapshot().byId, id),
    refresh: () => {
      if (typeof refresh !== 'function') return
      const asked: unknown = Reflect.apply(refresh, sessions, [])
      void Promise.resolve(asked).catch(() => undefined)
    },
  }
}
