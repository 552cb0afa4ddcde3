/**
 * A short excerpt of a session's text around the first place a query matches, with every match inside
 * it marked by offsets. The excerpt is plain text (line breaks become spaces).
 * @module @wishp3/dsh-sessions/host/search/text/snippet
 */
import type { Snippet } from '../../../shared/wire.ts'
import { fold, isUnspaced, type QueryTerm, WORD_CHARACTER } from './terms.ts'
import { remembered } from './remembered.ts'

/** Characters (code points) an excerpt holds at most, not counting the ellipses. */
export const SNIPPET_LENGTH = 80

/** Most characters kept before the first match, so the match shows near the start of a narrow row (within the first 20, the ellipsis included). */
export const LEAD = 16

/** Most words (a Chinese or Japanese character counts as one) kept before the first match. */
export const LEAD_WORDS = 3

/** Longest stretch of one message searched for a match. */
const MAX_SCANNED = 64 * 1024


/** Folded text with, for each of its UTF-16 units, the offset of the code point it came from (`undefined`: the same offset). */
interface Folded {
  readonly text: string
  readonly origin: readonly number[] | undefined
}

const ASCII = /^[\x00-\x7f]*$/

/** What may make a text's fold differ from it in length at some character: marks (removed, or composed with what they follow), conjoining Hangul jamo (composed into syllables), the dotted capital I (lower-cased to two units). */
const UNEVEN = /[\p{M}\u0130\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]/u

/** A character of two UTF-16 units. */
const SURROGATE = /[\ud800-\udfff]/

/** Whether folding `text` changed each of its characters into exactly one UTF-16 unit, so an offset in the fold is the same offset in the text: with no character of two units, and none of {@link UNEVEN}, no character folds to fewer units, so a fold of the same length has none that folds to more. */
function oneForOne(text: string, folded: string): boolean {
  return folded.length === text.length && !SURROGATE.test(text) && !UNEVEN.test(text)
}

/** A character folded through {@link fold}, remembered for the characters seen so far (a few thousand distinct ones in practice). */
const foldedOnce = remembered(fold, 20_000)

/** One character folded: ASCII by its case alone, others through {@link fold}, remembered. */
function foldChar(char: string): string {
  const code = char.charCodeAt(0)
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : char
  return foldedOnce(char)
}

function foldWithOrigin(text: string): Folded {
  let folded = ''
  const origin: number[] = []
  let offset = 0
  for (const char of text) {
    const piece = foldChar(char)
    folded += piece
    for (let n = 0; n < piece.length; n += 1) origin.push(offset)
    offset += char.length
  }
  return { text: folded, origin }
}

/** Folded-text ranges where a term matches: a word at word boundaries (its start only, for a prefix); an unspaced term anywhere. */
function matches(folded: string, term: QueryTerm): [number, number][] {
  const found: [number, number][] = []
  const word = !isUnspaced(term.term)
  for (let at = folded.indexOf(term.term); at >= 0; at = folded.indexOf(term.term, at + 1)) {
    const end = at + term.term.length
    if (word) {
      if (at > 0 && WORD_CHARACTER.test(folded[at - 1]!)) continue
      if (!term.prefix && end < folded.length && WORD_CHARACTER.test(folded[end]!)) continue
    }
    found.push([at, end])
  }
  return found
}

/** Whether folded text holds a term, as {@link snippetOf} marks it. */
export function holdsTerm(folded: string, term: QueryTerm): boolean {
  return matches(folded, term).length > 0
}

function merged(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const out: [number, number][] = []
  for (const range of sorted) {
    const last = out[out.length - 1]
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
    else out.push([...range])
  }
  return out
}

/** Whether a character may start a word: a Chinese or Japanese character always does, a letter or digit after anything else. */
function startsWord(char: (k: number) => string, k: number): boolean {
  const here = char(k)
  if (isUnspaced(here)) return true
  if (!WORD_CHARACTER.test(here)) return false
  return k === 0 || !WORD_CHARACTER.test(char(k - 1)) || isUnspaced(char(k - 1))
}

/** Where an excerpt starts: at the start of a word at most {@link LEAD_WORDS} words and {@link LEAD} characters before the first match (never inside a word), or at the match itself. `char`: the text's character (code point) at an index. `first`: the index of the match's first character. */
/** What ends a phrase: a space or a punctuation mark, in any script. */
const PHRASE_END = /[\s\p{P}]/u

/** Where an excerpt of unspaced text (Chinese, Japanese) starts: just after the nearest space or punctuation mark within {@link LEAD} characters before the match; at the text's start when that is as near; else at the match itself, never inside a phrase. */
function phraseStart(char: (k: number) => string, first: number): number {
  for (let k = first - 1; k >= 0 && first - k <= LEAD; k -= 1) {
    if (!PHRASE_END.test(char(k))) continue
    let start = k + 1
    while (start < first && PHRASE_END.test(char(start))) start += 1
    return start
  }
  return first <= LEAD ? 0 : first
}

