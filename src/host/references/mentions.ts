/**
 * Scanner for the three ways a message names another session: canonical
 * mentions (`@[label](dsh-session:…)` and bare `dsh-session:…` URIs, read by
 * the official session-reference parser), bare session ids, and typed
 * `@Title` mentions. Pure: it finds spans and leaves deciding what they name
 * to the caller.
 * @module @wishp3/dsh-sessions/host/references/mentions
 */
import { SessionId } from '@deepseek-ai/dsh-session'
import {
  encodeSessionReferenceUri, parseSessionReferenceText, SESSION_REFERENCE_SCHEME, type SessionReferenceInput,
} from '@deepseek-ai/dsh-session-reference'
import { labelEnds } from '../../shared/message-reference.ts'

/** A canonical mention or bare canonical URI, with offsets into the scanned text. */
export interface CanonicalMention {
  readonly start: number
  readonly end: number
  /** The label as the official parser unescapes it; `undefined` for a bare `dsh-session:` URI. */
  readonly label: string | undefined
  /** The `dsh-session:` URI as written. */
  readonly uri: string
  /** The session and label the official parser reads; `undefined` when it refuses the URI. */
  readonly reference: SessionReferenceInput | undefined
  /** Why the official parser refused the URI. */
  readonly error?: unknown
}

/** A bare session id: a maximal `[A-Za-z0-9_-]` run in one of the host's id forms. */
export interface BareSessionId {
  readonly start: number
  readonly end: number
  readonly id: string
}

/** An `@` followed by a known title, matched case-insensitively and in NFC. */
export interface TitleMention {
  /** Offset of the `@`. */
  readonly start: number
  readonly end: number
  /** The catalog title that matched (as given, not as written). */
  readonly title: string
}

/**
 * Where the official parser finds a mention: `@[label](<scheme>…)` or a bare
 * `<scheme><base64url>`. rc.8 keeps its pattern private, so
 * {@link findCanonicalSpans} restates it to find the offsets the parser does
 * not report; each span found is then read by `parseSessionReferenceText`
 * itself, and a property test holds the spans to what that function parses
 * and to the pattern as a regular expression.
 *
 * The pattern, run as a regular expression, rescans to the end of the text
 * from every unclosed `@[`, so `'@['.repeat(n)` costs n² steps. The label and
 * URI grammar is deterministic (a backslash always escapes the next
 * character; a label ends at its first unescaped `]`; a URI at its first
 * space or `)`), and every `@[` starts the label on a token boundary, so
 * where each label and URI would end is computed once for the whole text,
 * right to left, and every scan is linear whatever the text holds.
 */
interface CanonicalSpan {
  readonly start: number
  readonly end: number
  /** The label as written, for `@[label](…)`; `undefined` for a bare URI. */
  readonly raw: string | undefined
  readonly uri: string
}

/** What ends a labelled mention's URI, besides `)`: a regular expression's `\s`. */
const URI_STOP = /^\s$/u

const BASE64URL = /^[A-Za-z0-9_-]$/

/** No label end from here (see `labelEnds`). */
const NONE = -1

/**
 * Finds the spans the official pattern matches, in its order and with its
 * leftmost-first choice, in time linear in the text.
 * @param text - message text.
 * @returns the matched spans.
 */
export function findCanonicalSpans(text: string): CanonicalSpan[] {
  const found: CanonicalSpan[] = []
  let ends: Int32Array | undefined
  /** For every offset, the first offset at or after it holding a space or `)`; filled on first need. */
  let uriStops: Int32Array | undefined
  const uriStop = (from: number): number => {
    if (uriStops === undefined) {
      uriStops = new Int32Array(text.length + 1).fill(text.length)
      for (let at = text.length - 1; at >= 0; at -= 1) {
        const char = text[at]!
        uriStops[at] = char === ')' || URI_STOP.test(char) ? at : uriStops[at + 1]!
      }
    }
    return uriStops[from]!
  }
  // The next `@[` and the next scheme name at or after `at`, each looked for again only once `at` passes it.
  let mention = -2
  let bare = -2
  let at = 0
  while (at < text.length) {
    if (mention !== -1 && mention < at) mention = text.indexOf('@[', at)
    if (bare !== -1 && bare < at) bare = text.indexOf(SESSION_REFERENCE_SCHEME, at)
    if (mention === -1 && bare === -1) break
    if (mention !== -1 && (bare === -1 || mention < bare)) {
      ends ??= labelEnds(text)
      const close = ends[mention + 2]!
      const scheme = close + 2
      if (close !== NONE && text[close + 1] === '(' && text.startsWith(SESSION_REFERENCE_SCHEME, scheme)) {
        const stop = uriStop(scheme + SESSION_REFERENCE_SCHEME.length)
        if (stop < text.length && text[stop] === ')') {
          found.push({ start: mention, end: stop + 1, raw: text.slice(mention + 2, close), uri: text.slice(scheme, stop) })
          at = stop + 1
          continue
        }
      }
      at = mention + 1
      continue
    }
    let end = bare + SESSION_REFERENCE_SCHEME.length
    while (end < text.length && BASE64URL.test(text[end]!)) end += 1
    if (end > bare + SESSION_REFERENCE_SCHEME.length) {
      found.push({ start: bare, end, raw: undefined, uri: text.slice(bare, end) })
      at = end
    } else {
      at = bare + 1
    }
  }
  return found
}

