/**
 * Queries of the content index: the segments holding every term, ranked a batch of at most {@link
 * RANKED_ROWS} rows at a time (see {@link rankedBatch}) and read only as far as the answers
 * need, then an excerpt of each session taken, from the piece of text `places` names; a Chinese or
 * Japanese run of the query must stand whole in a message of it (the index cannot tell, having no
 * positions).
 * @module @wishp3/dsh-sessions/host/search/worker/index-search
 */
import { ROW_SPAN, SEGMENT_SPAN } from './index-file.ts'
import { type Expansions, groupsOf, groupText, isRun, matchOf, quoted, type Run, runsOf } from '../text/match-expression.ts'
import { expansionsOf } from './prefix-expansion.ts'
import { formsOf, withForms } from '../text/form-expansion.ts'
import type { MessageRole } from '../../official/conversation.ts'
import { addPartialMatches, PARTIAL_BELOW } from './partial-matches.ts'
import { scannedExcerpt } from './scanned-excerpt.ts'
import { type AdmittedRows, excerptAt, type ExcerptQuery, type RankedQuery, type Scope, type SearchedIndex, sessionHolds } from './searched-index.ts'
import { holdsTerm, snippetOf } from '../text/snippet.ts'
import { type StoredPiece, UnpackError, unpack } from '../text/stored-text.ts'
import { foldedForMatch, isUnspaced, pairsOf, type QueryTerm } from '../text/terms.ts'

import type { ContentHit } from '../worker-protocol.ts'
import type { Answer } from './partial-matches.ts'

export type { AdmittedRows, RankedQuery, SearchedIndex } from './searched-index.ts'

/** Compressed bytes of stored text one query unpacks at most for sessions it then passes over (a phrase or long word found only apart, a `from:` the other side said; a piece of about 4 KiB of English is some 2 KB and 70 µs, of Chinese some 5 KB and 140 µs): what bounds its work whatever the store holds. What a session it answers with takes is given back. A query that spends them answers with what it has found, in its order; a Chinese or Japanese query's first pass (the run standing whole) has a budget of its own, as large. */
export const MAX_UNPACKED = 96_000

/** The budget of pieces a query unpacks is spent: it answers with what it has found. */
class BudgetSpent extends Error {}

/** Sessions whose text a query with `from:` reads at most to tell who said its words. */
export const ROLE_CHECKS = 200

/** Matching segment rows ranked together: a query ranks the first this many (in row order), takes what it needs, and only then reads more. */
export const RANKED_ROWS = 10_000

/** The bounds of how much a segment with every word as typed outweighs one that needed another form of a word: as much as a segment that many times shorter. Between them, the weight is how many times more of a batch's segments hold the query in any form than as typed (as BM25 weighs a rarer term more): `preferences` as typed in 11 sessions against 300 with `prefer` or `preferred` outweighs them 27 times; `listener leaks` as typed in half the segments of any form, twice. */
const TYPED_WEIGHT = { least: 2, most: 100 } as const

/** A batch of matching rows ranked best first: their rows and scores in that order, how many, and the last row in row order (where the next batch starts). */
interface RankedBatch {
  readonly rows: readonly number[]
  readonly scores: readonly number[]
  readonly length: number
  readonly last: number
}

/**
 * Ranks a batch by each row's score: BM25 where every term of the query occurs, once. FTS5 keeps no term
 * counts with `detail=none` (its `bm25()` gives 0), and every answer holds the same terms, so BM25's order
 * is that of the segment's length in distinct terms, shortest first; a segment with every word as typed
 * counts as one {@link TYPED_WEIGHT} times shorter. Equal scores keep row order.
 */
function rankedBatch(found: { readonly rows: string; readonly typed: string }, sizeOf: (row: number) => number | undefined): RankedBatch {
  const rows = JSON.parse(found.rows) as number[]
  const typed = new Set(JSON.parse(found.typed) as number[])
  const typedCount = rows.reduce((count, row) => count + (typed.has(row) ? 1 : 0), 0)
  const weight = typed.size === 0 ? 1 : Math.min(TYPED_WEIGHT.most, Math.max(TYPED_WEIGHT.least, rows.length / Math.max(1, typedCount)))
  const scores = rows.map(row => (typed.has(row) ? weight : 1) / (1 + (sizeOf(row) ?? 0)))
  const order = rows.map((_, n) => n).sort((x, y) => scores[y]! - scores[x]! || x - y)
  return { rows: order.map(n => rows[n]!), scores: order.map(n => scores[n]!), length: rows.length, last: rows.at(-1) ?? -1 }
}

