/**
 * How message text becomes search terms, and a query becomes the terms it needs. Both sides fold the
 * same way.
 * @module @wishp3/dsh-sessions/host/search/text/terms
 */
import { createHash } from 'node:crypto'
import { unspacedWords } from './unspaced-words.ts'

/** Characters of scripts written without spaces between words (a character class body). */
const UNSPACED_CLASS = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\u30fc\\u3005'

/** Characters of words of the other scripts: letters, marks and digits (a character class body). */
const WORD_CLASS = `[\\p{L}\\p{M}\\p{N}]--[${UNSPACED_CLASS}]`

const UNSPACED = new RegExp(`[${UNSPACED_CLASS}]`, 'v')

/** Runs of unspaced-script characters, or of word characters. */
export const RUNS = new RegExp(`[${UNSPACED_CLASS}]+|[${WORD_CLASS}]+`, 'gv')

/** One character of a word of the scripts written with spaces: what ends a word there. */
export const WORD_CHARACTER = new RegExp(`[${WORD_CLASS}]`, 'v')

/** Most terms one query may need; a longer query finds no content match. */
export const MAX_QUERY_TERMS = 16

/** Most characters of a query searched in content; a longer query finds no content match. */
export const MAX_QUERY_LENGTH = 256

/** Text of ASCII, Latin-1 punctuation and signs (not its letters), general punctuation, arrows and the common mathematical signs, box drawing, shapes and dingbats, CJK punctuation, kana, ideographs and full-width forms only, with no combining mark (the ideographic tone marks and the kana voicing marks, which compose or reorder): the round trip of {@link fold} gives the lower case of each character of it, so it folds to its lower case. */
const FOLDS_TO_LOWER_CASE = /^[\x00-\x7f\u00a0-\u00bf\u00d7\u00f7\u2002-\u20cf\u2190-\u2199\u21d0-\u2203\u220d-\u2223\u2263-\u226c\u2500-\u27ff\u3000-\u3029\u3030-\u3098\u309b-\u9fff\uff00-\uffef]*$/

/** Folds text for matching: accents dropped, lower case. Applied to one code point at a time, it may yield zero, one or several UTF-16 units. */
export function fold(text: string): string {
  if (FOLDS_TO_LOWER_CASE.test(text)) return text.toLowerCase()
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC').toLowerCase()
}

const ASCII_ONLY = /^[\x00-\x7f]*$/

/** A text folded for a test of whether a term occurs in it: the same as {@link fold}, faster for ASCII text (which folds to its lower case). */
export function foldedForMatch(text: string): string {
  return ASCII_ONLY.test(text) ? text.toLowerCase() : fold(text)
}

/** Whether a folded term belongs to a script written without spaces. Returns true for Chinese and Japanese terms. */
export function isUnspaced(term: string): boolean {
  return UNSPACED.test(term)
}

/** Text of one UTF-16 unit per character: no surrogate pair. */
const NO_SURROGATE = /^[^\ud800-\udfff]*$/

/** What an index term is: a word of a script written with spaces, or of an unspaced run its pair of characters, or its last character (a run of one character is that character). */
export type TermKind = 'word' | 'pair' | 'last'

/** An unspaced run's index terms: its pairs and its last character. */
function runTerms(run: string, visit: (term: string, kind: TermKind) => void): void {
  if (NO_SURROGATE.test(run)) {
    // Every character is one unit: terms are slices, with no array of characters made.
    const last = run.length - 1
    for (let n = 0; n < last; n += 1) visit(run.slice(n, n + 2), 'pair')
    visit(run.slice(last), 'last')
    return
  }
  const chars = [...run]
  for (let n = 0; n + 1 < chars.length; n += 1) visit(chars[n]! + chars[n + 1]!, 'pair')
  visit(chars[chars.length - 1]!, 'last')
}

/** Each UTF-16 unit's class for {@link visitIndexTerms}, learnt from the expressions above on first sight: 0 not yet known, 1 a character of a word, 2 of an unspaced run, 3 neither. */
const UNIT_CLASS = new Uint8Array(0x10000)
const WORD = 1
const RUN = 2
const NEITHER = 3

