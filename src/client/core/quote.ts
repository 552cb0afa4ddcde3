/**
 * Quotes of the conversation.
 * @module @wishp3/dsh-sessions/client/core/quote
 */

/** Longest quote, in Unicode code points, before the truncation marker. */
export const QUOTE_LIMIT = 16_000

export const QUOTE_SOURCE = 'dsh-sessions-quote'

/** The quote a selection becomes: line endings as `\n`, trimmed, and cut after `limit` code points (never inside a surrogate pair) with `marker` appended. Returns the quote text; empty when the selection is blank. */
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

/** The Markdown quote the model reads: `> ` before every line, `>` alone for an empty line. */
export function toMarkdownQuote(text: string): string {
  return text.split('\n').map(line => (line === '' ? '>' : `> ${line}`)).join('\n')
}

/** What a quote chip stands for when sent or copied: its quote lines, each ending in a line break. The chip sits on a line of its own in the draft, so the line break the draft keeps after the chip makes the empty line that ends the block. */
export function quoteBlock(text: string): string {
  return `${toMarkdownQuote(text)}\n`
}

export function firstLine(text: string): string {
  return text.split('\n').find(line => line.trim() !== '') ?? ''
}

/** A quote chip's ref: its text and its number in the draft (the `N` of `Quote N`). */
export interface QuoteRef {
  readonly text: string
  readonly n: number
}

export function encodeQuoteRef(quote: QuoteRef): string {
  return JSON.stringify({ kind: 'quote', n: quote.n, text: quote.text })
}

/** Decodes a quote chip's ref. Returns the quote, or `undefined` when the ref is not a quote's. */
export function decodeQuoteRef(ref: string): QuoteRef | undefined {
  try {
    const parsed = JSON.parse(ref) as { kind?: unknown; text?: unknown; n?: unknown }
    if (parsed.kind !== 'quote' || typeof parsed.text !== 'string') return undefined
    if (typeof parsed.n !== 'number' || !Number.isSafeInteger(parsed.n) || parsed.n < 1) return undefined
    return { text: parsed.text, n: parsed.n }
  } catch {
    // Not a quote this plugin wrote: left to the host as it is.
    return undefined
  }
}

/** The number of the next quote chip in a draft: one more than the highest number of the quote chips the draft holds, so a number is never given to two chips at once and a chip keeps its number while it lives. `refs`: the refs of the draft's quote chips. */
export function nextQuoteNumber(refs: Iterable<string>): number {
  let highest = 0
  for (const ref of refs) highest = Math.max(highest, decodeQuoteRef(ref)?.n ?? 0)
  return highest + 1
}