/** Queries of one index. */
export class IndexSearch {
  private readonly file: SearchedIndex
  private readonly rankedRows: number
  private readonly partialRows: number
  /** The pieces of text unpacked by the query under way (a piece is unpacked once per query). */
  private unpacked: Map<number, StoredPiece> | undefined
  /** Their messages folded for matching, each once per query, as they are asked for. */
  private folded = new Map<number, string[]>()
  /** Compressed bytes of text the query under way may still unpack for sessions it passes over (see {@link MAX_UNPACKED}). */
  private budget = 0
  /** How far below zero one session being read may take the budget before its reading stops. */
  private overdraft = 0
  /** For a query with `from:`: the side whose words count, and how many more sessions may be read to tell (see {@link ROLE_CHECKS}). */
  private side: { readonly role: MessageRole; checks: number } | undefined

  constructor(file: SearchedIndex, options: { readonly rankedRows: number; readonly partialRows: number }) {
    this.file = file
    this.rankedRows = options.rankedRows
    this.partialRows = options.partialRows
  }

  /**
   * Sessions found by a query, best first; see `SqliteIndex.search`. First the sessions holding every
   * word in some form (see `word-forms.ts`), shortest first (BM25 with each word counted once), a
   * session holding every word as typed counting as one several times shorter (see {@link TYPED_WEIGHT}), and among the answers
   * those where the words stand together as typed first; then, while the answer has room, those
   * holding some of the words (see `partial-matches.ts`), each with the words it lacks, unless {@link PARTIAL_BELOW} hold every word.
   * `admit`: whether a session may be found at all. `admitted`: when given, the only sessions whose
   * rows are read at all. `role`: only the words one side said count (a query's `from:`); the index
   * cannot tell who said a word, so each candidate's text is read to tell, at most {@link ROLE_CHECKS}.
   */
  search(terms: readonly QueryTerm[], ranked: RankedQuery): ContentHit[] {
    const { admit, limit, tieBreak, admitted, role, mostWords } = ranked
    const prefixes = expansionsOf(terms, this.file.vocabulary)
    const forms = formsOf(terms, this.file.forms)
    // Every form a word may match: its prefix's terms and its other forms.
    const asked = new Map([...prefixes, ...forms])
    const seen = new Set<number>()
    const hits: ContentHit[] = []
    const scope = this.scopeOf(admitted)
    this.unpacked = new Map()
    this.budget = MAX_UNPACKED
    this.overdraft = MAX_UNPACKED
    this.side = role === undefined ? undefined : { role, checks: ROLE_CHECKS }
    /** The partial tier, given the sessions the full pass passed over for a phrase or long word found only apart. */
    const partial = (apart: ReadonlySet<number>): void => addPartialMatches(this.file, { terms, expansions: asked, admit, limit, tieBreak, scope, apart, rows: this.partialRows, budget: this.account(), ...(role === undefined ? {} : { role }) }, { hits, seen })
    try {
      // A draft's many words: the partial tier alone ranks them.
      if (mostWords === true) {
        if (groupsOf(terms).length > 1) partial(new Set())
        return hits
      }
      // A Chinese or Japanese query of several words: the sessions where it stands whole as typed come first.
      const whole = terms[0]?.whole
      try {
        if (whole !== undefined) this.gather({ terms: pairsOf(whole).map(term => ({ term, prefix: false, run: 0 })), expansionsOf: { asked: new Map(), exact: undefined } }, { admit, limit, tieBreak, scope }, { seen, hits })
      } catch (error) {
        if (!(error instanceof BudgetSpent)) throw error
      }
      this.budget = MAX_UNPACKED
      const passed = this.gather({ terms, expansionsOf: { asked, exact: forms.size === 0 ? undefined : prefixes } }, { admit, limit, tieBreak, scope }, { seen, hits })
      // Sessions the index says hold every word whose text had a phrase or long word only apart.
      const apart = new Set([...passed].filter(no => !seen.has(no)))
      this.together(terms, hits, asked)
      if (hits.length < Math.min(limit, PARTIAL_BELOW) && (groupsOf(terms).length > 1 || terms[0]?.phrase !== undefined)) partial(apart)
    } catch (error) {
      if (!(error instanceof BudgetSpent)) throw error
      this.together(terms, hits, asked)
    } finally {
      this.unpacked = undefined
      this.folded = new Map()
      this.side = undefined
    }
    return hits
  }

