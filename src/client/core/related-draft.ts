/**
 * Whether a draft says enough to be asked about: six words, eight Chinese characters, or a mix; and
 * whether a draft is still the one the row was dismissed for. Pure.
 * @module @wishp3/dsh-sessions/client/core/related-draft
 */

export const DRAFT_CHARS = 2_000
export const TELLING_WORDS = 6
export const TELLING_CHARACTERS = 8

const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu
const WORDS = /[\p{L}\p{N}]{2,}/gu

/** Whether a draft's first {@link DRAFT_CHARS} characters hold enough words to mean something. */
export function isTelling(draft: string): boolean {
  const text = draft.slice(0, DRAFT_CHARS)
  const characters = text.match(UNSPACED)?.length ?? 0
  const words = text.replace(UNSPACED, ' ').match(WORDS)?.length ?? 0
  const said = words / TELLING_WORDS + characters / TELLING_CHARACTERS
  return said >= 1
}

/** Characters of a draft's start that name it for a dismissal: a draft that no longer starts with them is another draft. */
export const DRAFT_START = 16

/** What a dismissal remembers of the draft it was made for. */
export function draftStart(draft: string): string {
  return draft.trimStart().slice(0, DRAFT_START)
}

/** Whether `draft` is still the draft dismissed at `start` (see {@link draftStart}): it begins as that draft began. A draft cleared and written again, however fast, begins otherwise unless it says the same. */
export function isDismissedDraft(draft: string, start: string | undefined): boolean {
  return start !== undefined && start !== '' && draft.trimStart().startsWith(start)
}