function classOf(unit: number): number {
  let known = UNIT_CLASS[unit]!
  if (known === 0) {
    const char = String.fromCharCode(unit)
    known = UNSPACED.test(char) ? RUN : WORD_CHARACTER.test(char) ? WORD : NEITHER
    UNIT_CLASS[unit] = known
  }
  return known
}

/** Visits the index terms of a text, in text order (repeats kept). `visit`: called with each folded term and its kind. The runs are those {@link RUNS} finds: a text of one unit per character is read a unit at a time, by each unit's class, some twice as fast as the expression. */
export function visitIndexTerms(text: string, visit: (term: string, kind: TermKind) => void): void {
  // ASCII folds to its lower case.
  const ascii = ASCII_ONLY.test(text)
  const folded = ascii ? text.toLowerCase() : fold(text)
  if (!ascii && !NO_SURROGATE.test(folded)) {
    for (const [run] of folded.matchAll(RUNS)) {
      if (isUnspaced(run)) runTerms(run, visit)
      else visit(run, 'word')
    }
    return
  }
  let start = 0
  let kind = NEITHER
  for (let at = 0; at <= folded.length; at += 1) {
    const next = at < folded.length ? classOf(folded.charCodeAt(at)) : NEITHER
    if (next === kind) continue
    if (kind === WORD) visit(folded.slice(start, at), 'word')
    else if (kind === RUN) runTerms(folded.slice(start, at), visit)
    start = at
    kind = next
  }
}

/** The index terms of a text, in text order (repeats kept). */
export function indexTerms(text: string): string[] {
  const terms: string[] = []
  visitIndexTerms(text, term => { terms.push(term) })
  return terms
}

/** The overlapping pairs of an unspaced run (the run itself when shorter). */
export function pairsOf(run: string): string[] {
  const chars = [...run]
  if (chars.length <= 2) return [run]
  return chars.slice(0, -1).map((char, n) => char + chars[n + 1]!)
}

/** One term a query needs. */
export interface QueryTerm {
  readonly term: string
  /** Whether an index term that starts with it matches too. */
  readonly prefix: boolean
  /** For the terms of one group that must stand together in a message (a Chinese or Japanese word of three or more characters, as its pairs; a quoted phrase): the group's number in the query. */
  readonly run?: number
  /** On the first term of a quoted phrase: the phrase, folded, that a message must hold as written. */
  readonly phrase?: string
  /** Whether the term is asked only as typed, never as another form of the word (a quoted word). */
  readonly exact?: boolean
  /** On the first term of a query that is one Chinese or Japanese run of several words: the run as typed, which sessions holding it whole answer first. */
  readonly whole?: string
}

/** The quoted and unquoted parts of a folded query, in order; an unbalanced quote is left out and what follows it is unquoted. */
function quotedParts(query: string): { text: string; quoted: boolean }[] {
  const parts: { text: string; quoted: boolean }[] = []
  let at = 0
  for (;;) {
    const open = query.indexOf('"', at)
    const close = open < 0 ? -1 : query.indexOf('"', open + 1)
    if (close < 0) {
      parts.push({ text: query.slice(at).replaceAll('"', ' '), quoted: false })
      return parts
    }
    parts.push({ text: query.slice(at, open), quoted: false }, { text: query.slice(open + 1, close), quoted: true })
    at = close + 1
  }
}

/**
 * The terms a content query needs. Words as typed, the last one also as a prefix, unless the query ends
 * in a space or a quote; a Chinese or Japanese run as its words (see `unspaced-words.ts`), each on its
 * own, a word of two characters as that pair, one of three or more as its pairs standing together, a
 * single character as a prefix; a quoted phrase as its words, exact, standing together as written.
 * Repeated groups count once; past {@link MAX_QUERY_TERMS} the later groups are left out. A query with
 * no term, one that is only a single Latin letter or digit, or one past {@link MAX_QUERY_LENGTH}, needs
 * none: it finds no content match. `query`: the text typed (filters already taken out, see
 * `query-grammar.ts`). Returns the terms; empty when the query does not search content.
 */
