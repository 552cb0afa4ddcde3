/**
 * Spans of a text: half-open ranges, their replacement, and a lookup that tells whether a range
 * overlaps any span already claimed.
 * @module @wishp3/dsh-sessions/host/references/spans
 */

/** A half-open `[start, end)` range of a text. */
export interface Span {
  readonly start: number
  readonly end: number
}

/** A replacement of one span of a text. */
export interface SpanEdit extends Span {
  readonly text: string
}

/** Applies non-overlapping edits. `edits`: spans of `text` and their replacements, in any order. */
export function applySpanEdits(text: string, edits: readonly SpanEdit[]): string {
  let out = ''
  let cursor = 0
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    out += text.slice(cursor, edit.start) + edit.text
    cursor = edit.end
  }
  return out + text.slice(cursor)
}

/** Spans to test others against, in logarithmic time per test however many there are: sorted by start, with the furthest end among each prefix. */
export class SpanLookup {
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
