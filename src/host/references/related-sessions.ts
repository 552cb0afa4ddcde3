/**
 * Related sessions for a draft: its telling words (the first {@link MAX_DRAFT_CHARS} characters, without
 * mentions, ids, links, stop words or numbers), the rarest {@link MAX_ASKED_WORDS} of those the index
 * holds asked as one query of the `@` menu's ranking in its partial tier, which ranks the sessions by
 * the words they hold, rarer words weighing more and long sessions less, as BM25 does. A session holding every
 * word is not put first for it: a long session holds many common words by chance. A session is offered
 * only when it holds two of the words, and either scores {@link CHANCE_MARGIN} above what chance gives
 * (see {@link leastScore}) or holds a word nearly its own (held by at most {@link SPECIFIC_SHARE} of the
 * sessions, the test a small store meets first), so a draft about nothing in the store offers nothing.
 * @module @wishp3/dsh-sessions/host/references/related-sessions
 */
import { eng, zho } from 'stopword'
import type { Config } from '../../config.ts'
import type { RelatedSession } from '../../shared/wire.ts'
import type { ContentSearch } from '../search/content-search.ts'
import { fold, isUnspaced, MAX_QUERY_LENGTH, RUNS } from '../search/text/terms.ts'
import { unspacedWords } from '../search/text/unspaced-words.ts'
import type { ReferenceTarget } from '../sessions/scope.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'
import { rankedCandidates } from './candidates.ts'

/** Characters of a draft read. */
export const MAX_DRAFT_CHARS = 2_000

/** Telling words of a draft weighed by rarity at most. */
export const MAX_DRAFT_WORDS = 20

/** Words asked at most: the rarest the index holds. */
export const MAX_ASKED_WORDS = 8

/** Sessions offered at most. */
export const MAX_RELATED = 3

/** Segments counted per word at most: a word in more is common, whatever its count. */
const MAX_COUNTED = 1_000

/** Candidates of the ranking looked at: twice as many as are offered. Twelve offered the same sessions for every draft of the relevance bench, and took some fifth more time. */
const LOOKED_AT = 6

/** Share of the sessions that may hold a word nearly a session's own (at least two sessions may). */
export const SPECIFIC_SHARE = 0.002

/** How far above chance a session offered scores (see {@link leastScore}). Measured in the relevance bench: both targets, continuing drafts offered and drafts about nothing left empty, held on all three corpora at 2,000 and at 20,000 sessions for every margin from 5.5 to 7; this is the middle. */
export const CHANCE_MARGIN = 6.25

/** The least score of a session offered among `sessions`. A session's score is the sum of its held words' rarities (each the log of how many sessions there are to each holding it), weighed by its length; words that one session in all of them holds by chance sum to about the log of their number, so the least score grows with it. */
export function leastScore(sessions: number): number {
  return Math.log(Math.max(1, sessions)) + CHANCE_MARGIN
}

/** Words a session must hold to be offered. */
export const MIN_HELD_WORDS = 2

const ENGLISH_STOP = new Set(eng)
const CHINESE_STOP = new Set(zho)