  /** Message `n` of the unpacked piece at `row`, folded for matching (see `terms.ts`), once per query. */
  private foldedAt(row: number, messages: readonly string[], n: number): string {
    let piece = this.folded.get(row)
    if (piece === undefined) {
      piece = []
      this.folded.set(row, piece)
    }
    return (piece[n] ??= foldedForMatch(messages[n]!))
  }

  /** The SQL that keeps a query to the admitted sessions' segment rows, and its parameter. */
  private scopeOf(admitted: AdmittedRows | undefined): Scope {
    const table = admitted !== undefined && 'table' in admitted ? admitted.table : undefined
    const only = admitted === undefined || 'table' in admitted || admitted.length >= this.file.size() ? undefined : JSON.stringify(admitted)
    const within = table !== undefined ? ` AND (rowid / ${SEGMENT_SPAN}) IN (SELECT no FROM temp.${table})` : only !== undefined ? ` AND (rowid / ${SEGMENT_SPAN}) IN (SELECT no FROM sessions WHERE id IN (SELECT value FROM json_each(?)))` : ''
    return { within, only }
  }

  /** Adds to `hits` the sessions not seen yet whose text has every term (each as `expansions.asked` gives it), best first, until `limit`: within each batch of rows, those whose segment has every term as `expansions.exact` gives it (when given) first, then the shorter segment first. Returns the sessions it read, hits or not. */
  private gather(asked: { readonly terms: readonly QueryTerm[]; readonly expansionsOf: { readonly asked: Expansions; readonly exact: Expansions | undefined } }, ranked: RankedQuery & { readonly scope: Scope }, into: Answer): ReadonlySet<number> {
    const { terms, expansionsOf } = asked
    const { admit, limit, tieBreak, scope } = ranked
    const { seen, hits } = into
    const expansions = expansionsOf.asked
    const runs = runsOf(terms)
    const match = matchOf(terms, expansions)
    const exact = expansionsOf.exact === undefined ? undefined : matchOf(terms, expansionsOf.exact)
    const { within, only } = scope
    // One batch: the next rows in row order, and those of them holding every word as typed, as JSON arrays in one row (a row per segment, and a sort inside SQLite, cost twice as much); ranked here by each one's length (in distinct terms), best first. A session of several segments comes once per segment, its best first.
    const typed = exact === undefined ? "'[]'" : `(SELECT json_group_array(rowid) FROM terms WHERE terms MATCH ? AND rowid > ? AND rowid <= (SELECT max(row) FROM batch)${within})`
    const batch = this.file.statement(`WITH batch AS MATERIALIZED (SELECT rowid AS row FROM terms WHERE terms MATCH ? AND rowid > ?${within} ORDER BY rowid LIMIT ?) `
      + `SELECT json_group_array(row) AS rows, ${typed} AS typed FROM batch`)
    const sizeOf = this.file.sizes()
    // Sessions this pass read (a hit or not); `seen` holds the hits of every pass.
    const passed = new Set<number>()
    let after = -1
    let full = true
    while (full && hits.length < limit && (this.side?.checks ?? 1) > 0) {
      const parameters = [match, after, ...(only === undefined ? [] : [only]), this.rankedRows, ...(exact === undefined ? [] : [exact, after, ...(only === undefined ? [] : [only])])]
      const ranked = rankedBatch(batch.get(...parameters) as { rows: string; typed: string }, sizeOf)
      if (ranked.length === 0) break
      after = ranked.last
      full = ranked.length >= this.rankedRows
      // Sessions are taken best first, a tie of equal scores whole (ordered by `tieBreak`), until they could fill what is left.
      let taken: [string, number, number][] = []
      let tie: [string, number, number][] = []
      const flush = (): void => {
        tie.sort((a, b) => tieBreak(a[0], b[0]))
        taken.push(...tie)
        tie = []
      }
      for (let n = 0; hits.length < limit; n += 1) {
        const done = n >= ranked.length
        if (done || (tie.length > 0 && ranked.scores[n] !== tie[0]![2])) {
          flush()
          if (taken.length >= limit - hits.length || done) {
            this.excerpts(taken, { terms, expansions, runs, limit }, { hits, seen })
            taken = []
          }
          if (done) break
        }
        const no = Math.floor(ranked.rows[n]! / SEGMENT_SPAN)
        if (seen.has(no) || passed.has(no)) continue
        passed.add(no)
        const id = this.file.idOf(no)
        if (id !== undefined && admit(id)) tie.push([id, no, ranked.scores[n]!])
      }
    }
    if (hits.length < limit) {
      const across = this.acrossSegments({ terms, expansions, match }, admit, new Set([...seen, ...passed])).sort(tieBreak)
      this.excerpts(across.flatMap(id => { const no = this.file.noOf(id); return no === undefined ? [] : [[id, no, 0] as [string, number, number]] }), { terms, expansions, runs, limit }, { hits, seen })
    }
    return passed
  }

