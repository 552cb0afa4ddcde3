/**
 * A query's words asked as every form of them the index holds (see `word-forms.ts`).
 * @module @wishp3/dsh-sessions/host/search/text/form-expansion
 */
import type { Expansions } from './match-expression.ts'
import type { QueryTerm } from './terms.ts'
import { stemOf } from './word-forms.ts'

/** Most forms one word is asked as; a stem with more keeps the first, in the index's order. */
export const MAX_FORMS = 32

/** The index's words that have a stem, at most `limit` of them. */
export type Forms = (stem: string, limit: number) => readonly string[]

/** The key under which a term's forms are kept among a query's expansions (a prefix's own terms are kept under the term). */
export function formsKey(term: string): string {
  return `form:${term}`
}

/** The forms of a query's words that are not exact (quoted): the stem and the index's words that have it, besides the word itself; a word with no other form the index holds gets none. */
export function formsOf(terms: readonly QueryTerm[], forms: Forms): Expansions {
  const expansions = new Map<string, readonly string[]>()
  for (const { term, exact } of terms) {
    if (exact === true || expansions.has(formsKey(term))) continue
    const stem = stemOf(term)
    if (stem === undefined) continue
    const others = [...new Set([stem, ...forms(stem, MAX_FORMS)])].filter(word => word !== term)
    if (others.length > 0) expansions.set(formsKey(term), others)
  }
  return expansions
}

/** A query's terms and, after them, each form asked for (as whole words), so an excerpt marks the forms found too. */
export function withForms(terms: readonly QueryTerm[], expansions: Expansions): QueryTerm[] {
  const added = terms.flatMap(({ term, exact }) => (exact === true ? [] : expansions.get(formsKey(term)) ?? []).map(form => ({ term: form, prefix: false })))
  return added.length === 0 ? [...terms] : [...terms, ...added]
}

/** A query's words as a conversation read whole is searched for them, with no index to list the forms its text holds: a word that starts with its stem is asked as that stem, as a prefix (which its other forms start with); another word as itself, with its stem as its one other form. */
export function scannedForms(terms: readonly QueryTerm[]): { asked: QueryTerm[]; expansions: Expansions } {
  const asked = terms.map(term => {
    const stem = term.exact === true ? undefined : stemOf(term.term)
    return stem !== undefined && term.term.startsWith(stem) ? { ...term, term: stem, prefix: true } : term
  })
  const expansions = new Map<string, readonly string[]>()
  for (const { term, exact } of asked) {
    const stem = exact === true ? undefined : stemOf(term)
    if (stem !== undefined && stem !== term && !term.startsWith(stem)) expansions.set(formsKey(term), [stem])
  }
  return { asked, expansions }
}