/** A canonical URI, for reading a refused mention's label through the official parser. */
const STAND_IN_URI = encodeSessionReferenceUri(SessionId('label'))

const ID_RUN = /[A-Za-z0-9_-]+/g

/**
 * Id forms the rc.8 host mints: `session-<uuid>` (web, headless),
 * `session-<32 hex>` (SDK client), `session-<n>` (core store default) and
 * `<agent>-session-<uuid>` (configured agents).
 */
const SESSION_ID = /^(?:[A-Za-z0-9_-]+-)?session-(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}|[0-9]+)$/

/** Longest id {@link isSessionId} accepts, so a check of hostile input stays bounded. */
const MAX_SESSION_ID = 256

/**
 * Whether a string is a whole session id of a form the rc.8 host mints.
 * @param value - the string.
 * @returns true for a session id.
 */
export function isSessionId(value: string): boolean {
  return value.length <= MAX_SESSION_ID && SESSION_ID.test(value)
}

const ID_CHAR = /[A-Za-z0-9_-]/

/**
 * What may follow a title: end of text, whitespace, punctuation, or a
 * character of the Han, Hiragana, Katakana or Hangul script (by script
 * extension, so `ー` and `々` count), which CJK text writes without spaces.
 */
const TITLE_END = /^[\s\p{P}\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]$/u

/**
 * Characters that NFC may compose with the character before them: combining
 * marks and the Hangul vowel and final jamo. A text is normalized one run
 * (a character and the joiners after it) at a time, so offsets map back.
 */
const JOINER = /^[\p{M}\u1160-\u11FF\uD7B0-\uD7FF]$/u

/** Word joiner: inserted after the scheme name so no later parser reads a URI. */
const WORD_JOINER = '\u2060'

/** The one mention the official parser reads in `text`, or why it refuses it. */
function officialReading(text: string): { reference: SessionReferenceInput | undefined; error?: unknown } {
  try {
    return { reference: parseSessionReferenceText(text).references[0] }
  } catch (error) {
    return { reference: undefined, error }
  }
}

/**
 * Finds canonical mentions and bare canonical URIs, each read by the official
 * parser: the session it names and its label, or why the parser refuses it.
 * @param text - message text.
 * @returns the mentions in text order.
 */
export function scanCanonicalMentions(text: string): CanonicalMention[] {
  return findCanonicalSpans(text).map(({ start, end, raw, uri }) => {
    const reading = officialReading(text.slice(start, end))
    if (raw === undefined) return { start, end, label: undefined, uri, ...reading }
    const label = reading.reference?.label ?? officialReading(`@[${raw}](${STAND_IN_URI})`).reference?.label ?? raw
    return { start, end, label, uri, ...reading }
  })
}

/**
 * Finds bare session ids outside the given spans. A run of `[A-Za-z0-9_-]`
 * counts only as a whole, so an id never matches with an id character on
 * either side.
 * @param text - message text.
 * @param masked - spans already claimed (canonical mentions, titles).
 * @returns the ids in text order.
 */
export function scanBareSessionIds(text: string, masked: readonly Span[] = []): BareSessionId[] {
  const found: BareSessionId[] = []
  const claimed = new SpanLookup(masked)
  for (const match of text.matchAll(ID_RUN)) {
    const start = match.index
    const end = start + match[0].length
    if (!SESSION_ID.test(match[0]) || claimed.overlaps(start, end)) continue
    found.push({ start, end, id: match[0] })
  }
  return found
}

/**
 * The form two titles, or a title and typed text, are compared in: NFC, lower
 * case. Two titles with the same key are the same title.
 * @param title - a title or typed text.
 * @returns its comparison key.
 */
export function titleKey(title: string): string {
  return title.normalize('NFC').toLowerCase()
}

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

/**
 * Finds `@Title` mentions: at each `@` that does not follow an id character,
 * the longest catalog title written right after it that ends at the end of
 * the text, whitespace, punctuation or a CJK character. Titles and text are
 * compared in NFC and case-insensitively (see {@link titleKey}); offsets are
 * the text's own.
 * @param text - message text.
 * @param titles - catalog titles; empty ones are ignored.
 * @param masked - spans already claimed (canonical mentions).
 * @returns the matches in text order.
 */
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

/** One catalog title: its comparison key, the first title given with that key, and its NFC form. */
interface CatalogTitle {
  readonly key: string
  readonly title: string
  readonly nfc: string
}

interface TrieNode {
  readonly next: Map<string, TrieNode>
  /** Titles whose folded form ends here. */
  readonly titles: CatalogTitle[]
}

