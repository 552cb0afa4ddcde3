/**
 * Other forms of an English word: the Porter2 (Snowball English) stem each form shares, from
 * `wink-porter2-stemmer`. The index keeps, per stem, the words of its text that have it, so a query's
 * word is asked as every form the text holds (`fails` as `fail`, `failed`, `failing`).
 * @module @wishp3/dsh-sessions/host/search/text/word-forms
 */
/// <reference path="./wink-porter2-stemmer.d.ts" />
import stem from 'wink-porter2-stemmer'
import { remembered } from './remembered.ts'

/** Words shorter than this have no other forms: `is`, `as` and `us` are not forms of one another. */
const MIN_LENGTH = 3

/** Stems already computed (a store's vocabulary repeats). */
const stemOnce = remembered(stem, 100_000)

const LETTERS = /^[a-z]+$/

/** The stem of a folded word, or `undefined` for a word that is not of lower-case Latin letters or is too short to have other forms. */
export function stemOf(word: string): string | undefined {
  if (word.length < MIN_LENGTH || !LETTERS.test(word)) return undefined
  return stemOnce(word)
}