/** What a draft leaves out before its words are read: its mentions of sessions, bare session ids, links, and inline code marks. */
const NOT_WORDS = /@\[[^\]\n]*\]\([^)\s]*\)|session-[0-9a-f-]{8,}|https?:\/\/\S+|`/giu

/** Whether a folded word tells what a draft is about: not a stop word, not a number, of three letters or more; a Chinese or Japanese word of two characters or more, not of stop characters alone. */
function telling(word: string): boolean {
  if (isUnspaced(word)) return [...word].length >= 2 && ![...word].every(char => CHINESE_STOP.has(char))
  return word.length >= 3 && !/^\p{N}+$/u.test(word) && !ENGLISH_STOP.has(word)
}

/** A draft's telling words, in the order they first appear, at most `most`, the longer ones kept when there are more. */
export function draftWords(draft: string, most: number = MAX_DRAFT_WORDS): string[] {
  const text = fold(draft.slice(0, MAX_DRAFT_CHARS).replace(NOT_WORDS, ' '))
  const seen = new Set<string>()
  for (const [run] of text.matchAll(RUNS)) {
    for (const word of isUnspaced(run) ? unspacedWords(run) : [run]) if (telling(word)) seen.add(word)
  }
  const words = [...seen]
  if (words.length <= most) return words
  const kept = new Set([...words].sort((a, b) => [...b].length - [...a].length).slice(0, most))
  return words.filter(word => kept.has(word))
}

/** The query of some words: apart, none a prefix (it ends in a space), within a query's length. */
export function draftQuery(words: readonly string[]): string {
  let query = ''
  for (const word of words) {
    if (query.length + word.length + 1 > MAX_QUERY_LENGTH) break
    query += `${word} `
  }
  return query
}

/** The words asked of a draft's: the rarest the index holds, at most {@link MAX_ASKED_WORDS}, with their counts. `counts`: segments holding each word, in order. */
export function askedWords(words: readonly string[], counts: readonly number[]): { word: string; count: number }[] {
  return words.map((word, k) => ({ word, count: counts[k] ?? 0 })).filter(({ count }) => count > 0).sort((a, b) => a.count - b.count).slice(0, MAX_ASKED_WORDS)
}

/** Of a ranking's sessions among `sessions`, in its order (each with its score and the words its excerpt says it lacks), those worth offering, at most {@link MAX_RELATED}: holding {@link MIN_HELD_WORDS} of the asked words (each with the segments holding it), and either scoring at least {@link leastScore} or holding a word held by at most {@link SPECIFIC_SHARE} of the sessions. */
export function offered<T extends { readonly missing: readonly string[]; readonly score: number }>(found: readonly T[], asked: readonly { word: string; count: number }[], sessions: number): T[] {
  const least = leastScore(sessions)
  const specific = Math.max(2, sessions * SPECIFIC_SHARE)
  return found.filter(session => {
    const held = asked.filter(({ word }) => !session.missing.includes(word))
    return held.length >= MIN_HELD_WORDS && (session.score >= least || held.some(({ count }) => count <= specific))
  }).slice(0, MAX_RELATED)
}

/** What related sessions are read from. */
export interface RelatedSources {
  readonly catalog: SessionCatalog
  readonly content: ContentSearch
}

/** A draft asked about: the citing session `who`, its text, the scope it reads under, and the sessions not to offer. */
export interface RelatedDraft {
  readonly who: ReferenceTarget
  readonly text: string
  readonly config: Pick<Config, 'scope'>
  readonly except: readonly string[]
}

/** The sessions in scope a draft of `who` is about, at most {@link MAX_RELATED}, never `who` itself nor one named in `except`. */
export async function relatedSessions(sources: RelatedSources, draft: RelatedDraft): Promise<RelatedSession[]> {
  const { who, text, config, except } = draft
  const words = draftWords(text)
  if (words.length < MIN_HELD_WORDS) return []
  const weighed = await sources.content.wordCounts(words, MAX_COUNTED)
  if (weighed === undefined) return []
  const asked = askedWords(words, weighed.counts)
  if (asked.length < MIN_HELD_WORDS) return []
  const skipped = new Set(except)
  const found = (await rankedCandidates(sources, { target: who, query: draftQuery(asked.map(({ word }) => word)), scope: config.scope, candidateLimit: LOOKED_AT + skipped.size, mostWords: true }))
    .flatMap(({ candidate, score }) => (candidate.snippet === undefined || score === undefined || skipped.has(candidate.sessionId) ? [] : [{ candidate, score, missing: candidate.snippet.missing ?? [] }]))
  return offered(found, asked, weighed.sessions).map(({ candidate }) => ({ sessionId: candidate.sessionId, label: candidate.label, createdAt: candidate.createdAt, mention: candidate.mention, snippet: candidate.snippet! }))
}
