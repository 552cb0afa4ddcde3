/**
 * Which conversation row holds a message: the chat view's rows each start
 * at a log event (`anchorSeq`) and hold the events up to the next row's, so
 * the message with sequence number `seq` is in the last visible row that
 * starts at or before it. While the earliest row loaded starts after it,
 * older history has to be loaded first.
 * @module @wishp3/dsh-sessions/client/core/anchor
 */

/** What is read of one chat row. */
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

/**
 * Finds the row of a message.
 * @param rows - the rows loaded, in any order.
 * @param seq - the message's log sequence number.
 * @param hasOlder - whether older history can still be loaded.
 * @returns its row; `older` when it is before every loaded row and more can be loaded; `none` when it cannot be found.
 */
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
