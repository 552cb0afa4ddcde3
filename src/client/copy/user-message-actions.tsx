/**
 * "Copy message reference" beside a user message's own actions. rc.8 has no
 * slot for user-message actions (its assistant replies have one) and does
 * not export the bubble's parts, so this follows the current session's chat
 * rows: each row of a user message (a chat node of kind `user`, whose data
 * carries the message's log seq) gets the same button as a reply, rendered
 * in a React root of its own at the end of the row's action bar (the last
 * child of the row's `data-time-hover-root` element, next to the host's copy
 * button). A root whose row is gone is unmounted on the next pass.
 * @module @wishp3/dsh-sessions/client/copy/user-message-actions
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import { createRoot, type Root } from 'react-dom/client'
import type { ReadNode } from '../core/sent-reference.ts'
import type { SessionsLookup } from '../locales.ts'
import type { CopyActions } from './actions.ts'
import { MessageReferenceAction } from './MessageReferenceAction.tsx'

/** What the decoration uses. */
export interface UserMessageActionsDeps {
  readonly sessions: ClientContext['sessions']
  readonly actions: Pick<CopyActions, 'copyMessageReference' | 'prefetchMessage'>
  readonly t: SessionsLookup
}

const MOUNT_ATTR = 'data-dsh-sessions-user-action'

/** Milliseconds the page is let settle before rows are decorated again. */
const SETTLE_MS = 120

function userSeqs(nodes: Iterable<ReadNode>): Map<string, number> {
  const found = new Map<string, number>()
  for (const node of nodes) {
    if (node.kind !== 'user') continue
    const data = node.data as { seq?: unknown } | null
    if (typeof data?.seq === 'number' && Number.isSafeInteger(data.seq)) found.set(node.key, data.seq)
  }
  return found
}

/**
 * Adds the button to the user messages of the session on screen until disposed.
 * @param deps - the sessions service, the copy actions and the locale.
 * @returns the disposer.
 */
export function decorateUserMessages(deps: UserMessageActionsDeps): () => void {
  const roots = new Map<HTMLElement, Root>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const schedule = () => {
    if (timer !== undefined) return
    timer = setTimeout(() => {
      timer = undefined
      decorate()
    }, SETTLE_MS)
  }
  function decorate(): void {
    for (const [container, root] of roots) {
      if (container.isConnected) continue
      root.unmount()
      roots.delete(container)
    }
    const sessionId = deps.sessions.list.getSnapshot().current
    const snapshot = sessionId === undefined ? undefined : deps.sessions.binding(sessionId)?.session.getSnapshot()
    if (sessionId === undefined || snapshot === undefined) return
    for (const [key, seq] of userSeqs(snapshot.chat.nodes.values() as Iterable<ReadNode>)) {
      for (const row of document.querySelectorAll<HTMLElement>(`[data-chat-anchor-key="${CSS.escape(key)}"]`)) {
        const bar = row.querySelector<HTMLElement>('[data-time-hover-root]')?.lastElementChild
        if (!(bar instanceof HTMLElement) || bar.querySelector('button') === null) continue
        const mounted = bar.querySelector<HTMLElement>(`[${MOUNT_ATTR}]`)
        if (mounted !== null && mounted.getAttribute(MOUNT_ATTR) === `${sessionId} ${seq}`) continue
        mounted?.remove()
        const container = document.createElement('span')
        container.setAttribute(MOUNT_ATTR, `${sessionId} ${seq}`)
        container.style.display = 'contents'
        bar.append(container)
        const root = createRoot(container)
        roots.set(container, root)
        root.render(
          <MessageReferenceAction
            messageId={String(seq)}
            t={deps.t}
            copy={(_, anchor) => { deps.actions.copyMessageReference(sessionId, { seq }, anchor, 'below') }}
            prefetch={() => { deps.actions.prefetchMessage(sessionId, { seq }) }}
          />,
        )
      }
    }
  }
  const observer = new MutationObserver(schedule)
  observer.observe(document.body, { childList: true, subtree: true })
  const offList = deps.sessions.list.subscribe(schedule)
  schedule()
  return () => {
    observer.disconnect()
    offList()
    clearTimeout(timer)
    for (const root of roots.values()) root.unmount()
    roots.clear()
  }
}
