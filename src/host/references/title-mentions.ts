/**
 * Typed `@Title` mentions: an `@` followed by a known title, matched case-insensitively and in NFC, in
 * CJK text as in spaced text.
 * @module @wishp3/dsh-sessions/host/references/title-mentions
 */
import { type Span, SpanLookup } from './spans.ts'
import { TitleCatalog } from './title-catalog.ts'

/** An `@` followed by a known title, matched case-insensitively and in NFC. */
export interface TitleMention {
  /** Offset of the `@`. */
  readonly start: number
  readonly end: number
  /** The catalog title that matched (as given, not as written). */
  readonly title: string
}

const ID_CHAR = /[A-Za-z0-9_-]/

/** What may follow a title: end of text, whitespace, punctuation, or a character of the Han, Hiragana, Katakana or Hangul script (by script extension, so `ー` and `々` count), which CJK text writes without spaces. */
const TITLE_END = /^[\s\p{P}\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]$/u

/** Characters that NFC may compose with the character before them: combining marks and the Hangul vowel and final jamo. A text is normalized one run (a character and the joiners after it) at a time, so offsets map back. */
const JOINER = /^[\p{M}\u1160-\u11FF\uD7B0-\uD7FF]$/u

/** A text in NFC and, for each NFC offset where a run starts, the offset of that run in the text. */
interface NfcView {
  readonly text: string
  readonly toSource: (offset: number) => number | undefined
}

function nfcView(text: string): NfcView {
  const nfc = text.normalize('NFC')
  if (nfc === text) return { text, toSource: offset => offset }
  const starts = new Map<number, number>()
  let out = ''
  let runStart = 0
  const flush = (end: number) => {
    starts.set(out.length, runStart)
    out += text.slice(runStart, end).normalize('NFC')
    runStart = end
  }
  for (let index = 0; index < text.length;) {
    const point = String.fromCodePoint(text.codePointAt(index)!)
    if (index > 0 && !JOINER.test(point)) flush(index)
    index += point.length
  }
  flush(text.length)
  starts.set(out.length, text.length)
  // A composition this run split does not know would change the text: compare as written.
  if (out !== nfc) return { text, toSource: offset => offset }
  return { text: out, toSource: offset => starts.get(offset) }
}

function followsTitle(text: string, end: number): boolean {
  if (end === text.length) return true
  return TITLE_END.test(String.fromCodePoint(text.codePointAt(end)!))
}

/** Finds `@Title` mentions: at each `@` that does not follow an id character, the longest catalog title written right after it that ends at the end of the text, whitespace, punctuation or a CJK character. Titles and text are compared in NFC and case-insensitively (see `titleKey`); offsets are the text's own. */
export function scanTitleMentions(text: string, titles: readonly string[], masked: readonly Span[] = []): TitleMention[] {
  const found: TitleMention[] = []
  if (titles.length === 0 || !text.includes('@')) return found
  const catalog = new TitleCatalog(titles)
  const claimed = new SpanLookup(masked)
  const view = nfcView(text)
  const typed = view.text
  let at = typed.indexOf('@')
  while (at !== -1) {
    const start = view.toSource(at)!
    const previous = at > 0 ? typed[at - 1] : undefined
    let best: { title: string; length: number; end: number } | undefined
    if ((previous === undefined || !ID_CHAR.test(previous)) && !claimed.overlaps(start, start + 1)) {
      for (const { key, title, nfc } of catalog.prefixesAt(typed, at + 1)) {
        const end = at + 1 + nfc.length
        // Folding can lengthen a character (`İ` folds to `i` and a combining dot): such a title may run past the text.
        if (end > typed.length || typed.slice(at + 1, end).toLowerCase() !== key || !followsTitle(typed, end)) continue
        const sourceEnd = view.toSource(end)
        if (sourceEnd !== undefined) {
          best = { title, length: nfc.length, end: sourceEnd }
          break
        }
      }
    }
    if (best !== undefined && !claimed.overlaps(start, best.end)) {
      found.push({ start, end: best.end, title: best.title })
      at = typed.indexOf('@', at + 1 + best.length)
    } else {
      at = typed.indexOf('@', at + 1)
    }
  }
  return found
}