function leadStart(char: (k: number) => string, first: number): number {
  const here = char(first) as string | undefined
  if (here !== undefined && isUnspaced(here)) return phraseStart(char, first)
  let start = first
  let words = 0
  for (let k = first - 1; k >= 0 && first - k <= LEAD && words < LEAD_WORDS; k -= 1) {
    if (!startsWord(char, k)) continue
    words += 1
    start = k
  }
  return start
}

/** The excerpt around the first match, in message order, of any query term. Returns the excerpt, its marked ranges (UTF-16 offsets into it) and the number of the message it is from (from 1); `undefined` when no message matches. */
export function snippetOf(messages: readonly string[], terms: readonly QueryTerm[]): Snippet | undefined {
  for (const [index, message] of messages.entries()) {
    const source = message.length > MAX_SCANNED ? message.slice(0, MAX_SCANNED) : message
    // Folding the whole message is cheap; folding it character by character, to map matches back, is not.
    // ASCII text folds to its lower case, one unit for one: its offsets need no map.
    const ascii = ASCII.test(source)
    const quick = ascii ? source.toLowerCase() : fold(source)
    if (!terms.some(term => quick.includes(term.term))) continue
    // Text of one UTF-16 unit per character that folds unit for unit (see `oneForOne`) maps back like ASCII: no per-character fold, no offset table.
    const simple = ascii || oneForOne(source, quick)
    const folded = simple ? { text: quick, origin: undefined } : foldWithOrigin(source)
    const ranges = merged(terms.flatMap(term => matches(folded.text, term)))
    if (ranges.length === 0) continue
    const origin = (at: number): number => (folded.origin === undefined ? Math.min(at, source.length) : at >= folded.origin.length ? source.length : folded.origin[at]!)
    const marks = ranges.map(([start, end]) => [origin(start), end >= folded.text.length ? source.length : origin(end)] as [number, number])
    // ASCII text: a character is one unit, so its offsets are its indexes and need no table.
    const chars = simple ? undefined : [...source]
    let offsets: ((k: number) => number) | undefined
    if (chars !== undefined) {
      const table: number[] = []
      let offset = 0
      for (const char of chars) {
        table.push(offset)
        offset += char.length
      }
      table.push(offset)
      offsets = k => table[k]!
    }
    const offsetOf = offsets ?? ((k: number) => k)
    const count = chars === undefined ? source.length : chars.length
    let firstChar = 0
    if (chars === undefined) firstChar = Math.min(marks[0]![0], count)
    else while (firstChar < count && offsetOf(firstChar) < marks[0]![0]) firstChar += 1
    const startChar = leadStart(chars === undefined ? (k: number) => source[k]! : (k: number) => chars[k]!, firstChar)
    const endChar = Math.min(count, startChar + SNIPPET_LENGTH)
    const from = offsetOf(startChar)
    const to = offsetOf(endChar)
    const head = startChar > 0 ? '…' : ''
    const text = head + source.slice(from, to).replace(/[\r\n\t]/g, ' ') + (endChar < count ? '…' : '')
    const inside = marks
      .filter(([start, end]) => end > from && start < to)
      .map(([start, end]) => [Math.max(start, from) - from + head.length, Math.min(end, to) - from + head.length] as const)
    return { text, marks: inside, message: index + 1 }
  }
  return undefined
}

/** A group of a query as a message is tested for it: a Chinese or Japanese word or a quoted phrase, which must stand whole (`run`: its folded text); or a word (`typed`: as asked, a prefix where the query says so; `others`: its other forms, as whole words). */
export type MatchedGroup = { readonly run: string } | { readonly typed: readonly QueryTerm[]; readonly others: readonly QueryTerm[] }

/** How much one match of a word in another form counts, against one as typed. */
export const OTHER_FORM_WEIGHT = 0.5

/** How much a message matches a query that it matches whole: every group held (a run standing whole, a word as typed or in another form at word boundaries), each match counted, one in another form at {@link OTHER_FORM_WEIGHT}. Returns 0 when a group is missing. */
export function weighedMatchCount(message: string, groups: readonly MatchedGroup[]): number {
  const source = message.length > MAX_SCANNED ? message.slice(0, MAX_SCANNED) : message
  const folded = ASCII.test(source) ? source.toLowerCase() : fold(source)
  let count = 0
  for (const group of groups) {
    let found = 0
    if ('run' in group) {
      for (let at = folded.indexOf(group.run); at >= 0; at = folded.indexOf(group.run, at + group.run.length)) found += 1
    } else {
      for (const term of group.typed) found += matches(folded, term).length
      for (const term of group.others) found += OTHER_FORM_WEIGHT * matches(folded, term).length
    }
    if (found === 0) return 0
    count += found
  }
  return count
}
