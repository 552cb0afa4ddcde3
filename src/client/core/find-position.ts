/**
 * Where the find bar stands among a session's matches, loaded a page at a time. Pure.
 * @module @wishp3/dsh-sessions/client/core/find-position
 */
import type { FindResponse, FoundMessage } from '../../shared/wire.ts'

/** The bar's position: the matches loaded, in order; how many there are (all when `complete`, else at least that many); the index of the one shown (-1 for none). */
export interface FindPosition {
  readonly matches: readonly FoundMessage[]
  readonly total: number
  readonly complete: boolean
  readonly at: number
}

/** A position after the first page, before any match is shown; {@link withPage} adds the page after its last match. */
export function positionOf(page: FindResponse): FindPosition {
  return { matches: page.matches, total: page.total, complete: page.complete, at: -1 }
}

export function withPage(position: FindPosition, page: FindResponse): FindPosition {
  return {
    ...position,
    matches: [...position.matches, ...page.matches],
    total: position.matches.length + page.total,
    complete: page.complete,
  }
}

/** The next step: `index`, the match to show; `load`, the message number to ask the page after first (then step again); `undefined`, nowhere to go. Forward past the last match goes back to the first once all are loaded; back from the first goes to the last only then. */
export function stepOf(position: FindPosition, direction: 1 | -1): { readonly index: number } | { readonly load: number } | undefined {
  const { matches, at } = position
  const unloaded = matches.length < position.total || !position.complete
  if (matches.length === 0) return undefined
  if (direction === 1) {
    if (at + 1 < matches.length) return { index: at + 1 }
    if (unloaded) return { load: matches.at(-1)!.number }
    return { index: 0 }
  }
  if (at > 0) return { index: at - 1 }
  return unloaded ? (at < 0 ? { index: 0 } : undefined) : { index: matches.length - 1 }
}

export interface FindCount {
  readonly n: number
  readonly total: number
  readonly more: boolean
}

/** What the bar's count says: the shown match's place `n`, the `total`, and whether it is a lower bound (`more`); `none` when nothing matches, `undefined` before anything was asked. */
export function countOf(position: FindPosition | undefined): FindCount | 'none' | undefined {
  if (position === undefined) return undefined
  if (position.matches.length === 0) return 'none'
  return { n: Math.max(position.at, 0) + 1, total: position.total, more: !position.complete }
}
