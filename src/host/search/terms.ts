/**
 * How message text becomes search terms, and a query becomes the terms it needs. Both sides fold the
 * same way.
 * @module @wishp3/dsh-sessions/host/search/terms
 */
import { createHash } from 'node:crypto'

/** Characters of scripts written without spaces between words (a character class body). */
const UNSPACED_CLASS = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\u30fc\\u3005'

/** Characters of words of the other scripts: letters, marks and digits (a character class body). */
const WORD_CLASS = `[\\p{L}\\p{M}\\p{N}]--[${UNSPACED_CLASS}]`

const UNSPACED = new RegExp(`[${UNSPACED_CLASS}]`, 'v')

/** Runs of unspaced-script characters, or of word characters. */
const RUNS = new RegExp(`[${UNSPACED_CLASS}]+|[${WORD_CLASS}]+`, 'gv')

/** One character of a word of the scripts written with spaces: what ends a word there. */
export const WORD_CHARACTER = new RegExp(`[${WORD_CLASS}]`, 'v')

/** Most terms one query may need; a longer query finds no content match. */
export const MAX_QUERY_TERMS = 16

/** Most characters of a query searched in content; a longer query finds no content match. */
export const MAX_QUERY_LENGTH = 256

/** Folds text for matching: accents dropped, lower case. Applied to one code point at a time, it may yield zero, one or several UTF-16 units. */
export function fold(text: string): string {
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

/** Adds an unspaced run's overlapping pieces of `size` characters (the run itself when shorter). */
function grams(chars: readonly string[], size: number, into: string[]): void {
  if (chars.length <= size) {
    into.push(chars.join(''))
    return
  }
  for (let n = 0; n + size <= chars.length; n += 1) into.push(chars.slice(n, n + size).join(''))
}

/** Text of one UTF-16 unit per character: no surrogate pair. */
const NO_SURROGATE = /^[^\ud800-\udfff]*$/

/** Words of text folded from ASCII: runs of its letters and digits (what {@link RUNS} finds in such text). */
const ASCII_WORDS = /[a-z0-9]+/g

/** What an index term is: a word of a script written with spaces, or of an unspaced run its pair of characters, its run of three, or its last character (a run of one character is that character). */
export type TermKind = 'word' | 'pair' | 'three' | 'last'

/** An unspaced run's index terms: its pairs, its runs of three, and its last character. */
function runTerms(run: string, visit: (term: string, kind: TermKind) => void): void {
  if (NO_SURROGATE.test(run)) {
    // Every character is one unit: terms are slices, with no array of characters made (measured: concatenating characters instead took about 40 % longer).
    const last = run.length - 1
    for (let n = 0; n < last; n += 1) {
      visit(run.slice(n, n + 2), 'pair')
      if (n + 2 <= last) visit(run.slice(n, n + 3), 'three')
    }
    visit(run.slice(last), 'last')
    return
  }
  const chars = [...run]
  if (chars.length === 1) {
    visit(chars[0]!, 'last')
    return
  }
  for (let n = 0; n + 1 < chars.length; n += 1) {
    visit(chars[n]! + chars[n + 1]!, 'pair')
    if (n + 2 < chars.length) visit(chars[n]! + chars[n + 1]! + chars[n + 2]!, 'three')
  }
  visit(chars[chars.length - 1]!, 'last')
}

/** Visits the index terms of a text, in text order (repeats kept). `visit`: called with each folded term and its kind. */
export function visitIndexTerms(text: string, visit: (term: string, kind: TermKind) => void): void {
  if (ASCII_ONLY.test(text)) {
    // ASCII folds to its lower case, and its only runs are words of letters and digits.
    for (const [word] of text.toLowerCase().matchAll(ASCII_WORDS)) visit(word, 'word')
    return
  }
  for (const [run] of fold(text).matchAll(RUNS)) {
    if (isUnspaced(run)) runTerms(run, visit)
    else visit(run, 'word')
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
  const cut: string[] = []
  grams([...run], 2, cut)
  return cut
}

/** One term a query needs. */
export interface QueryTerm {
  readonly term: string
  /** Whether an index term that starts with it matches too. */
  readonly prefix: boolean
  /** For a term of a Chinese or Japanese run that gives several terms (runs of three): the run's number in the query. A run's terms stand next to each other in any text that holds the run. */
  readonly run?: number
}

/** The terms a content query needs, every one of them: words as typed, the last one also as a prefix; a Chinese or Japanese run as its pairs of characters (a single character as a prefix). A query with no term, or one that is only a single Latin letter or digit, or one past {@link MAX_QUERY_LENGTH} or {@link MAX_QUERY_TERMS}, needs none: it finds no content match. `query`: the text typed after `@`, or inside `@"…"`. Returns the terms; empty when the query does not search content. */
export function queryTerms(query: string): QueryTerm[] {
  if (query.length > MAX_QUERY_LENGTH) return []
  const runs = [...fold(query).matchAll(RUNS)].map(([run]) => run)
  const terms: QueryTerm[] = []
  runs.forEach((run, n) => {
    if (isUnspaced(run)) {
      const cut: string[] = []
      grams([...run], 3, cut)
      for (const term of cut) terms.push(cut.length > 1 ? { term, prefix: false, run: n } : { term, prefix: [...term].length === 1 })
    } else {
      terms.push({ term: run, prefix: n === runs.length - 1 })
    }
  })
  if (terms.length > MAX_QUERY_TERMS) return []
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
