/**
 * Other forms of an English word: the Porter2 (Snowball English) stem each form shares, from
 * `wink-porter2-stemmer`. The index keeps, per stem, the words of its text that have it, so a query's
 * word is asked as every form the text holds (`fails` as `fail`, `failed`, `failing`).
 * @module @wishp3/dsh-sessions/host/search/text/word-forms
 */
/// <reference path="./wink-porter2-stemmer.d.ts" />
import stem from 'wink-porter2-stemmer'

/** Words shorter than this have no other forms: `is`, `as` and `us` are not forms of one another. */
const MIN_LENGTH = 3

/** Stems already computed, emptied once it holds {@link MAX_MEMO} (a store's vocabulary repeats). */
const memo = new Map<string, string>()
const MAX_MEMO = 100_000

const LETTERS = /^[a-z]+$/

/** The stem of a folded word, or `undefined` for a word that is not of lower-case Latin letters or is too short to have other forms. */
export function stemOf(word: string): string | undefined {
  if (word.length < MIN_LENGTH || !LETTERS.test(word)) return undefined
  let found = memo.get(word)
  if (found === undefined) {
    if (memo.size >= MAX_MEMO) memo.clear()
    found = stem(word)
    memo.set(word, found)
  }
  return found
}
