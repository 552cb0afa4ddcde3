/**
 * Partial matches: when too few sessions hold every word of a query, those holding the most of its
 * word groups, each group weighted by its rarity as BM25 weighs a term, each with the groups it lacks.
 * @module @wishp3/dsh-sessions/host/search/worker/partial-matches
 */
import type { MessageRole } from '../../official/conversation.ts'
import { SEGMENT_SPAN } from './index-file.ts'
import type { ContentHit } from '../worker-protocol.ts'
import { type Scope, type SearchedIndex, sessionHolds } from './searched-index.ts'
import { type Expansions, groupsOf, groupText, isRun, matchOf } from '../text/match-expression.ts'
import { scannedExcerpt } from './scanned-excerpt.ts'
import type { QueryTerm } from '../text/terms.ts'

/** What a partial pass is asked: which sessions may be found, how many in all, and their order when tied. */
export interface PartialQuery {
  readonly admit: (id: string) => boolean
  readonly limit: number
  readonly tieBreak: (a: string, b: string) => number
  readonly scope: Scope
  /** Only words said by this side count (a query's `from:`). */
  readonly role?: MessageRole
  /** Segment rows of a word group read at most: a group in more is common (see {@link PARTIAL_ROWS}). */
  readonly rows: number
  /** Sessions the full pass read and passed over: every group is in the index, but a phrase or long word stood only apart (their text is not read again for it). */
  readonly apart: ReadonlySet<number>
  /** The query's budget of bytes read (see `index-search.ts`): spent piece by piece, open while any is left, and given back for a session answered with. */
  readonly budget: { readonly spend: (bytes: number) => boolean; readonly open: () => boolean; readonly mark: () => number; readonly refund: (mark: number) => void }
}

/** A query's answer as it grows: its hits in order, and the numbers of the sessions it has taken. */
export interface Answer {
  readonly hits: ContentHit[]
  readonly seen: Set<number>
}

/** Most sessions a query's partial matches add. */
export const MAX_PARTIAL = 10

/** Partial matches follow only an answer of fewer sessions holding every word than this: a screenful (the sidebar's 20 rows and the one that tells there are more; `search_sessions` asks 20 at most). Past it, sessions lacking a word add nothing a person reads, and the `@` menu's 50 would read their text for nothing. */
export const PARTIAL_BELOW = 21

/** Segment rows of a word group a partial match reads at most; a group in more is common: its sessions are not read (its weight is the least), only those holding every common group together, and it is looked for in the text of the best candidates. */
export const PARTIAL_ROWS = 4_000

/** Candidates of partial matches ranked at most. */
const PARTIAL_CANDIDATES = 120

/** Candidates whose text is read at most for the common groups they hold. */
const SCANNED_CANDIDATES = 20

/** A partial pass sorts only its best entries, this many times as many as the candidates it ranks, unless too few of them are admitted (see `addPartialMatches`). */
const FEW_TIMES = 4

/** BM25's term saturation and length normalisation, at their usual values. */
const K1 = 1.2
const B = 0.75

/** A candidate: the sum of its held groups' rarities, which groups it holds, and its length in distinct terms. */
interface Partial {
  idf: number
  readonly held: Set<number>
  readonly size: number
}

