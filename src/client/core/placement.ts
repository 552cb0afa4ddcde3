/**
 * Where the copy toast goes, next to the element a copy came from.
 * @module @wishp3/dsh-sessions/client/core/placement
 */

export type ToastSide = 'right' | 'below'

export interface Box {
  readonly top: number
  readonly left: number
  readonly width: number
  readonly height: number
}

/** A toast's position: `top`/`left` of its reference point and how the toast sits on it. */
export interface ToastPlacement {
  readonly top: number
  readonly left: number
  /** `right`: the point is the toast's left edge, vertical middle; `below`: its top edge, horizontal middle. */
  readonly side: ToastSide
}

/** Gap between anchor and toast, and the least room a toast keeps from the window's edge. */
export const TOAST_GAP = 8

export const TOAST_MIN_WIDTH = 160

/** Places a toast. `anchor`: the anchor's box, or `undefined` when it is gone. */
export function placeToast(anchor: Box | undefined, side: ToastSide, viewport: { width: number; height: number }): ToastPlacement {
  if (anchor === undefined) return { top: TOAST_GAP * 2, left: viewport.width / 2, side: 'below' }
  const right = anchor.left + anchor.width + TOAST_GAP
  if (side === 'right' && right + TOAST_MIN_WIDTH <= viewport.width - TOAST_GAP) {
    return { top: anchor.top + anchor.height / 2, left: right, side: 'right' }
  }
  const centre = anchor.left + anchor.width / 2
  return {
    top: anchor.top + anchor.height + TOAST_GAP / 2,
    left: Math.min(Math.max(centre, TOAST_GAP), viewport.width - TOAST_GAP),
    side: 'below',
  }
}
