/**
 * Prefixes asked as the index terms they stand for.
 * @module @wishp3/dsh-sessions/host/search/worker/prefix-expansion
 */
import type { Expansions } from '../text/match-expression.ts'
import type { QueryTerm } from '../text/terms.ts'

/** Most index terms a prefix is asked as; a prefix that starts more is asked as a prefix. */
export const MAX_EXPANSION = 64

/** The index's terms that start with a prefix, in order, at most `limit` of them; `undefined` where the index cannot tell. */
export type Vocabulary = (prefix: string, limit: number) => readonly string[] | undefined

/** Past every character a term may hold: the upper bound of the terms that start with a prefix. */
const LAST = '\u{10FFFF}'

/** The upper bound, in the index's order (that of UTF-8 bytes), of the terms that start with a prefix. */
export function prefixEnd(prefix: string): string {
  return prefix + LAST
}

/** The expansions of a query's prefixes: each prefix term that starts at most {@link MAX_EXPANSION} index terms, with those terms. */
export function expansionsOf(terms: readonly QueryTerm[], vocabulary: Vocabulary): Expansions {
  const expansions = new Map<string, readonly string[]>()
  for (const { term, prefix } of terms) {
    if (!prefix || expansions.has(term)) continue
    const words = vocabulary(term, MAX_EXPANSION + 1)
    if (words !== undefined && words.length > 0 && words.length <= MAX_EXPANSION) expansions.set(term, words)
  }
  return expansions
}
