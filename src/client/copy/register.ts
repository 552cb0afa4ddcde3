/**
 * Registers the copy actions: the toast outlet (removed with the row), the
 * mention lookup over the candidates route, and the two buttons in the
 * session header's action row (`conversation.session.header.actions`). The
 * same actions serve the session row menu.
 * @module @wishp3/dsh-sessions/client/copy/register
 */
import type { ClientContext, ISessions } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import type { SessionId } from '@deepseek-ai/dsh-session'
import { createSessionsApi } from '../api.ts'
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
  const sessions = ctx.get('sessions') as unknown as ISessions
  const outlet = createToastOutlet()
  ctx.effect(() => () => { outlet.dispose() }, 'dsh-sessions: copy toasts')
  const actions = createCopyActions({
    lookup: createReferenceLookup({
      api: createSessionsApi((input, init) => fetch(input, init)),
      cwdOf: sessionId => sessions.list.getSnapshot().byId[sessionId as SessionId]?.cwd,
    }),
    show: outlet.show,
    t,
  })
  ctx.effect(() => ctx.slots.inject('conversation.session.header.actions', () => ctx.slots.register({
    name: 'conversation.session.header.actions',
    id: 'dsh-sessions-copy',
    order: HEADER_ORDER,
    locale: NS,
    inject: () => ({
      copyId: (sessionId: string, anchor: HTMLElement) => { actions.copyId(sessionId, anchor, 'below') },
      copyReference: (sessionId: string, anchor: HTMLElement) => { actions.copyReference(sessionId, anchor, 'below') },
      prefetch: (sessionId: string) => { actions.prefetch(sessionId) },
    }),
  } as never, HeaderCopyActions as never)), 'dsh-sessions: header copy actions')
  return actions
}
