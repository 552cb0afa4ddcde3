/**
 * An excerpt's matches, emphasised in plain text: each marked range is
 * wrapped in the given opening and closing marks. The result is text for a
 * text node; nothing in it is markup.
 * @module @wishp3/dsh-sessions/client/core/snippet
 */
/** An excerpt and its matched ranges, as the candidates route sends it. */
export interface MarkedText {
  readonly text: string
  readonly marks: readonly (readonly [number, number])[]
}

/**
 * The excerpt with its matches between marks.
 * @param snippet - the excerpt and its marked ranges (UTF-16 offsets, ascending, disjoint).
 * @param open - the mark before a match.
 * @param close - the mark after a match.
 * @returns the text; ranges out of order or out of bounds are ignored.
 */
export function emphasise(snippet: MarkedText, open: string, close: string): string {
  let text = ''
  let at = 0
  for (const [start, end] of snippet.marks) {
    if (start < at || end <= start || end > snippet.text.length) continue
    text += snippet.text.slice(at, start) + open + snippet.text.slice(start, end) + close
    at = end
  }
  return text + snippet.text.slice(at)
}
