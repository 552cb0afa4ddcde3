/**
 * The page's one find bar: opened on a session under an anchor (the header's button), drawn in a root
 * of its own at the end of the page, and closed by Escape, the bar's close button, the header's button
 * again, or when the page shows another session.
 * @module @wishp3/dsh-sessions/client/find/find-outlet
 */
import { createRoot, type Root } from 'react-dom/client'
import type { FindBarProps } from '../contract.ts'
import { FindBar } from './FindBar.tsx'

/** Width the bar is given room for. */
const BAR_WIDTH = 380

/** Where the bar stands: under the anchor, from its left edge over the conversation, kept inside the window. */
function placeUnder(anchor: HTMLElement | null, view: Window): { top: number; left: number } {
  const box = anchor?.getBoundingClientRect()
  return box === undefined ? { top: 8, left: 8 } : { top: box.bottom + 6, left: Math.max(8, Math.min(box.left - 8, view.innerWidth - BAR_WIDTH - 8)) }
}

/** What the bar does besides drawing itself. */
export type FindBarActions = Pick<FindBarProps, 't' | 'find' | 'show'> & {
  /** Called when the bar closes. */
  readonly closed: () => void
}

/** The outlet of a document. */
export interface FindOutlet {
  /** Opens the bar on a session under `anchor`, or focuses it when it is open on that session. */
  open(sessionId: string, anchor: HTMLElement | null): void
  /** Opens it, or closes it when it is open on that session. */
  toggle(sessionId: string, anchor: HTMLElement | null): void
  /** The session the bar is open on. */
  current(): string | undefined
  close(): void
  dispose(): void
}

/** Builds the find outlet of a document. */
export function createFindOutlet(actions: FindBarActions, doc: Document = document): FindOutlet {
  let region: HTMLElement | undefined
  let root: Root | undefined
  let shown: { sessionId: string; anchor: HTMLElement | null; focusCount: number } | undefined
  const draw = () => {
    if (shown === undefined) {
      root?.render(null)
      return
    }
    if (region === undefined || root === undefined) {
      region = doc.createElement('div')
      region.dataset.dshSessionsFindLayer = ''
      doc.body.appendChild(region)
      root = createRoot(region)
    }
    const { sessionId, anchor, focusCount } = shown
    root.render(<FindBar key={sessionId} sessionId={sessionId} place={placeUnder(anchor, doc.defaultView ?? window)} focusCount={focusCount} t={actions.t} find={actions.find} show={actions.show} close={outlet.close} />)
  }
  const outlet: FindOutlet = {
    open(sessionId, anchor) {
      shown = { sessionId, anchor, focusCount: shown?.sessionId === sessionId ? shown.focusCount + 1 : 0 }
      draw()
    },
    toggle(sessionId, anchor) {
      if (shown?.sessionId === sessionId) outlet.close()
      else outlet.open(sessionId, anchor)
    },
    current: () => shown?.sessionId,
    close() {
      if (shown === undefined) return
      const { anchor } = shown
      shown = undefined
      draw()
      actions.closed()
      if (anchor?.isConnected === true) anchor.focus()
    },
    dispose() {
      root?.unmount()
      region?.remove()
      root = undefined
      region = undefined
      shown = undefined
    },
  }
  return outlet
}
