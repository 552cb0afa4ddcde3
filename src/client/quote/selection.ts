/**
 * Which text selection can be quoted: a non-empty selection whose both ends lie in the conversation
 * and outside the composer's seat (which also holds the quote bar).
 * @module @wishp3/dsh-sessions/client/quote/selection
 */
import { inConversation } from '../official/markup.ts'

/** A quotable selection and where it is on screen. */
export interface QuotableSelection {
  readonly text: string
  /** Bounding box in viewport coordinates. */
  readonly rect: { readonly top: number; readonly left: number; readonly width: number; readonly height: number }
}

function elementOf(node: Node | null): Element | null {
  if (node === null) return null
  return node.nodeType === Node.ELEMENT_NODE ? node as Element : node.parentElement
}

function quotable(node: Node | null): boolean {
  const element = elementOf(node)
  return element !== null && inConversation(element)
}

/** Reads the current selection. Returns the quotable selection, or `undefined`. */
export function quotableSelection(selection: Selection | null): QuotableSelection | undefined {
  if (selection === null || selection.isCollapsed || selection.rangeCount === 0) return undefined
  const text = selection.toString()
  if (text.trim() === '') return undefined
  if (!quotable(selection.anchorNode) || !quotable(selection.focusNode)) return undefined
  const box = selection.getRangeAt(0).getBoundingClientRect()
  return { text, rect: { top: box.top, left: box.left, width: box.width, height: box.height } }
}
