/**
 * The find-in-session feature: the header's find button, the page's one find bar, the shortcut that
 * opens it on the session on screen (Ctrl+Shift+F, or Cmd+Shift+F; the browser's own Ctrl/Cmd+F is left
 * alone), and each step's opening of the conversation at its message, the match highlighted.
 * @module @wishp3/dsh-sessions/client/find/register
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import type { SessionsApi } from '../api.ts'
import type { FindButtonInjected } from '../contract.ts'
import { NS, type SessionsLookup } from '../locales.ts'
import { openAtMessage } from '../navigation/open-at-message.ts'
import { clearFound, highlightFound } from '../official/find-highlight.ts'
import { shownFindButton } from '../official/markup.ts'
import { listenOnPage } from '../official/page-writes.ts'
import { createFindOutlet } from './find-outlet.tsx'
import { FindButton } from './FindButton.tsx'

/** Header order: before the copy buttons. */
const HEADER_ORDER = 35

/** What the browser entry gives the feature. */
export interface FindConfig {
  readonly api: SessionsApi
  readonly t: SessionsLookup
}

/** The feature, a child plugin of the browser half. */
export const findFeature = {
  name: 'dsh-sessions-find',
  inject: ['slots', 'sessions'],
  apply: registerFind,
}

/** Whether a key press is the shortcut: Ctrl or Cmd, with Shift, and F. */
function isShortcut(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.code === 'KeyF'
}

function registerFind(ctx: ClientContext, { api, t }: FindConfig): void {
  const outlet = createFindOutlet({
    t,
    find: (asked, signal) => api.find(asked, signal),
    show: (sessionId, match) => {
      clearFound(document)
      if (match.seq === undefined) return
      const words = match.snippet.marks.map(([start, end]) => match.snippet.text.slice(start, end))
      void openAtMessage(ctx.sessions, { sessionId, seq: match.seq }, { shown: row => { highlightFound(row, words) } })
    },
    closed: () => { clearFound(document) },
  })
  ctx.effect(() => () => {
    outlet.dispose()
    if (typeof document !== 'undefined') clearFound(document)
  }, 'dsh-sessions: find bar')
  const face: FindButtonInjected = { toggle: (sessionId, anchor) => { outlet.toggle(sessionId, anchor) } }
  ctx.effect(() => ctx.slots.inject('conversation.session.header.actions', () => ctx.slots.register({
    name: 'conversation.session.header.actions',
    id: 'dsh-sessions-find',
    order: HEADER_ORDER,
    locale: NS,
    inject: (): FindButtonInjected => face,
  }, FindButton)), 'dsh-sessions: find in session')
  // Contained: a page where the shortcut or the current session cannot be followed keeps the button.
  ctx.effect(() => {
    try {
      const offKeys = listenOnPage('keydown', event => {
        const current = ctx.sessions.list.getSnapshot().current
        if (!isShortcut(event) || current === undefined) return
        event.preventDefault()
        outlet.open(current, shownFindButton() ?? null)
      })
      // The bar belongs to the session it was opened on: showing another closes it.
      const offList = ctx.sessions.list.subscribe(() => {
        const open = outlet.current()
        if (open !== undefined && ctx.sessions.list.getSnapshot().current !== open) outlet.close()
      })
      return () => {
        offKeys()
        offList()
      }
    } catch (error) {
      console.warn('dsh-sessions: find in session has no shortcut here', error)
      return () => {}
    }
  }, 'dsh-sessions: find shortcut')
}
