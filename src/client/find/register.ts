/**
 * The find-in-session feature: the header's find button and bar, the shortcut that opens it
 * (Ctrl+Shift+F, or Cmd+Shift+F; the browser's own Ctrl/Cmd+F is left alone), and each step's
 * opening of the conversation at its message, the match highlighted.
 * @module @wishp3/dsh-sessions/client/find/register
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import type { SessionsApi } from '../api.ts'
import type { SessionFindInjected } from '../contract.ts'
import { NS } from '../locales.ts'
import { openAtMessage } from '../navigation/open-at-message.ts'
import { clearFound, highlightFound } from '../official/find-highlight.ts'
import { listenOnPage } from '../official/page-writes.ts'
import { SessionFind } from './SessionFind.tsx'

/** Header order: before the copy buttons. */
const HEADER_ORDER = 35

/** What the browser entry gives the feature. */
export interface FindConfig {
  readonly api: SessionsApi
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

/** The words a match's excerpt marks. */
function markedWords(text: string, marks: readonly (readonly [number, number])[]): string[] {
  return marks.map(([start, end]) => text.slice(start, end))
}

function registerFind(ctx: ClientContext, { api }: FindConfig): void {
  const openers = new Set<() => void>()
  ctx.effect(() => listenOnPage('keydown', event => {
    if (!isShortcut(event) || openers.size === 0) return
    event.preventDefault()
    for (const open of openers) open()
  }), 'dsh-sessions: find shortcut')
  ctx.effect(() => () => { clearFound(document) }, 'dsh-sessions: find highlight')
  const face: SessionFindInjected = {
    find: (sessionId, query, after, signal) => api.find(sessionId, query, after, signal),
    show: (sessionId, match) => {
      clearFound(document)
      if (match.seq === undefined) return
      const words = markedWords(match.snippet.text, match.snippet.marks)
      void openAtMessage(ctx.sessions, sessionId, match.seq, { shown: row => { highlightFound(row, words) } })
    },
    clear: () => { clearFound(document) },
    onShortcut: open => {
      openers.add(open)
      return () => { openers.delete(open) }
    },
  }
  ctx.effect(() => ctx.slots.inject('conversation.session.header.actions', () => ctx.slots.register({
    name: 'conversation.session.header.actions',
    id: 'dsh-sessions-find',
    order: HEADER_ORDER,
    locale: NS,
    inject: (): SessionFindInjected => face,
  }, SessionFind)), 'dsh-sessions: find in session')
}