  /** Moves first, keeping their order otherwise, the hits where the query's words stand together as typed, in a piece of text their excerpt was made from (such a hit's excerpt shows them); then those where one message of those pieces holds every word group in some form. */
  private together(terms: readonly QueryTerm[], hits: ContentHit[], expansions: Expansions): void {
    const groups = groupsOf(terms)
    if (groups.length < 2 || hits.length < 2) return
    // A group is held by a message that holds its run whole, or one of its word's forms.
    const asked = groups.map(group => (isRun(group) ? { run: groupText(group), forms: [] } : { run: undefined, forms: withForms(group, expansions) }))
    const holdsEvery = (folded: string): boolean => asked.every(({ run, forms }) => (run !== undefined ? folded.includes(run) : forms.some(term => holdsTerm(folded, term))))
    const texts = groups.map(groupText)
    const whole = texts.reduce((joined, text, n) => (n === 0 ? text : isUnspaced(texts[n - 1]!.at(-1)!) && isUnspaced(text[0]!) ? joined + text : `${joined} ${text}`), '')
    const phrase: QueryTerm[] = [{ term: whole, prefix: false }]
    const first: ContentHit[] = []
    const near: ContentHit[] = []
    const rest: ContentHit[] = []
    // Only the pieces the query has unpacked already: the excerpt's, and what its checks read.
    const byNo = new Map<number, number[]>()
    for (const row of this.unpacked?.keys() ?? []) {
      const no = Math.floor(row / ROW_SPAN)
      byNo.set(no, [...(byNo.get(no) ?? []), row])
    }
    for (const hit of hits) {
      const no = this.file.noOf(hit.id)
      const rows = no === undefined ? [] : (byNo.get(no) ?? []).sort((x, y) => x - y)
      let found: Pick<ContentHit, 'snippet' | 'origin'> | undefined
      for (const row of rows) {
        const [messages, origins] = this.unpacked!.get(row)!
        const at = messages.findIndex((_, n) => this.foldedAt(row, messages, n).includes(whole))
        const snippet = at < 0 ? undefined : snippetOf([messages[at]!], phrase)
        if (snippet === undefined) continue
        found = excerptAt(snippet, row - no! * ROW_SPAN + at, origins[at])
        break
      }
      if (found !== undefined) first.push({ ...hit, ...found })
      else if (hit.snippet.missing === undefined && rows.some(row => this.unpacked!.get(row)![0].some((_, n, messages) => holdsEvery(this.foldedAt(row, messages, n))))) near.push(hit)
      else rest.push(hit)
    }
    hits.splice(0, hits.length, ...first, ...near, ...rest)
  }

