/**
 * An excerpt's matches, emphasised in plain text.
 * @module @wishp3/dsh-sessions/client/core/snippet
 */
export interface MarkedText {
  readonly text: string
  readonly marks: readonly (readonly [number, number])[]
  /** For a partial match: the query's words the session lacks. */
  readonly missing?: readonly string[]
}

/** An excerpt's text, for a partial match after the note of the words it lacks: first, so a narrow row that cuts the excerpt still shows it. `note`: the locale's note for the words, joined. Returns the text. */
export function withMissing(shown: string, missing: readonly string[] | undefined, note: (words: string) => string): string {
  return missing === undefined || missing.length === 0 ? shown : `${note(missing.join(' '))} · ${shown}`
}

/** The excerpt with its matches between marks. `snippet`: the excerpt and its marked ranges (UTF-16 offsets, ascending, disjoint). Returns the text; ranges out of order or out of bounds are ignored. */
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

/** Where the matches of known excerpts fall in a text that may show them, as a row shows an excerpt followed by more words. Returns the matches' UTF-16 `[start, end)` offsets into `data`; ranges of an excerpt out of order or bounds are left out. */
export function matchesIn(data: string, excerpts: Iterable<MarkedText>): [number, number][] {
  const found: [number, number][] = []
  for (const excerpt of excerpts) {
    if (excerpt.text === '') continue
    const at = data.indexOf(excerpt.text)
    if (at < 0) continue
    let after = 0
    for (const [start, end] of excerpt.marks) {
      if (start < after || end <= start || end > excerpt.text.length) continue
      found.push([at + start, at + end])
      after = end
    }
  }
  return found
}
