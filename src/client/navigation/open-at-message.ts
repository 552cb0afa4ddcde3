/**
 * Opens a session at one message: the session is opened as the sidebar opens it, older history is
 * loaded page by page until the message's row is there (while pages keep coming), and once the view has settled (it jumps to the
 * end when a session opens) the row is scrolled to the middle of the view and marked briefly.
 * @module @wishp3/dsh-sessions/client/navigation/open-at-message
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import { SessionId } from '@deepseek-ai/dsh-session/types'
import { rowOfSeq } from '../core/anchor.ts'
import { shownChatRow } from '../official/markup.ts'
import { flashRows } from '../official/page-writes.ts'
import styles from './MessageMark.module.css'

/** Longest the search for the row may go without loading a page of older history (rc.8 draws every loaded row, so a page takes longer the more are drawn). */
const GIVE_UP_MS = 30_000

/** Milliseconds after the row appears during which it is brought back into view if the view moves it out, unless the user scrolls, types or clicks first. */
const SETTLE_MS = 5_000

/** Input that means the user has taken over the view. */
const USER_INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const

/** How long the mark stays. */
const MARK_MS = 2_400

const tick = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/** Whether the row's first lines are on screen and not under something else (the session header stays over the top of the view). */
function inView(element: HTMLElement): boolean {
  const box = element.getBoundingClientRect()
  if (box.height <= 0 || box.bottom <= 0 || box.top >= window.innerHeight) return false
  const y = Math.min(Math.max(box.top + Math.min(box.height, 40) / 2, 0), window.innerHeight - 1)
  const top = document.elementFromPoint(box.left + box.width / 2, y)
  return top === null || element.contains(top)
}

/** What else opening at a message does. */
export interface OpenOptions {
  /** More messages to mark when their rows are loaded (the rest of a part reference). */
  readonly alsoMark?: readonly number[]
  /** Called with the message's row once it is first shown. */
  readonly shown?: (row: HTMLElement) => void
}

/** Opens a session at a message. Returns when the row has been shown, or the search given up. */
export async function openAtMessage(sessions: ClientContext['sessions'], at: { readonly sessionId: string; readonly seq: number }, options: OpenOptions = {}): Promise<void> {
  const { sessionId, seq } = at
  const { alsoMark = [], shown } = options
  const id = SessionId(sessionId)
  sessions.open(id)
  let deadline = Date.now() + GIVE_UP_MS
  // The session counts as left once it has become current and another one has since.
  let arrived = false
  const stillOpen = () => {
    if (Date.now() >= deadline) return false
    if (sessions.list.getSnapshot().current === id) arrived = true
    else if (arrived) return false
    return true
  }
  // Each turn reads the session's current binding: the host may replace it while the session opens, and a
  // replaced binding starts again from the latest page, so the row is looked for again until the view settles.
  let shownAt: number | undefined
  let marked = false
  let takenOver = false
  const takeOver = () => { takenOver = true }
  for (const type of USER_INPUT) window.addEventListener(type, takeOver, { capture: true, passive: true })
  try {
    while (stillOpen() && !takenOver && (shownAt === undefined || Date.now() - shownAt < SETTLE_MS)) {
      const session = sessions.binding(id)?.session
      const snapshot = session?.getSnapshot()
      if (snapshot?.openState === 'error') return
      if (session === undefined || snapshot === undefined || snapshot.openState !== 'open' || snapshot.loadingOlder) {
        await tick(50)
        continue
      }
      const found = rowOfSeq(snapshot.chat.nodes.values(), seq, snapshot.hasMore)
      // A view that starts over may not know yet that it has older history: look again until the deadline.
      if (found.kind === 'none') {
        await tick(100)
        continue
      }
      if (found.kind === 'older') {
        const before = snapshot.chat.nodes.values().length
        await session.loadOlder().catch(() => tick(250))
        if ((session.getSnapshot()?.chat.nodes.values().length ?? 0) > before) deadline = Date.now() + GIVE_UP_MS
        continue
      }
      const element = shownChatRow(found.key)
      if (element === undefined) {
        await tick(50)
        continue
      }
      if (!inView(element)) element.scrollIntoView({ block: 'center' })
      if (!marked) {
        marked = true
        const keys = new Set([found.key])
        for (const other of alsoMark) {
          const row = rowOfSeq(snapshot.chat.nodes.values(), other, false)
          if (row.kind === 'row') keys.add(row.key)
        }
        flashRows([...keys].map(key => (key === found.key ? element : shownChatRow(key))), styles.mark!, MARK_MS)
        shown?.(element)
      }
      shownAt ??= Date.now()
      await tick(100)
    }
  } finally {
    for (const type of USER_INPUT) window.removeEventListener(type, takeOver, { capture: true })
  }
}