export function queryTerms(query: string): QueryTerm[] {
  if (query.length > MAX_QUERY_LENGTH) return []
  const groups: QueryTerm[][] = []
  let run = 0
  const parts = quotedParts(fold(query))
  const lastPlain = /[\p{L}\p{M}\p{N}]$/u.test(query.trimEnd()) && !/\s$/u.test(query) ? parts.length - 1 : -1
  parts.forEach((part, index) => {
    const runs = [...part.text.matchAll(RUNS)].map(([found]) => found)
    if (part.quoted) {
      if (runs.length === 1 && !isUnspaced(runs[0]!)) groups.push([{ term: runs[0]!, prefix: false, exact: true }])
      else if (runs.length > 0) {
        const id = run++
        const terms = runs.flatMap(found => (isUnspaced(found) ? pairsOf(found) : [found]).map(term => ({ term, prefix: false, run: id, exact: true })))
        groups.push(terms.length === 1 ? [{ term: terms[0]!.term, prefix: false, exact: true }] : terms.map((term, n) => (n === 0 ? { ...term, phrase: part.text.trim().replace(/\s+/gu, ' ') } : term)))
      }
      return
    }
    runs.forEach((found, n) => {
      if (!isUnspaced(found)) {
        groups.push([{ term: found, prefix: index === lastPlain && n === runs.length - 1 }])
        return
      }
      for (const word of unspacedWords(found)) {
        const length = [...word].length
        if (length <= 2) groups.push([{ term: word, prefix: length === 1 }])
        else {
          const id = run++
          groups.push(pairsOf(word).map(term => ({ term, prefix: false, run: id })))
        }
      }
    })
  })
  // A query of one unspaced run that its words do not spell out whole (several words, or particles left out): sessions where the run stands whole as typed answer first.
  const only = parts.length === 1 && !parts[0]!.quoted ? [...parts[0]!.text.matchAll(RUNS)].map(([found]) => found) : []
  const spelled = groups.length === 1 && groups[0]!.length === 1 && groups[0]![0]!.term === only[0]
  if (only.length === 1 && isUnspaced(only[0]!) && groups.length > 0 && !spelled && [...only[0]!].length <= MAX_QUERY_TERMS) groups[0] = groups[0]!.map((term, n) => (n === 0 ? { ...term, whole: only[0]! } : term))
  const seen = new Set<string>()
  const terms: QueryTerm[] = []
  for (const group of groups) {
    const key = group.map(({ term, prefix }) => `${term}${prefix ? '*' : ''}`).join(' ')
    if (seen.has(key)) continue
    seen.add(key)
    if (terms.length + group.length > MAX_QUERY_TERMS) break
    terms.push(...group)
  }
  if (terms.length === 1 && !isUnspaced(terms[0]!.term) && [...terms[0]!.term].length < 2) return []
  return terms
}

/** A text that every step of the term pipeline changes the terms of: case, Latin accents in both compositions, kana voicing marks (composed and combining), Han and kana runs, the prolonged sound mark and iteration mark, Hangul, digits, ligatures and dotted capitals, words next to CJK. */
const FINGERPRINT_SAMPLE = 'Café Cafe\u0301 GENÈVE naïve İstanbul Straße ﬁle 3rd-4th x86_64 データベース がっこう か\u3099 ベース 灰度策略 發佈 人々 한국어 Rollout灰度 東京タワー'

/** The index's own fingerprint, made once per process. */
let ownFingerprint: string | undefined

function fingerprintOf(terms: (text: string) => readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(terms(FINGERPRINT_SAMPLE))).digest('hex').slice(0, 16)
}

/** The fingerprint of a term pipeline: a hash of the terms it makes of a fixed sample text. Computed from the pipeline itself, so a change of the terms changes it (and the index is built again) without anyone remembering to. `terms`: the pipeline; the index's own by default. */
export function termsFingerprint(terms: (text: string) => readonly string[] = indexTerms): string {
  if (terms === indexTerms) return ownFingerprint ??= fingerprintOf(terms)
  return fingerprintOf(terms)
}
