/**
 * Registers the copy actions: the toast outlet (removed with the row), the
 * mention lookup over the candidates route, and the two buttons in the
 * session header's action row (`conversation.session.header.actions`). The
 * same actions serve the session row menu.
 * @module @wishp3/dsh-sessions/client/copy/register
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import { SessionId } from '@deepseek-ai/dsh-session/types'
import { createSessionsApi } from '../api.ts'
import type { HeaderCopyActionsInjected } from '../contract.ts'
import { NS, type SessionsKey } from '../locales.ts'
import { type CopyActions, createCopyActions } from './actions.ts'
import { HeaderCopyActions } from './HeaderCopyActions.tsx'
import { createReferenceLookup } from './reference.ts'
import { createToastOutlet } from './toast.tsx'

/** Header order: after the host's own session context and actions. */
const HEADER_ORDER = 40

/**
 * Registers the header buttons on the row's fiber.
 * @param ctx - the browser row's context.
 * @param t - the plugin's locale lookup.
 * @returns the actions, for the session row menu.
 */
export function registerCopyActions(ctx: ClientContext, t: (key: SessionsKey) => string): CopyActions {
  const outlet = createToastOutlet()
  ctx.effect(() => () => { outlet.dispose() }, 'dsh-sessions: copy toasts')
  const actions = createCopyActions({
    lookup: createReferenceLookup({
      api: createSessionsApi((input, init) => fetch(input, init)),
      cwdOf: sessionId => ctx.sessions.list.getSnapshot().byId[SessionId(sessionId)]?.cwd,
    }),
    show: outlet.show,
    t,
  })
  ctx.effect(() => ctx.slots.inject('conversation.session.header.actions', () => ctx.slots.register({
    name: 'conversation.session.header.actions',
    id: 'dsh-sessions-copy',
    order: HEADER_ORDER,
    locale: NS,
    inject: (): HeaderCopyActionsInjected => ({
      copyId: (sessionId, anchor) => { actions.copyId(sessionId, anchor, 'below') },
      copyReference: (sessionId, anchor) => { actions.copyReference(sessionId, anchor, 'below') },
      prefetch: sessionId => { actions.prefetch(sessionId) },
    }),
  }, HeaderCopyActions)), 'dsh-sessions: header copy actions')
  return actions
}
