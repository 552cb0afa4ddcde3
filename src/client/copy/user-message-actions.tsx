/**
 * "Copy message reference" beside a user message's own actions.
 * @module @wishp3/dsh-sessions/client/copy/user-message-actions
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import { createRoot, type Root } from 'react-dom/client'
import type { ReadNode } from '../core/snapshot-sources.ts'
import type { SessionsLookup } from '../locales.ts'
import { type ChatView, followChatRows } from '../official/chat-rows.ts'
import { chatRowsByKey, markedWithin, messageActionBar } from '../official/markup.ts'
import { mountAtEnd } from '../official/page-writes.ts'
import type { CopyActions } from './actions.ts'
import { MessageReferenceAction } from './MessageReferenceAction.tsx'

/** What the decoration uses. */
export interface UserMessageActionsDeps {
  readonly sessions: ClientContext['sessions']
  readonly actions: Pick<CopyActions, 'copyMessageReference' | 'prefetchMessage'>
  readonly t: SessionsLookup
}

const MOUNT_ATTR = 'data-dsh-sessions-user-action'

function userSeqs(nodes: Iterable<ReadNode>): Map<string, number> {
  const found = new Map<string, number>()
  for (const node of nodes) {
    if (node.kind !== 'user') continue
    const data = node.data as { seq?: unknown } | null
    if (typeof data?.seq === 'number' && Number.isSafeInteger(data.seq)) found.set(node.key, data.seq)
  }
  return found
}

/** Adds the button to the user messages of the session on screen until disposed. `deps`: the sessions service, the copy actions and the locale. */
export function decorateUserMessages(deps: UserMessageActionsDeps): () => void {
  const roots = new Map<HTMLElement, Root>()
  function decorate({ sessionId, nodes }: ChatView): void {
    for (const [container, root] of roots) {
      if (container.isConnected) continue
      root.unmount()
      roots.delete(container)
    }
    if (sessionId === undefined || nodes === undefined) return
    // One pass over the page, not one per message: a long session draws thousands of rows.
    const rows = chatRowsByKey()
    for (const [key, seq] of userSeqs(nodes)) {
      for (const row of rows.get(key) ?? []) {
        const bar = messageActionBar(row)
        if (bar === undefined) continue
        const mounted = markedWithin(bar, MOUNT_ATTR)
        if (mounted !== null && mounted.getAttribute(MOUNT_ATTR) === `${sessionId} ${seq}`) continue
        mounted?.remove()
        const container = mountAtEnd(bar, MOUNT_ATTR, `${sessionId} ${seq}`)
        const root = createRoot(container)
        roots.set(container, root)
        root.render(
          <MessageReferenceAction
            messageId={String(seq)}
            t={deps.t}
            copy={(_, anchor) => { deps.actions.copyMessageReference(sessionId, { seq }, { anchor, side: 'below' }) }}
            prefetch={() => { deps.actions.prefetchMessage(sessionId, { seq }) }}
          />,
        )
      }
    }
  }
  const rows = followChatRows(deps.sessions, decorate)
  return () => {
    rows.dispose()
    for (const root of roots.values()) root.unmount()
    roots.clear()
  }
}
