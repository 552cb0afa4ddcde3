/**
 * The words of a Chinese or Japanese run of a query, from the ICU word breaker Node.js carries
 * (`Intl.Segmenter`), so each word may stand anywhere in a session, in any order.
 * @module @wishp3/dsh-sessions/host/search/text/unspaced-words
 */

/** ICU's dictionary break iterator, shared by Chinese and Japanese text. */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

/** Single characters that are particles, not words, in Chinese and Japanese: a query's word of one of them alone is left out. */
const PARTICLES = new Set([...'的了是在和与或及把被让给对也都就还又很吗呢吧啊之其而のはがをにでともへやか'])

/**
 * The words of an unspaced run: ICU's words, where consecutive single characters (a word its
 * dictionary lacks, such as 校验 or 灰度) are joined into one, a single particle standing alone between
 * longer words (的, 了, の) is left out, and another single character is joined to the word before it
 * (数据 + 库), or after it at the start. Joined characters lose the particles at their ends, and four or
 * more of them are cut into words of two (a third at the end). A run of one word, or of particles
 * only, is one word.
 * `run`: folded text of unspaced characters. Returns the words in order.
 */
export function unspacedWords(run: string): string[] {
  const segments: string[] = []
  for (const { segment, isWordLike } of segmenter.segment(run)) if (isWordLike === true) segments.push(segment)
  const joined: string[] = []
  let singles = ''
  // Joined single characters lose the particles at their ends (校验了 is 校验), while two characters stay.
  const close = (): void => {
    let chars = [...singles]
    while (chars.length > 2 && PARTICLES.has(chars.at(-1)!)) chars = chars.slice(0, -1)
    while (chars.length > 2 && PARTICLES.has(chars[0]!)) chars = chars.slice(1)
    // A longer run the dictionary does not know at all is most likely words of two characters (空值缓存).
    while (chars.length >= 4) {
      joined.push(chars.slice(0, 2).join(''))
      chars = chars.slice(2)
    }
    if (chars.length > 0) joined.push(chars.join(''))
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
  if (joined.length < 2) return joined.length === 1 ? joined : [run]
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
