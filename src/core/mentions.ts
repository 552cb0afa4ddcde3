/**
 * Scanner for the three ways a message names another session: canonical
 * mentions (`@[label](dsh-session:…)` and bare `dsh-session:…` URIs, the
 * official grammar), bare session ids, and typed `@Title` mentions. Pure: it
 * finds spans and leaves deciding what they name to the caller.
 * @module @wishp3/dsh-sessions/core/mentions
 */

/** Scheme of the official canonical session URI. */
export const SESSION_URI_SCHEME = 'dsh-session:'

/** A canonical mention or bare canonical URI, with offsets into the scanned text. */
export interface CanonicalMention {
  readonly start: number
  readonly end: number
  /** Unescaped label; `undefined` for a bare `dsh-session:` URI. */
  readonly label: string | undefined
  /** The `dsh-session:` URI as written. */
  readonly uri: string
}

/** A bare session id: a maximal `[A-Za-z0-9_-]` run in one of the host's id forms. */
export interface BareSessionId {
  readonly start: number
  readonly end: number
  readonly id: string
}

/** An `@` followed by a known title, matched case-insensitively. */
export interface TitleMention {
  /** Offset of the `@`. */
  readonly start: number
  readonly end: number
  /** The catalog title that matched (as given, not as written). */
  readonly title: string
}

/** Same grammar as the official session-reference parser, so nothing it would parse escapes this scanner. */
const CANONICAL = /@\[((?:\\.|[^\\\]])*)\]\((dsh-session:[^\s)]*)\)|(dsh-session:[A-Za-z0-9_-]+)/gu

const ID_RUN = /[A-Za-z0-9_-]+/g

/**
 * Id forms the rc.8 host mints: `session-<uuid>` (web, headless),
 * `session-<32 hex>` (SDK client), `session-<n>` (core store default) and
 * `<agent>-session-<uuid>` (configured agents).
 */
const SESSION_ID = /^(?:[A-Za-z0-9_-]+-)?session-(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}|[0-9]+)$/

const ID_CHAR = /[A-Za-z0-9_-]/

/** What may follow a title: end of text, whitespace or punctuation. */
const TITLE_END = /[\s\p{P}]/u

/** Word joiner: inserted after the scheme name so no later parser reads a URI. */
const WORD_JOINER = '\u2060'

/**
 * Finds canonical mentions and bare canonical URIs.
 * @param text - message text.
 * @returns the mentions in text order.
 */
export function scanCanonicalMentions(text: string): CanonicalMention[] {
  const found: CanonicalMention[] = []
  for (const match of text.matchAll(CANONICAL)) {
    const start = match.index
    const end = start + match[0].length
    if (match[3] !== undefined) {
      found.push({ start, end, label: undefined, uri: match[3] })
    } else {
      found.push({ start, end, label: unescapeLabel(match[1] ?? ''), uri: match[2] ?? '' })
    }
  }
  return found
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
  for (const match of text.matchAll(ID_RUN)) {
    const start = match.index
    const end = start + match[0].length
    if (!SESSION_ID.test(match[0]) || overlaps(masked, start, end)) continue
    found.push({ start, end, id: match[0] })
  }
  return found
}

/**
 * Finds `@Title` mentions: at each `@` that does not follow an id character,
 * the longest catalog title written right after it (case-insensitive) that
 * ends at the end of the text, whitespace or punctuation.
 * @param text - message text.
 * @param titles - catalog titles; empty ones are ignored.
 * @param masked - spans already claimed (canonical mentions).
 * @returns the matches in text order.
 */
export function scanTitleMentions(text: string, titles: readonly string[], masked: readonly Span[] = []): TitleMention[] {
  const found: TitleMention[] = []
  if (titles.length === 0) return found
  let at = text.indexOf('@')
  while (at !== -1) {
    const previous = at > 0 ? text[at - 1] : undefined
    let best: string | undefined
    if ((previous === undefined || !ID_CHAR.test(previous)) && !overlaps(masked, at, at + 1)) {
      for (const title of titles) {
        if (title.length === 0 || (best !== undefined && title.length <= best.length)) continue
        const end = at + 1 + title.length
        if (end > text.length) continue
        if (text.slice(at + 1, end).toLowerCase() !== title.toLowerCase()) continue
        const next = text[end]
        if (next !== undefined && !TITLE_END.test(next)) continue
        best = title
      }
    }
    if (best !== undefined && !overlaps(masked, at, at + 1 + best.length)) {
      found.push({ start: at, end: at + 1 + best.length, title: best })
      at = text.indexOf('@', at + 1 + best.length)
    } else {
      at = text.indexOf('@', at + 1)
    }
  }
  return found
}

/**
 * Makes every `dsh-session:` in a text inert for URI parsers without a
 * visible change: a word joiner goes between the scheme name and its colon.
 * @param text - readable text.
 * @returns the same text with no parseable session URI.
 */
export function defuseSessionUris(text: string): string {
  return text.replaceAll(SESSION_URI_SCHEME, `dsh-session${WORD_JOINER}:`)
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

function overlaps(spans: readonly Span[], start: number, end: number): boolean {
  return spans.some(span => span.start < end && start < span.end)
}

function unescapeLabel(label: string): string {
  return label.replace(/\\(.)/gsu, '$1')
}
