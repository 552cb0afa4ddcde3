/**
 * Quotes of the conversation (Q2, Q4): the text a selection becomes, its
 * chip ref, and the Markdown quote it is sent as.
 * @module @wishp3/dsh-sessions/core/quote
 */

/** Longest quote, in Unicode code points, before the truncation marker. */
export const QUOTE_LIMIT = 16_000

/** The `@` source name of quote chips; also their codec's routing key. */
export const QUOTE_SOURCE = 'dsh-sessions-quote'

/**
 * The quote a selection becomes: line endings as `\n`, trimmed, and cut
 * after `limit` code points (never inside a surrogate pair) with `marker`
 * appended.
 * @param selection - the selected text.
 * @param marker - the localized truncation marker.
 * @param limit - the code-point limit.
 * @returns the quote text; empty when the selection is blank.
 */
export function quoteText(selection: string, marker: string, limit: number = QUOTE_LIMIT): string {
  const text = selection.replace(/\r\n?/g, '\n').trim()
  let points = 0
  for (let index = 0; index < text.length; points += 1) {
    if (points === limit) return text.slice(0, index) + marker
    const code = text.codePointAt(index)!
    index += code > 0xffff ? 2 : 1
  }
  return text
}

/**
 * The Markdown quote the model reads: `> ` before every line, `>` alone for
 * an empty line.
 * @param text - quote text.
 * @returns the quote block.
 */
export function toMarkdownQuote(text: string): string {
  return text.split('\n').map(line => (line === '' ? '>' : `> ${line}`)).join('\n')
}

/**
 * The first line of a quote, for a one-line preview.
 * @param text - quote text.
 * @returns its first non-empty line.
 */
export function firstLine(text: string): string {
  return text.split('\n').find(line => line.trim() !== '') ?? ''
}

/**
 * Encodes a quote chip's ref.
 * @param text - quote text.
 * @returns the opaque ref.
 */
export function encodeQuoteRef(text: string): string {
  return JSON.stringify({ kind: 'quote', text })
}

/**
 * Decodes a quote chip's ref.
 * @param ref - an opaque ref from {@link encodeQuoteRef}.
 * @returns the quote text, or `undefined` when the ref is not a quote's.
 */
export function decodeQuoteRef(ref: string): string | undefined {
  try {
    const parsed = JSON.parse(ref) as { kind?: unknown; text?: unknown }
    return parsed.kind === 'quote' && typeof parsed.text === 'string' ? parsed.text : undefined
  } catch {
    return undefined
  }
}
