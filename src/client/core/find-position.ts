/**
 * Where the find bar stands among a session's matches: the matches loaded so far (the route answers
 * them a page at a time, in order), how many there are, and which one is shown. Pure.
 * @module @wishp3/dsh-sessions/client/core/find-position
 */
import type { FindResponse, FoundMessage } from '../../shared/wire.ts'

/** The bar's position. */
export interface FindPosition {
  /** The matches loaded, in the session's order. */
  readonly matches: readonly FoundMessage[]
  /** The matches counted: all of them when `complete`, else at least this many. */
  readonly total: number
  readonly complete: boolean
  /** The index of the match shown in `matches`; -1 before the first is shown or when there is none. */
  readonly at: number
}

/** A position after the first page, before any match is shown. */
export function positionOf(page: FindResponse): FindPosition {
  return { matches: page.matches, total: page.total, complete: page.complete, at: -1 }
}

/** The position with the page that follows its last loaded match added. */
export function withPage(position: FindPosition, page: FindResponse): FindPosition {
  return { ...position, matches: [...position.matches, ...page.matches], total: position.matches.length + page.total, complete: page.complete }
}

/** Whether matches past the loaded ones may exist: the count says more, or it stopped short. */
export function hasUnloaded(position: FindPosition): boolean {
  return position.matches.length < position.total || !position.complete
}

/** The next step: `index`, the match to show; `load`, the message number to ask the page after first (then step again); `undefined`, nowhere to go. Forward past the last match goes back to the first once all are loaded; back from the first goes to the last only then. */
export function stepOf(position: FindPosition, direction: 1 | -1): { readonly index: number } | { readonly load: number } | undefined {
  const { matches, at } = position
  if (matches.length === 0) return undefined
  if (direction === 1) {
    if (at + 1 < matches.length) return { index: at + 1 }
    if (hasUnloaded(position)) return { load: matches.at(-1)!.number }
    return { index: 0 }
  }
  if (at > 0) return { index: at - 1 }
  return hasUnloaded(position) ? (at < 0 ? { index: 0 } : undefined) : { index: matches.length - 1 }
}

/** What the bar's count says: `{ n, total, more }` for a match shown (`more`: the total is a lower bound), `none` when nothing matches, `undefined` before anything is shown. */
export function countOf(position: FindPosition | undefined): { readonly n: number; readonly total: number; readonly more: boolean } | 'none' | undefined {
  if (position === undefined) return undefined
  if (position.matches.length === 0) return 'none'
  return { n: Math.max(position.at, 0) + 1, total: position.total, more: !position.complete }
}