  /** Adds to `hits`, in order, the candidates whose excerpt can be made (see {@link excerpt}), until `limit`. The pieces each needs are found a few candidates at a time, with one query of `places` per term group. */
  private excerpts(candidates: readonly [id: string, no: number, score: number][], asked: ExcerptQuery, into: Answer): void {
    const { terms, expansions, runs, limit } = asked
    const { hits, seen } = into
    // The excerpt is of the first message that holds the query's first word or run; it marks the forms asked for too.
    const marked = withForms(terms, expansions)
    const lead = groupsOf(terms)[0]!
    const leadIsRun = isRun(lead)
    for (let at = 0; at < candidates.length && hits.length < limit;) {
      const take = candidates.slice(at, at + limit - hits.length)
      at += take.length
      const unplaced = this.file.unplaced(take.map(([, no]) => no))
      const nos = take.map(([, no]) => no).filter(no => !unplaced.has(no))
      const whole = runs.map(run => this.located(matchOf(run.terms), nos))
      const first = leadIsRun ? whole[0]! : this.located(matchOf(lead, expansions), nos)
      for (const [id, no, score] of take) {
        // A session is read only while the budget lasts; what it takes is given back when it is answered.
        if (this.budget <= 0) throw new BudgetSpent()
        const before = this.budget
        let excerpt: Pick<ContentHit, 'snippet' | 'origin'> | undefined
        if (this.side !== undefined) {
          // Who said each word is read from the text: a session whose side did not say them all is passed over.
          if (this.side.checks <= 0) return
          this.side.checks -= 1
          const scanned = scannedExcerpt(this.file, no, { groups: groupsOf(terms), expansions, role: this.side.role, words: true, spend: bytes => this.spend(bytes) })
          excerpt = scanned !== undefined && scanned.lacking.size === 0 ? scanned.hit : undefined
        } else {
          excerpt = unplaced.has(no)
            ? this.excerptByScan(no, marked, runs)
            : this.excerpt(no, marked, { runs: runs.map((run, n) => [run, whole[n]!.get(no)] as const), first: first.get(no) })
        }
        if (excerpt === undefined) continue
        this.budget = Math.max(this.budget, before)
        hits.push({ id, score, ...excerpt })
        seen.add(no)
      }
    }
  }

  /** For each of the given sessions, the first of its pieces of text that `places` says match, in one query (the walk of the matching pieces, over the range of rows those sessions span, and the choice stay inside SQLite). */
  private located(match: string, nos: readonly number[]): Map<number, number> {
    if (nos.length === 0) return new Map()
    // The range lets FTS5 skip the rows before and after the sessions asked for (a batch's sessions are neighbours in row order).
    const rows = this.file.statement(`SELECT rowid / ${ROW_SPAN} AS no, min(rowid) AS row FROM places WHERE places MATCH ? AND rowid >= ? AND rowid < ? AND (rowid / ${ROW_SPAN}) IN (SELECT value FROM json_each(?)) GROUP BY 1`)
      .all(match, Math.min(...nos) * ROW_SPAN, (Math.max(...nos) + 1) * ROW_SPAN, JSON.stringify(nos)) as { no: number; row: number }[]
    return new Map(rows.map(({ no, row }) => [no, row]))
  }

  /** Sessions of several segments, not yet seen, whose segments hold every term between them. */
  private acrossSegments(asked: { readonly terms: readonly QueryTerm[]; readonly expansions: Expansions; readonly match: string }, admit: (id: string) => boolean, seen: ReadonlySet<number>): string[] {
    const { terms, expansions, match } = asked
    if (terms.length < 2) return []
    const split = (this.file.split.all() as { no: number }[]).map(({ no }) => no)
    if (split.length === 0) return []
    const out: string[] = []
    for (const no of split) {
      const id = this.file.idOf(no)
      if (id === undefined || seen.has(no) || !admit(id)) continue
      if (sessionHolds(this.file, no, match)) continue
      if (terms.every(term => sessionHolds(this.file, no, quoted(term, expansions)))) out.push(id)
    }
    return out
  }

  /** A stored piece of text, by its row. */
  /** Takes a piece's compressed bytes from the query's budget; false once the session being read has taken it past its overdraft. */
  private spend(bytes: number): boolean {
    if (this.budget < -this.overdraft) return false
    this.budget -= bytes
    return true
  }

  /** The budget as it stands, and a way to give back what a session answered with took (for the partial pass). */
  private account(): { readonly spend: (bytes: number) => boolean; readonly open: () => boolean; readonly mark: () => number; readonly refund: (mark: number) => void } {
    return { spend: bytes => this.spend(bytes), open: () => this.budget > 0, mark: () => this.budget, refund: mark => { this.budget = Math.max(this.budget, mark) } }
  }

