/**
 * Partial matches: when too few sessions hold every word of a query, those holding the most of its
 * word groups, each group weighted by its rarity as BM25 weighs a term, each with the groups it lacks.
 * @module @wishp3/dsh-sessions/host/search/partial-matches
 */
import type { MessageRole } from '../official/conversation.ts'
import { SEGMENT_SPAN } from './index-file.ts'
import type { ContentHit, Scope, SearchedIndex } from './searched-index.ts'
import { type Expansions, groupsOf, groupText, matchOf } from './match-expression.ts'
import { scannedExcerpt } from './scanned-excerpt.ts'
import type { QueryTerm } from './terms.ts'

/** What a partial pass is asked: which sessions may be found, how many in all, and their order when tied. */
export interface PartialQuery {
  readonly admit: (id: string) => boolean
  readonly limit: number
  readonly tieBreak: (a: string, b: string) => number
  readonly scope: Scope
  /** Only words said by this side count (a query's `from:`). */
  readonly role?: MessageRole
}

/** Most sessions a query's partial matches add. */
export const MAX_PARTIAL = 20

/** Sessions a partial match's word group is read for at most; a group in more is common, and checked only for the candidates the rarer groups found. */
export const PARTIAL_ROWS = 4_000

/** Candidates of partial matches ranked (their common groups checked) at most. */
const PARTIAL_CANDIDATES = 200

/** Adds to `hits`, until `limit` (at most {@link MAX_PARTIAL} of them), sessions not seen yet that hold some of the query's word groups, ranked by the sum of each held group's rarity (its inverse document frequency, as BM25 weighs a term), then by `tieBreak`; each with the groups it lacks. A group found in more than {@link PARTIAL_ROWS} segments is checked only for the sessions the rarer groups found. */
export function addPartialMatches(file: SearchedIndex, terms: readonly QueryTerm[], expansions: Expansions, query: PartialQuery, seen: Set<number>, hits: ContentHit[]): void {
const { admit, limit, tieBreak, scope } = query
  const room = Math.min(limit - hits.length, MAX_PARTIAL)
  if (room <= 0) return
  const groups = groupsOf(terms)
  const total = Math.max(1, file.size())
  const { within, only } = scope
  const sessionsOf = file.statement(`SELECT DISTINCT rowid / ${SEGMENT_SPAN} AS no FROM terms WHERE terms MATCH ?${within} LIMIT ?`)
  const found = new Map<number, { score: number; held: Set<number> }>()
  const common: number[] = []
  const weightOf = (sessions: number): number => Math.log(1 + total / Math.max(1, sessions))
  groups.forEach((group, g) => {
    const match = matchOf(group, expansions)
    const rows = (only === undefined ? sessionsOf.all(match, PARTIAL_ROWS + 1) : sessionsOf.all(match, only, PARTIAL_ROWS + 1)) as { no: number }[]
    if (rows.length > PARTIAL_ROWS) {
      common.push(g)
      if (g < groups.length - 1 || found.size > 0) return
    }
    const weight = weightOf(rows.length)
    for (const { no } of rows.slice(0, PARTIAL_ROWS)) {
      if (seen.has(no)) continue
      const entry = found.get(no) ?? { score: 0, held: new Set<number>() }
      entry.score += weight
      entry.held.add(g)
      found.set(no, entry)
    }
  })
  const ranked = (entries: [number, { score: number; held: Set<number> }][]): [string, number, { score: number; held: Set<number> }][] => entries
    .flatMap(([no, entry]) => { const id = file.idOf(no); return id === undefined || !admit(id) ? [] : [[id, no, entry] as [string, number, typeof entry]] })
    .sort((a, b) => b[2].score - a[2].score || tieBreak(a[0], b[0]))
  let candidates = ranked([...found]).slice(0, PARTIAL_CANDIDATES)
  if (common.length > 0) {
    const has = file.statement('SELECT 1 AS hit FROM terms WHERE terms MATCH ? AND rowid >= ? AND rowid < ? LIMIT 1')
    for (const [, no, entry] of candidates) {
      for (const g of common) {
        if (entry.held.has(g) || has.get(matchOf(groups[g]!, expansions), no * SEGMENT_SPAN, (no + 1) * SEGMENT_SPAN) === undefined) continue
        entry.held.add(g)
        entry.score += weightOf(PARTIAL_ROWS)
      }
    }
    candidates = ranked(candidates.map(([, no, entry]) => [no, entry]))
  }
  let added = 0
  for (const [id, no, entry] of candidates) {
    if (added >= room) break
    seen.add(no)
    const held = groups.filter((_, g) => entry.held.has(g))
    const excerpt = scannedExcerpt(file, no, { groups: held, expansions, words: query.role !== undefined, ...(query.role === undefined ? {} : { role: query.role }) })
    if (excerpt === undefined) continue
    const missing = groups.filter((group, g) => !entry.held.has(g) || excerpt.lacking.has(group)).map(groupText)
    // With `from:`, a session whose side said none of the words is no match.
    if (missing.length === groups.length) continue
    hits.push({ id, score: entry.score, ...excerpt.hit, snippet: { ...excerpt.hit.snippet, missing: [...new Set(missing)] } })
    added += 1
  }
}
