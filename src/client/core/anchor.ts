/**
 * Which conversation row holds a message.
 * @module @wishp3/dsh-sessions/client/core/anchor
 */

export interface AnchoredRow {
  readonly key: string
  readonly anchorSeq: number
  readonly visibility: 'visible' | 'hidden'
}

/** Where a message is among the rows loaded. */
export type RowOfSeq =
  | { readonly kind: 'row'; readonly key: string }
  | { readonly kind: 'older' }
  | { readonly kind: 'none' }

/** Finds the row of a message. `hasOlder`: whether older history can still be loaded. Returns its row; `older` when it is before every loaded row and more can be loaded; `none` when it cannot be found. */
export function rowOfSeq(rows: Iterable<AnchoredRow>, seq: number, hasOlder: boolean): RowOfSeq {
  let best: AnchoredRow | undefined
  let earliest = Number.POSITIVE_INFINITY
  for (const row of rows) {
    if (row.visibility !== 'visible') continue
    earliest = Math.min(earliest, row.anchorSeq)
    if (row.anchorSeq <= seq && (best === undefined || row.anchorSeq > best.anchorSeq)) best = row
  }
  if (hasOlder && (best === undefined || earliest > seq)) return { kind: 'older' }
  return best === undefined ? { kind: 'none' } : { kind: 'row', key: best.key }
}
