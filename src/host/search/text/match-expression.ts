/**
 * The FTS5 MATCH expressions a query's terms become: every term needed, quoted, a prefix starred.
 * @module @wishp3/dsh-sessions/host/search/text/match-expression
 */
import { isUnspaced, type QueryTerm } from './terms.ts'

/** The index terms a query's term stands for: a prefix's terms, where they are few enough to be asked one by one (see `prefix-expansion.ts`), or a word's other forms (see `word-forms.ts`); a term not listed is asked as it is. */
export type Expansions = ReadonlyMap<string, readonly string[]>

/** A term as FTS5 asks for it: quoted (terms hold only letters, marks and digits); a prefix starred, or, where its index terms are known, as those terms; where the word has other forms the index holds (kept under `form:<term>`), as any of them too. */
export function quoted({ term, prefix, exact }: QueryTerm, expansions?: Expansions): string {
  const listed = prefix ? expansions?.get(term) : undefined
  const forms = exact === true ? undefined : expansions?.get(`form:${term}`)
  const asked = listed !== undefined && listed.length > 0 ? listed.map(word => `"${word}"`) : [`"${term}"${prefix ? '*' : ''}`]
  for (const form of forms ?? []) if (listed?.includes(form) !== true) asked.push(`"${form}"`)
  return listed !== undefined && listed.length > 0 || asked.length > 1 ? `(${asked.join(' OR ')})` : asked[0]!
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

/** A group of a query's terms that must stand together in a message: a Chinese or Japanese word of three or more characters (its pairs), or a quoted phrase (its words). The index tells only that the terms occur, not where, so that the group stands whole is checked in the text. */
export interface Run {
  /** The folded text a message must hold. */
  readonly text: string
  readonly terms: readonly QueryTerm[]
}

/** The text a group stands for: a phrase as quoted, a word from its overlapping pairs. */
export function groupText(group: readonly QueryTerm[]): string {
  return group[0]!.phrase ?? group.map(({ term }, n) => (n === 0 ? term : [...term].at(-1)!)).join('')
}

/** The query's groups that must stand together, in order. */
export function runsOf(terms: readonly QueryTerm[]): Run[] {
  return groupsOf(terms).filter(isRun).map(group => ({ text: groupText(group), terms: group.map(({ term, prefix, exact }) => ({ term, prefix, ...(exact === true ? { exact } : {}) })) }))
}

/** Whether a group of the query's terms is a run of three or more unspaced characters. */
export function isRun(group: readonly QueryTerm[]): boolean {
  return group.length > 1 || (!group[0]!.prefix && isUnspaced(group[0]!.term) && [...group[0]!.term].length >= 3)
}

/** An FTS5 query needing every term, each as {@link quoted} gives it. */
export function matchOf(terms: readonly QueryTerm[], expansions?: Expansions): string {
  return terms.map(term => quoted(term, expansions)).join(' AND ')
}
