/**
 * The texts of a list joined into one string: the items holding a piece of text are found by one native scan, not a walk of every item.
 * @module @wishp3/dsh-sessions/host/sessions/joined-text
 */

/** Stands between two items' texts; a piece of text holding it is looked for item by item. */
const SEPARATOR = '\u0000'

/** One text per item of a list, searchable at once. */
export class JoinedText {
  private readonly joined: string
  /** Where each item's text starts in {@link joined}, ascending. */
  private readonly starts: Int32Array

  constructor(texts: readonly string[]) {
    this.starts = new Int32Array(texts.length)
    let at = 0
    texts.forEach((text, n) => {
      this.starts[n] = at
      at += text.length + SEPARATOR.length
    })
    this.joined = texts.join(SEPARATOR)
  }

  /** The positions in the list of the items whose text holds `piece`, ascending. An empty piece is held by every item. */
  holding(piece: string): number[] {
    if (piece === '' || piece.includes(SEPARATOR)) return Array.from(this.starts, (_, n) => n).filter(n => this.textAt(n).includes(piece))
    const found: number[] = []
    for (let at = this.joined.indexOf(piece); at >= 0;) {
      const item = this.itemAt(at)
      found.push(item)
      at = this.joined.indexOf(piece, this.endOf(item))
    }
    return found
  }

  /** The positions of the items whose text holds every piece, ascending; none when no piece is given. */
  holdingEvery(pieces: readonly string[]): number[] {
    if (pieces.length === 0) return []
    // The longest piece is likely the rarest: the others are checked only in the items it is in.
    const [first, ...rest] = [...pieces].sort((a, b) => b.length - a.length)
    return this.holding(first!).filter(n => rest.every(piece => this.textAt(n).includes(piece)))
  }

  /** Where item `n`'s text ends in the joined string. */
  private endOf(n: number): number {
    return n + 1 < this.starts.length ? this.starts[n + 1]! - SEPARATOR.length : this.joined.length
  }

  /** Item `n`'s text. */
  private textAt(n: number): string {
    return this.joined.slice(this.starts[n]!, this.endOf(n))
  }

  /** The item whose text spans position `at` of the joined string. */
  private itemAt(at: number): number {
    let [low, high] = [0, this.starts.length - 1]
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (this.starts[middle]! <= at) low = middle
      else high = middle - 1
    }
    return low
  }
}
