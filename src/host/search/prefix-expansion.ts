/**
 * Prefixes asked as the index terms they stand for. Without a prefix index,
 * FTS5 answers a prefix (`"conc"*`) by merging the lists of every term that
 * starts with it over the whole index, whatever rows the query asks for; the
 * same terms asked as alternatives (`("concat" OR "concept" OR …)`) are read
 * only as far as the rows asked for. So a prefix that starts at most
 * {@link MAX_EXPANSION} terms of the index is asked as those terms, and one
 * that starts more is asked as a prefix. Either way a query matches the same
 * rows: the vocabulary lists every term of the index that starts with the
 * prefix (and may list one whose rows were all deleted since, which matches
 * nothing). The vocabulary is that of the index's `terms` table, which holds
 * every term `places` holds, so one expansion serves both.
 * @module @wishp3/dsh-sessions/host/search/prefix-expansion
 */
import type { Expansions } from './match-expression.ts'
import type { QueryTerm } from './terms.ts'

/** Most index terms a prefix is asked as; a prefix that starts more is asked as a prefix. */
export const MAX_EXPANSION = 64

/**
 * The index's terms that start with a prefix, in order, at most `limit` of
 * them; `undefined` where the index cannot tell.
 */
export type Vocabulary = (prefix: string, limit: number) => readonly string[] | undefined

/** Past every character a term may hold: the upper bound of the terms that start with a prefix. */
const LAST = '\u{10FFFF}'

/**
 * The upper bound, in the index's order (that of UTF-8 bytes), of the terms that start with a prefix.
 * @param prefix - the prefix.
 * @returns the prefix followed by the last code point.
 */
export function prefixEnd(prefix: string): string {
  return prefix + LAST
}

/**
 * The expansions of a query's prefixes: each prefix term that starts at most
 * {@link MAX_EXPANSION} index terms, with those terms.
 * @param terms - the query's terms.
 * @param vocabulary - the index's terms by prefix.
 * @returns the expansions (a prefix left out is asked as a prefix).
 */
export function expansionsOf(terms: readonly QueryTerm[], vocabulary: Vocabulary): Expansions {
  const expansions = new Map<string, readonly string[]>()
  for (const { term, prefix } of terms) {
    if (!prefix || expansions.has(term)) continue
    const words = vocabulary(term, MAX_EXPANSION + 1)
    if (words !== undefined && words.length > 0 && words.length <= MAX_EXPANSION) expansions.set(term, words)
  }
  return expansions
}
