/**
 * Matches of recent queries over one listing, so a query asked again, or one typed further, does not
 * walk every session again. What it gives is always what a walk of the listing would give.
 * @module @wishp3/dsh-sessions/host/sessions/match-memo
 */
import { BoundedMap } from '../bounded-map.ts'

/** Memos kept: the most recent queries. */
const QUERIES_KEPT = 16

/** Matches per query over one generation of a listing. */
export class MatchMemo<T> {
  private generation: number | undefined
  private readonly matches = new BoundedMap<string, readonly T[]>(QUERIES_KEPT)

  /** Every item of the listing that matches a query, in the listing's order. `generation`: the listing's generation; another empties the memo. `matches.listing`: every item, in order (read only when no memo serves); `matches.test`: whether an item matches the query; `matches.narrows`: whether every match of the query matches an earlier query too. */
  get(generation: number, query: string, matches: { readonly listing: () => readonly T[]; readonly test: (item: T) => boolean; readonly narrows: (earlier: string) => boolean }): readonly T[] {
    const { listing, test, narrows } = matches
    if (this.generation !== generation) {
      this.generation = generation
      this.matches.clear()
    }
    const known = this.matches.get(query)
    if (known !== undefined) {
      // Most recently used last.
      this.matches.set(query, known)
      return known
    }
    let from: readonly T[] | undefined
    for (const [earlier, found] of this.matches) if (narrows(earlier) && (from === undefined || found.length < from.length)) from = found
    const found = (from ?? listing()).filter(test)
    this.matches.set(query, found)
    return found
  }
}
