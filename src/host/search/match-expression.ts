/**
 * The FTS5 MATCH expressions a query's terms become: every term needed, quoted, a prefix starred.
 * @module @wishp3/dsh-sessions/host/search/match-expression
 */
import { isUnspaced, pairsOf, type QueryTerm } from './terms.ts'

/** The index terms each prefix of a query stands for, where they are few enough to be asked one by one (see `prefix-expansion.ts`); a prefix not listed is asked as a prefix. */
export type Expansions = ReadonlyMap<string, readonly string[]>

/** A term as FTS5 asks for it: quoted (terms hold only letters, marks and digits); a prefix one starred, or, where its index terms are known, as those terms (either of them matches). */
export function quoted({ term, prefix }: QueryTerm, expansions?: Expansions): string {
  const words = prefix ? expansions?.get(term) : undefined
  if (words === undefined || words.length === 0) return `"${term}"${prefix ? '*' : ''}`
  return `(${words.map(word => `"${word}"`).join(' OR ')})`
}

/** The query's terms, those of one Chinese or Japanese run together (in order). */
export function groupsOf(terms: readonly QueryTerm[]): QueryTerm[][] {
  const groups: QueryTerm[][] = []
  for (const term of terms) {
    const last = groups.at(-1)
    if (term.run !== undefined && last?.[0]!.run === term.run) last.push(term)
    else groups.push([term])
  }
  return groups
}

/** A Chinese or Japanese run of three or more characters that a query holds: the text it stands for, and its pairs. `terms` finds it by its runs of three, `places` (which holds pairs only) by its pairs; neither tells where they stand, so that the run stands whole is checked in the text. */
export interface Run {
  readonly text: string
  readonly terms: readonly QueryTerm[]
}

/** The query's runs of three or more characters, in order: each a group of runs of three. */
export function runsOf(terms: readonly QueryTerm[]): Run[] {
  return groupsOf(terms).filter(isRun).map(group => {
    const text = group.map(({ term }, n) => (n === 0 ? term : [...term].at(-1)!)).join('')
    return { text, terms: pairsOf(text).map(term => ({ term, prefix: false })) }
  })
}

/** The query's terms with each run of three or more characters as its pairs, for a file without runs of three. */
export function asPairs(terms: readonly QueryTerm[]): QueryTerm[] {
  return groupsOf(terms).flatMap((group, n) => {
    if (!isRun(group)) return group
    const text = group.map(({ term }, k) => (k === 0 ? term : [...term].at(-1)!)).join('')
    return pairsOf(text).map(term => ({ term, prefix: false, run: -1 - n }))
  })
}

/** Whether a group of the query's terms is a run of three or more unspaced characters. */
export function isRun(group: readonly QueryTerm[]): boolean {
  return group.length > 1 || (!group[0]!.prefix && isUnspaced(group[0]!.term) && [...group[0]!.term].length >= 3)
}

/** An FTS5 query needing every term, each as {@link quoted} gives it. */
export function matchOf(terms: readonly QueryTerm[], expansions?: Expansions): string {
  return terms.map(term => quoted(term, expansions)).join(' AND ')
}
