/**
 * Canonical mentions (`@[label](dsh-session:…)`) and bare `dsh-session:…` URIs, found where the
 * official session-reference parser finds them and read by that parser. Pure.
 * @module @wishp3/dsh-sessions/host/references/canonical-mentions
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

/** Where the official parser finds a mention: `@[label](<scheme>…)` or a bare `<scheme><base64url>`. rc.8 keeps its pattern private, so {@link findCanonicalSpans} restates it to find the offsets the parser does not report; each span found is then read by `parseSessionReferenceText` itself, and a property test holds the spans to what that function parses and to the pattern as a regular expression. The pattern, run as a regular expression, rescans to the end of the text from every unclosed `@[`, so `'@['.repeat(n)` costs n² steps. The label and URI grammar is deterministic (a backslash always escapes the next character; a label ends at its first unescaped `]`; a URI at its first space or `)`), and every `@[` starts the label on a token boundary, so where each label and URI would end is computed once for the whole text, right to left, and every scan is linear whatever the text holds. */
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

/** Finds the spans the official pattern matches, in its order and with its leftmost-first choice, in time linear in the text. */
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

/** The one mention the official parser reads in `text`, or why it refuses it. */
function officialReading(text: string): { reference: SessionReferenceInput | undefined; error?: unknown } {
  try {
    return { reference: parseSessionReferenceText(text).references[0] }
  } catch (error) {
    return { reference: undefined, error }
  }
}

/** Finds canonical mentions and bare canonical URIs, each read by the official parser: the session it names and its label, or why the parser refuses it. */
export function scanCanonicalMentions(text: string): CanonicalMention[] {
  return findCanonicalSpans(text).map(({ start, end, raw, uri }) => {
    const reading = officialReading(text.slice(start, end))
    if (raw === undefined) return { start, end, label: undefined, uri, ...reading }
    const label = reading.reference?.label ?? officialReading(`@[${raw}](${STAND_IN_URI})`).reference?.label ?? raw
    return { start, end, label, uri, ...reading }
  })
}
