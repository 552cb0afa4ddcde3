/**
 * The words of a Chinese or Japanese run of a query, from the ICU word breaker Node.js carries
 * (`Intl.Segmenter`), so each word may stand anywhere in a session, in any order.
 * @module @wishp3/dsh-sessions/host/search/unspaced-words
 */

/** ICU's dictionary break iterator, shared by Chinese and Japanese text. */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

/** Single characters that are particles, not words, in Chinese and Japanese: a query's word of one of them alone is left out. */
const PARTICLES = new Set([...'的了是在和与或及把被让给对也都就还又很吗呢吧啊之其而のはがをにでともへやか'])

/**
 * The words of an unspaced run: ICU's words, where consecutive single characters (a word its
 * dictionary lacks, such as 校验 or 灰度) are joined into one, a single particle standing alone between
 * longer words (的, 了, の) is left out, and another single character is joined to the word before it
 * (数据 + 库), or after it at the start. A run of one word, or of particles only, is one word.
 * `run`: folded text of unspaced characters. Returns the words in order.
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
  if (joined.length < 2) return [run]
  const words: string[] = []
  let pending = ''
  for (const word of joined) {
    if ([...word].length > 1) {
      words.push(pending + word)
      pending = ''
    } else if (PARTICLES.has(word)) continue
    else if (words.length > 0) words[words.length - 1] += word
    else pending = word
  }
  return words.length === 0 ? [run] : words
}
