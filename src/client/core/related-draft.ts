/**
 * When a draft says enough to be asked about, and what is asked. Pure.
 * @module @wishp3/dsh-sessions/client/core/related-draft
 */
import { decodeChipRef } from './chip-ref.ts'

/** Characters of a draft sent. */
export const DRAFT_CHARS = 2_000

/** Words of the scripts written with spaces that make a draft telling on their own. */
export const TELLING_WORDS = 6

/** Chinese or Japanese characters that make a draft telling on their own. */
export const TELLING_CHARACTERS = 8

const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu
const WORDS = /[\p{L}\p{N}]{2,}/gu

/** Whether a draft holds enough words to mean something: six words, eight Chinese characters, or the like in a mix of both. */
export function isTelling(draft: string): boolean {
  const text = draft.slice(0, DRAFT_CHARS)
  const characters = text.match(UNSPACED)?.length ?? 0
  const words = text.replace(UNSPACED, ' ').match(WORDS)?.length ?? 0
  return words / TELLING_WORDS + characters / TELLING_CHARACTERS >= 1
}

/** The sessions a draft's chips of `source` cite. */
export function citedByChips(occurrences: readonly { readonly source: string; readonly ref: string }[], source: string): string[] {
  const cited = new Set<string>()
  for (const occurrence of occurrences) {
    if (occurrence.source !== source) continue
    const ref = decodeChipRef(occurrence.ref)
    if (ref?.kind === 'session') cited.add(ref.citedSessionId)
  }
  return [...cited]
}
