/**
 * Follows the chat rows of the session on screen.
 * @module @wishp3/dsh-sessions/client/official/chat-rows
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type { ReadNode } from '../core/snapshot-sources.ts'

/** Milliseconds the page is let settle before a follower is called again. */
const SETTLE_MS = 120

export interface ChatView {
  /** The current session; `undefined` when none is. */
  readonly sessionId: string | undefined
  /** Its chat nodes, in the view's order; `undefined` while the session has no view. */
  readonly nodes: Iterable<ReadNode> | undefined
}

export interface ChatRowsFollower {
  /** Calls the follower again once the page has settled (calls made meanwhile are one). */
  schedule(): void
  dispose(): void
}

const onPageChange = new Set<() => void>()
let observer: MutationObserver | undefined

function watchPage(callback: () => void): () => void {
  onPageChange.add(callback)
  if (observer === undefined) {
    observer = new MutationObserver(() => { for (const call of [...onPageChange]) call() })
    observer.observe(document.body, { childList: true, subtree: true })
  }
  return () => {
    onPageChange.delete(callback)
    if (onPageChange.size > 0 || observer === undefined) return
    observer.disconnect()
    observer = undefined
  }
}

/** Calls `follow` with the current session's chat nodes until disposed. `follow`: what to do with the rows; may call the follower's `schedule` again. */
export function followChatRows(sessions: ClientContext['sessions'], follow: (view: ChatView) => void): ChatRowsFollower {
  let timer: ReturnType<typeof setTimeout> | undefined
  const schedule = () => {
    if (timer !== undefined) return
    timer = setTimeout(() => {
      timer = undefined
      const sessionId = sessions.list.getSnapshot().current
      const snapshot = sessionId === undefined ? undefined : sessions.binding(sessionId)?.session.getSnapshot()
      // The host's node union is read through the plugin's narrower view of a node.
      follow({ sessionId, nodes: snapshot?.chat.nodes.values() as Iterable<ReadNode> | undefined })
    }, SETTLE_MS)
  }
  const unwatch = watchPage(schedule)
  const offList = sessions.list.subscribe(schedule)
  schedule()
  return {
    schedule,
    dispose() {
      unwatch()
      offList()
      clearTimeout(timer)
    },
  }
}
