/**
 * Shows copy toasts.
 * @module @wishp3/dsh-sessions/client/copy/toast
 */
import { createRoot, type Root } from 'react-dom/client'
import { CopyToast } from './CopyToast.tsx'
import css from './CopyToast.module.css'
import type { ToastSide } from '../core/placement.ts'

/** How long a toast lives, fade included. */
export const TOAST_LIFETIME_MS = 4_000

/** Shows one toast. */
export type ShowToast = (toast: { text: string; ok: boolean; anchor: HTMLElement | null; side: ToastSide }) => void

/** Builds the toast outlet of a document. */
export function createToastOutlet(doc: Document = document): { show: ShowToast; dispose(): void } {
  let region: HTMLElement | undefined
  let root: Root | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let sequence = 0
  return {
    show({ text, ok, anchor, side }) {
      if (region === undefined || root === undefined) {
        region = doc.createElement('div')
        region.setAttribute('role', 'status')
        region.setAttribute('aria-live', 'polite')
        region.dataset.dshSessionsToasts = ''
        region.className = css.layer ?? ''
        doc.body.appendChild(region)
        root = createRoot(region)
      }
      sequence += 1
      root.render(<CopyToast key={sequence} text={text} ok={ok} anchor={anchor} side={side} />)
      clearTimeout(timer)
      const current = root
      timer = setTimeout(() => { current.render(null) }, TOAST_LIFETIME_MS)
    },
    dispose() {
      clearTimeout(timer)
      root?.unmount()
      region?.remove()
      root = undefined
      region = undefined
    },
  }
}
