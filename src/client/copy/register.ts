/**
 * The copy feature.
 * @module @wishp3/dsh-sessions/client/copy/register
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import { mountWorkspaceBrowser } from '../../workspace-browser/mount.ts'
import type { SessionsApi } from '../api.ts'
import type { HeaderCopyActionsInjected, MessageReferenceActionInjected } from '../contract.ts'
import { NS, type SessionsLookup } from '../locales.ts'
import { createCopyActions } from './actions.ts'
import { HeaderCopyActions } from './HeaderCopyActions.tsx'
import { createMessageReferenceLookup } from './message-reference-lookup.ts'
import { MessageReferenceAction } from './MessageReferenceAction.tsx'
import { decorateUserMessages } from './user-message-actions.tsx'
import { createReferenceLookup } from './session-mention-lookup.ts'
import { createSidebar } from '../sidebar/sidebar.ts'
import type { MarkedText } from '../core/snippet.ts'
import { createRowMenu } from './row-menu.tsx'
import { createToastOutlet } from './toast.tsx'

/** Header order: after the host's own session context and actions. */
const HEADER_ORDER = 40

/** Order among a reply's actions: after the host's own. */
const MESSAGE_ACTION_ORDER = 40

/** What the browser entry gives the feature. */
export interface CopyConfig {
  /** The plugin's routes. */
  readonly api: SessionsApi
  readonly t: SessionsLookup
  /** The text a search result shows for an excerpt, its matches highlighted or marked. */
  readonly excerpt: (snippet: MarkedText) => string
}

/** The copy feature, a child plugin of the browser half. */
export const copyFeature = {
  name: 'dsh-sessions-copy',
  inject: ['slots', 'sessions'],
  apply: registerCopyActions,
}

/** Registers the header buttons and mounts the workspace browser with the row-menu items, on the feature's fiber. */
function registerCopyActions(ctx: ClientContext, { api, t, excerpt }: CopyConfig): void {
  const outlet = createToastOutlet()
  ctx.effect(() => () => { outlet.dispose() }, 'dsh-sessions: copy toasts')
  const actions = createCopyActions({
    lookup: createReferenceLookup({
      api,
    }),
    messages: createMessageReferenceLookup(api),
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
  ctx.effect(() => ctx.slots.inject('conversation.chat.assistant-actions', () => ctx.slots.register({
    name: 'conversation.chat.assistant-actions',
    id: 'dsh-sessions-message-reference',
    order: MESSAGE_ACTION_ORDER,
    locale: NS,
    inject: (sessionId): MessageReferenceActionInjected => ({
      copy: (messageId, anchor) => { actions.copyMessageReference(sessionId, { messageId }, { anchor, side: 'below' }) },
      prefetch: messageId => { actions.prefetchMessage(sessionId, { messageId }) },
    }),
  }, MessageReferenceAction)), 'dsh-sessions: copy message reference')
  // Contained: a shell without what the user rows are followed by costs this button alone.
  ctx.effect(() => {
    try {
      return decorateUserMessages({ sessions: ctx.sessions, actions, t })
    } catch (error) {
      console.warn('dsh-sessions: user messages have no Copy message reference here', error)
      return () => {}
    }
  }, 'dsh-sessions: copy message reference on user messages')
  mountWorkspaceBrowser(ctx, { rowMenu: createRowMenu(t, actions), sidebar: createSidebar(ctx.sessions, api, { t, excerpt }) })
}