/** Case folding one code point at a time, with both sigmas as one, so it needs no context. */
function fold(point: string): string {
  return point.toLowerCase().replaceAll('ς', 'σ')
}

/**
 * The titles in a prefix tree of their folded code points, so finding the
 * titles written at one offset costs at most the length of the longest one,
 * however many titles there are. Folding per code point is coarser than the
 * comparison key, so the tree only proposes; the caller decides with the key.
 */
class TitleCatalog {
  private readonly root: TrieNode = { next: new Map(), titles: [] }

  constructor(titles: readonly string[]) {
    const seen = new Set<string>()
    for (const title of titles) {
      const key = titleKey(title)
      if (key === '' || seen.has(key)) continue
      seen.add(key)
      const nfc = title.normalize('NFC')
      let node = this.root
      for (const point of nfc) {
        for (const unit of fold(point)) {
          let child = node.next.get(unit)
          if (child === undefined) node.next.set(unit, child = { next: new Map(), titles: [] })
          node = child
        }
      }
      node.titles.push({ key, title, nfc })
    }
  }

  /**
   * The titles whose folded form is written at `offset`, ending on a code point boundary, longest first.
   * @param text - the text, in NFC.
   * @param offset - where a title would start.
   * @returns candidate titles, longest first.
   */
  prefixesAt(text: string, offset: number): CatalogTitle[] {
    const found: CatalogTitle[] = []
    let node: TrieNode | undefined = this.root
    for (let index = offset; index < text.length && node !== undefined;) {
      const point = String.fromCodePoint(text.codePointAt(index)!)
      index += point.length
      for (const unit of fold(point)) {
        node = node.next.get(unit)
        if (node === undefined) break
      }
      if (node !== undefined) found.push(...node.titles)
    }
    return found.sort((a, b) => b.nfc.length - a.nfc.length)
  }
}

/**
 * Makes every `dsh-session:` in a text inert for URI parsers without a
 * visible change: a word joiner goes between the scheme name and its colon.
 * @param text - readable text.
 * @returns the same text with no parseable session URI.
 */
export function defuseSessionUris(text: string): string {
  return text.replaceAll(SESSION_REFERENCE_SCHEME, `${SESSION_REFERENCE_SCHEME.slice(0, -1)}${WORD_JOINER}:`)
}

/** Most characters the official parser may rescan over all of a text's unclosed `@[`s; see {@link boundLabelScans}. */
const MAX_LABEL_SCAN = 262_144

/**
 * Keeps the official parser's scan of a text linear. That parser (which the
 * host's own session-reference step runs on every user message after this
 * plugin's step) rescans from every `@[` to where its label would end, so a
 * text of many unclosed `@[`s costs it quadratic time. When those rescans
 * would cover more than {@link MAX_LABEL_SCAN} characters, a word joiner goes
 * between every `@` and `[`: no visible change, and no `@[` left to rescan.
 * Only for a text that holds no canonical mention (every one was already
 * rewritten), so nothing it names changes.
 * @param text - readable text.
 * @returns the text, with `@[` split where it would be costly to scan.
 */
export function boundLabelScans(text: string): string {
  let at = text.indexOf('@[')
  if (at === -1) return text
  const ends = labelEnds(text)
  let cost = 0
  for (; at !== -1; at = text.indexOf('@[', at + 1)) {
    const end = ends[at + 2]!
    cost += (end === NONE ? text.length : end) - at
    if (cost > MAX_LABEL_SCAN) return text.replaceAll('@[', `@${WORD_JOINER}[`)
  }
  return text
}

/** A replacement of one span of a text. */
export interface SpanEdit extends Span {
  readonly text: string
}

/**
 * Applies non-overlapping edits.
 * @param text - the original text.
 * @param edits - spans of `text` and their replacements, in any order.
 * @returns the edited text.
 */
export function applySpanEdits(text: string, edits: readonly SpanEdit[]): string {
  let out = ''
  let cursor = 0
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    out += text.slice(cursor, edit.start) + edit.text
    cursor = edit.end
  }
  return out + text.slice(cursor)
}

/** A half-open `[start, end)` range of a text. */
export interface Span {
  readonly start: number
  readonly end: number
}

/**
 * Spans to test others against, in logarithmic time per test however many
 * there are: sorted by start, with the furthest end among each prefix.
 */
class SpanLookup {
  private readonly starts: number[]
  private readonly reach: number[]

  constructor(spans: readonly Span[]) {
    const sorted = [...spans].sort((a, b) => a.start - b.start)
    this.starts = sorted.map(span => span.start)
    this.reach = []
    let furthest = -1
    for (const span of sorted) this.reach.push(furthest = Math.max(furthest, span.end))
  }

  /** Whether any span overlaps `[start, end)`. */
  overlaps(start: number, end: number): boolean {
    let low = 0
    let high = this.starts.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (this.starts[middle]! < end) low = middle + 1
      else high = middle
    }
    return low > 0 && this.reach[low - 1]! > start
  }
}