/** Adds to `hits`, until `limit` (at most {@link MAX_PARTIAL} of them), sessions not seen yet that hold some of the query's word groups, ranked by BM25 with each word counted once (the sum of each held group's inverse document frequency, normalised by the session's length against the mean), then by `tieBreak`; each with the groups it lacks. A group in more than `rows` segment rows is common: the sessions holding every common group together are candidates (when there are few enough), and a candidate's common groups are looked for in the text it is read for. */
export function addPartialMatches(file: SearchedIndex, query: PartialQuery & { readonly terms: readonly QueryTerm[]; readonly expansions: Expansions }, into: Answer): void {
  const { terms, expansions } = query
  const { hits, seen } = into
  const { admit, limit, tieBreak, scope, rows: partialRows } = query
  const room = Math.min(limit - hits.length, MAX_PARTIAL)
  if (room <= 0) return
  const groups = groupsOf(terms)
  const total = Math.max(1, file.size())
  const { within, only } = scope
  // A group's segment rows, their lengths from memory; counting them first is some five times cheaper, for a group that proves common. They come as a JSON array in one row: a row per segment costs twice as much.
  const rowsOf = file.statement(`SELECT count(*) AS n FROM (SELECT 1 FROM terms WHERE terms MATCH ?${within} LIMIT ?)`)
  const groupRows = file.statement(`SELECT json_group_array(rowid) AS rows FROM (SELECT rowid FROM terms WHERE terms MATCH ?${within} LIMIT ?)`)
  const sizeOf = file.sizes()
  const parameters = (match: string, most: number): (string | number)[] => (only === undefined ? [match, most] : [match, only, most])
  /** The sessions holding a group, with their shortest segment's length. */
  const sessionsOf = (match: string): Map<number, number> => {
    const sessions = new Map<number, number>()
    for (const row of JSON.parse((groupRows.get(...parameters(match, partialRows)) as { rows: string }).rows) as number[]) {
      const no = Math.floor(row / SEGMENT_SPAN)
      sessions.set(no, Math.min(sessions.get(no) ?? Infinity, sizeOf(row) ?? Infinity))
    }
    return sessions
  }
  /** The same; `undefined` when the group is common. */
  const sessionsHolding = (match: string): Map<number, number> | undefined =>
    (rowsOf.get(...parameters(match, partialRows + 1)) as { n: number }).n > partialRows ? undefined : sessionsOf(match)
  const mean = file.meanSize()
  const found = new Map<number, Partial>()
  /** A session's entry, made on first sight with its length (the mean where the index has none). */
  const entryOf = (no: number, size: number): Partial => {
    const entry = found.get(no) ?? { idf: 0, held: new Set<number>(), size: Number.isFinite(size) ? size : mean }
    found.set(no, entry)
    return entry
  }
  /** Counts a group as held, by its weight. */
  const hold = (entry: Partial, g: number, weight: number): void => {
    entry.held.add(g)
    entry.idf += weight
  }
  const common: number[] = []
  const weightOf = (sessions: number): number => Math.log(1 + total / Math.max(1, sessions))
  const scoreOf = (entry: Partial): number => (entry.idf * (K1 + 1)) / (1 + K1 * (1 - B + (B * entry.size) / mean))
  groups.forEach((group, g) => {
    const match = matchOf(group, expansions)
    let rows = sessionsHolding(match)
    if (rows === undefined) {
      common.push(g)
      if (g < groups.length - 1 || found.size > 0) return
      rows = sessionsOf(match)
    }
    const weight = weightOf(Math.max(rows.size, common.includes(g) ? partialRows : 0))
    for (const [no, size] of rows) if (!seen.has(no)) hold(entryOf(no, size), g, weight)
  })
  // Sessions holding every common group together are candidates too, when there are few enough of them (the rarer groups may have found none of them).
  if (common.length > 1) {
    for (const [no, size] of sessionsHolding(common.map(g => matchOf(groups[g]!, expansions)).join(' AND ')) ?? []) {
      if (seen.has(no)) continue
      const entry = entryOf(no, size)
      for (const g of common.filter(g => !entry.held.has(g))) hold(entry, g, weightOf(partialRows))
    }
  }
  // The best `most` admitted entries, ties at the last place whole, then ordered by `tieBreak` within a score; ids are looked up only for those walked.
  const ranked = (entries: [number, Partial][], most: number): [string, number, Partial][] => {
    // Each entry's score is worked out once; only the entries scoring at least as well as the best FEW_TIMES × `most` are sorted, unless too few of them are admitted.
    const scores = Float64Array.from(entries, ([, entry]) => scoreOf(entry))
    const floor = scores.length <= FEW_TIMES * most ? -Infinity : Float64Array.from(scores).sort()[scores.length - FEW_TIMES * most]!
    const walk = (least: number): [string, number, Partial, number][] | undefined => {
      const out: [string, number, Partial, number][] = []
      const scored = entries.flatMap(([no, entry], n) => (scores[n]! >= least ? [[scores[n]!, no, entry] as const] : [])).sort((a, b) => b[0] - a[0])
      for (const [score, no, entry] of scored) {
        if (out.length >= most && score < out[out.length - 1]![3]) return out
        const id = file.idOf(no)
        if (id !== undefined && admit(id)) out.push([id, no, entry, score])
      }
      return out.length >= most || least === -Infinity ? out : undefined
    }
    const out = walk(floor) ?? walk(-Infinity)!
    return out.sort((a, b) => b[3] - a[3] || tieBreak(a[0], b[0])).slice(0, most).map(([id, no, entry]) => [id, no, entry])
  }
  const rankedCandidates = ranked([...found], PARTIAL_CANDIDATES)
  // A common group is looked for in the text of the best candidates, up to twice as many as are answered with: it counts where their first pieces show it. A seek of the index for it costs some 0.6 ms a session at 20,000 sessions, so only the sessions answered with, where their text was not read whole, are asked, for what they lack.
  const scanned = common.length === 0 ? room : Math.min(2 * room, SCANNED_CANDIDATES)
  const scannedHits: { hit: ContentHit; unseen: (readonly QueryTerm[])[]; no: number }[] = []
  for (const [id, no, entry] of rankedCandidates) {
    if (scannedHits.length >= scanned) break
    const held = groups.filter((_, g) => entry.held.has(g))
    const unknown = common.filter(g => !entry.held.has(g)).map(g => groups[g]!)
    if (!query.budget.open()) break
    const mark = query.budget.mark()
    const apart = query.apart.has(no) && query.role === undefined
    const excerpt = scannedExcerpt(file, no, { groups: held, expansions, words: query.role !== undefined, runs: !apart, unknown, spend: query.budget.spend, ...(query.role === undefined ? {} : { role: query.role }) })
    if (excerpt === undefined) continue
    for (const group of unknown.filter(group => !excerpt.lacking.has(group))) hold(entry, groups.indexOf(group), weightOf(partialRows))
    const missing = groups.filter((group, g) => !entry.held.has(g) || excerpt.lacking.has(group) || (apart && isRun(group)))
    // With `from:`, a session whose side said none of the words is no match.
    if (query.role !== undefined && missing.length === groups.length) continue
    query.budget.refund(mark)
    // A common group the text read did not show may stand further on (never with `from:`, which reads who said it).
    const unseen = excerpt.whole || query.role !== undefined ? [] : unknown.filter(group => excerpt.lacking.has(group))
    scannedHits.push({ hit: { id, score: scoreOf(entry), ...excerpt.hit, snippet: lacking(excerpt.hit.snippet, missing.map(groupText)) }, unseen, no })
  }
  for (const { hit, unseen, no } of scannedHits.map((entry, n) => [entry, n] as const).sort(([a, x], [b, y]) => b.hit.score - a.hit.score || x - y).slice(0, room).map(([entry]) => entry)) {
    const further = new Set(unseen.filter(group => sessionHolds(file, no, matchOf(group, expansions))).map(groupText))
    seen.add(no)
    hits.push(further.size === 0 ? hit : { ...hit, snippet: lacking(hit.snippet, (hit.snippet.missing ?? []).filter(text => !further.has(text))) })
  }
}

/** An excerpt saying which words its session lacks; none said when it lacks none (a session holding every word, found by the words held alone). */
function lacking(snippet: ContentHit['snippet'], missing: readonly string[]): ContentHit['snippet'] {
  const { missing: _, ...rest } = snippet
  return missing.length === 0 ? rest : { ...rest, missing: [...missing] }
}