  private piece(row: number): StoredPiece {
    const known = this.unpacked?.get(row)
    if (known !== undefined) return known
    const found = this.file.texts.get(row) as { body: Uint8Array } | undefined
    if (found === undefined) throw new UnpackError('a piece of text the index names is missing')
    if (!this.spend(found.body.byteLength)) throw new BudgetSpent()
    const piece = unpack(found.body)
    this.unpacked?.set(row, piece)
    return piece
  }

  /** The excerpt of a session's first message that matches, from its pieces of text unpacked in order only as far as needed; `undefined` when a run of the query stands whole in none of its messages (its parts were found apart), or no message matches. */
  private excerptByScan(no: number, terms: readonly QueryTerm[], runs: readonly Run[]): Pick<ContentHit, 'snippet' | 'origin'> | undefined {
    const left = new Set(runs.map(run => run.text))
    // When the query starts with a run, the excerpt is of a message where it stands whole.
    const leadRun = runs.length > 0 && isRun(groupsOf(terms)[0]!) ? runs[0]!.text : undefined
    let found: Pick<ContentHit, 'snippet' | 'origin'> | undefined
    const from = no * ROW_SPAN
    const pieces = this.file.statement('SELECT row, body FROM texts WHERE row >= ? AND row < ? ORDER BY row').iterate(from, from + ROW_SPAN) as Iterator<{ row: number; body: Uint8Array }>
    try {
      for (let next = pieces.next(); next.done !== true && (found === undefined || left.size > 0); next = pieces.next()) {
        if (!this.spend(next.value.body.byteLength)) throw new BudgetSpent()
        const [messages, origins] = unpack(next.value.body)
        this.unpacked?.set(next.value.row, [messages, origins])
        for (const [n, message] of messages.entries()) {
          const folded = left.size > 0 || leadRun !== undefined ? this.foldedAt(next.value.row, messages, n) : ''
          for (const run of left) if (folded.includes(run)) left.delete(run)
          if (found === undefined && (leadRun === undefined || folded.includes(leadRun))) {
            const snippet = snippetOf([message], terms)
            if (snippet !== undefined) found = excerptAt(snippet, next.value.row - from + n, origins[n])
          }
          if (found !== undefined && left.size === 0) break
        }
      }
    } finally {
      pieces.return?.()
    }
    return left.size > 0 ? undefined : found
  }

  /** The excerpt of a session's first message that holds the query's first word or run, made from the pieces of text `places` named: each run of the query must stand whole in a message of a piece that holds its pairs (the first such piece is tried, then the session's others; else `undefined`: its parts were found apart). Where the named piece gives no excerpt (a match past what excerpts scan of a long message), the session's pieces are read in order. */
  private excerpt(no: number, terms: readonly QueryTerm[], found: { readonly runs: readonly (readonly [Run, number | undefined])[]; readonly first: number | undefined }): Pick<ContentHit, 'snippet' | 'origin'> | undefined {
    const { runs, first } = found
    const from = no * ROW_SPAN
    const holds = (row: number, run: Run): boolean => this.piece(row)[0].some((_, n, messages) => this.foldedAt(row, messages, n).includes(run.text))
    let lead = first
    for (const [n, [run, row]] of runs.entries()) {
      // No piece `places` names holds the run's words together: none of the session's others will.
      if (row === undefined) return undefined
      if (holds(row, run)) continue
      const other = (this.file.placesOf.all(matchOf(run.terms), from, from + ROW_SPAN) as { row: number }[]).find(({ row: piece }) => piece !== row && holds(piece, run))
      if (other === undefined) return undefined
      // The first run may be the query's first group, whose piece the excerpt is made from.
      if (n === 0 && first === row && isRun(groupsOf(terms)[0]!)) lead = other.row
    }
    if (lead !== undefined) {
      const [messages, origins] = this.piece(lead)
      for (const [n, message] of messages.entries()) {
        const snippet = snippetOf([message], terms)
        if (snippet !== undefined) return excerptAt(snippet, lead - from + n, origins[n])
      }
    }
    return this.excerptByScan(no, terms, [])
  }
}
