/**
 * Where the copy toast goes, next to the element a copy came from: to the
 * right of a sidebar row, vertically centred on it (so it never covers the
 * row's title), or below a header button, centred on it. A toast that would
 * start too close to the right edge of the window goes below its anchor
 * instead. Pure: rectangles in, viewport coordinates out.
 * @module @wishp3/dsh-sessions/client/core/placement
 */

/** Which side of its anchor a toast prefers. */
export type ToastSide = 'right' | 'below'

/** A box in viewport coordinates. */
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

/** Narrowest a toast gets beside its anchor before it goes below it. */
export const TOAST_MIN_WIDTH = 160

/**
 * Places a toast.
 * @param anchor - the anchor's box, or `undefined` when it is gone.
 */
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
