/**
 * The words of a Chinese or Japanese run of a query, from the ICU word breaker Node.js carries
 * (`Intl.Segmenter`), so each word may stand anywhere in a session, in any order.
 * @module @wishp3/dsh-sessions/host/search/unspaced-words
 */

/** ICU's dictionary break iterator, shared by Chinese and Japanese text. */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

/**
 * The words of an unspaced run: ICU's words, where consecutive single characters (a word its
 * dictionary lacks, such as 校验 or 灰度) are joined into one, and a single character standing alone
 * between longer words (mostly a particle: 的, 了, の) is left out. A run of one word, or of single
 * characters only, is one word. `run`: folded text of unspaced characters. Returns the words in order.
 */
export function unspacedWords(run: string): string[] {
  const segments: string[] = []
  for (const { segment, isWordLike } of segmenter.segment(run)) if (isWordLike === true) segments.push(segment)
  const joined: string[] = []
  let singles = ''
  const close = (): void => {
    if (singles !== '') joined.push(singles)
    singles = ''
  }
  for (const segment of segments) {
    if ([...segment].length === 1) singles += segment
    else {
      close()
      joined.push(segment)
    }
  }
  close()
  const longer = joined.filter(word => [...word].length > 1)
  return longer.length === 0 ? [run] : longer
}
