/** Deterministic conversations for benches and tests, made of real English and Chinese sentences from the READMEs in the pinned host's node_modules. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** One exchange: what the user wrote and what the assistant answered. */
export interface ConversationTurn {
  readonly user: string
  readonly reply: string
}

/** One generated session. */
export interface ConversationSpec {
  /** Index of its workspace folder, `0 … workspaces - 1`. */
  readonly workspace: number
  /** The language most of its sentences are in. */
  readonly language: 'en' | 'zh'
  /** Whether some of its sentences are in the other language. */
  readonly mixed: boolean
  /** dsh's fallback title of the first user message. */
  readonly title: string
  /** Two to six turns, oldest first. */
  readonly turns: readonly ConversationTurn[]
}

/** What to generate. */
export interface CorpusOptions {
  readonly sessions: number
  readonly workspaces: number
  /** The same seed (and the same host install) always yields the same corpus (default 1). */
  readonly seed?: number
}

/** One bench query with the sessions that truly match it. */
export interface BenchQuery {
  /** What the query exercises, e.g. `rare word`. */
  readonly kind: string
  readonly query: string
  /** Indexes into the corpus of every session whose text matches, ascending. */
  readonly expected: readonly number[]
}

/** Sentences of one language, grouped by the README they came from. */
interface Pool {
  readonly sentences: readonly string[]
  /** Per README with enough sentences, the indexes of its sentences in reading order. */
  readonly documents: readonly (readonly number[])[]
}

/** Letters of the scripts written without spaces between words. */
const CJK = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}]'
const RUN = new RegExp(`(?:${CJK}\\p{M}*)+|(?:(?!${CJK})[\\p{L}\\p{N}\\p{M}])+`, 'gu')
const CJK_START = new RegExp(`^${CJK}`, 'u')
const HAN = /\p{Script=Han}/gu
const STOPWORDS = new Set(('about above after again against also although always among another anything around based because '
  + 'before being below between both cannot could does doing during each either every first from further have having here '
  + 'however into itself just like made make many might more most much must never only other otherwise over same several '
  + 'should since some such than that their them then there these they this those through under until upon used uses using '
  + 'very were what when where whether which while will with within without would your yours').split(' '))

/**
 * A seeded pseudo-random generator (mulberry32): the same seed yields the same sequence.
 * @param seed - any 32-bit integer.
 * @returns a function giving the next number in [0, 1).
 */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1))
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!
}

/**
 * The search normal form every bench and test compares in: canonical
 * decomposition, combining diacritics (U+0300–U+036F) removed, lower case.
 * @param text - any text.
 * @returns its normal form.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
}

/**
 * The runs of letters and digits in a text, a run of Chinese or Japanese
 * letters apart from any adjacent run of other letters: `api会话日志 v2`
 * gives `api`, `会话日志` and `v2`.
 * @param text - normalised text.
 * @returns the runs in reading order, each marked when it is Chinese or Japanese.
 */
export function letterRuns(text: string): { readonly text: string; readonly cjk: boolean }[] {
  return Array.from(text.matchAll(RUN), match => ({ text: match[0], cjk: CJK_START.test(match[0]) }))
}

/**
 * dsh's fallback title (the session-title plugin as the host configures it):
 * the first five space-separated words of the first user message, cut to
 * 40 UTF-8 bytes without splitting a character. For Chinese, whose first
 * "word" is usually the whole sentence, that is the first 13 characters.
 * @param text - the first user message.
 * @returns the title.
 */
export function fallbackTitle(text: string): string {
  const words = text.replace(/\s+/gu, ' ').trim().split(' ').filter(Boolean).slice(0, 5).join(' ')
  let used = 0
  let title = ''
  for (const character of words) {
    used += Buffer.byteLength(character, 'utf8')
    if (used > 40) break
    title += character
  }
  return title.trimEnd()
}

/**
 * Every user message and assistant reply of a session joined by newlines:
 * the text a body search looks in.
 * @param spec - the session.
 * @returns its text, not normalised.
 */
export function sessionText(spec: ConversationSpec): string {
  return spec.turns.flatMap(turn => [turn.user, turn.reply]).join('\n')
}

/** Markdown without code, tables, HTML, link targets, images and markup, as blocks of prose (a paragraph, list item or heading each). */
function proseBlocks(markdown: string): string[] {
  const lines = markdown.replace(/\r\n?/g, '\n').replace(/<!--[\s\S]*?-->/g, '').split('\n')
  const blocks: string[] = []
  let current: string[] = []
  let fence: string | undefined
  const flush = () => {
    if (current.length > 0) blocks.push(current.join(' '))
    current = []
  }
  for (const line of lines) {
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence !== undefined) {
      if (fenceMark !== undefined && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = undefined
      continue
    }
    if (fenceMark !== undefined) {
      flush()
      fence = fenceMark
    } else if (/^\s*$/.test(line) || /^\s*(?:=+|-+|\*+|_+)\s*$/.test(line) || /^\s*\|/.test(line) || /^\s*<\/?[a-z][^>]*>\s*$/i.test(line)) {
      flush()
    } else if (/^(?: {4,}|\t)/.test(line) && current.length === 0) {
      // An indented code block: a block that starts indented after a blank line.
    } else if (/^\s*\[[^\]]+\]:\s*\S/.test(line)) {
      // A link reference definition.
    } else if (/^\s{0,3}#{1,6}\s/.test(line)) {
      flush()
      blocks.push(line.replace(/^\s*#{1,6}\s+/, '').replace(/\s+#+\s*$/, ''))
    } else {
      const item = /^\s*(?:[-*+]|\d+[.)])\s+/
      if (item.test(line)) flush()
      current.push(line.replace(/^\s*(?:>\s?)+/, '').replace(item, ''))
    }
  }
  flush()
  return blocks.map(inlineText)
}

/** One block's inline markup reduced to its visible words. */
function inlineText(block: string): string {
  return block
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/(?<![\w*])\*(\S(?:[^*]*?\S)?)\*(?![\w*])/g, '$1')
    .replace(/(?<![\p{L}\p{N}_])_(\S(?:[^_]*?\S)?)_(?![\p{L}\p{N}_])/gu, '$1')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Complete English sentences of a prose block that read as prose (no code, no leftover markup), 30–280 characters. */
function englishSentences(block: string): string[] {
  return block.split(/(?<=[.!?]["')\]]?)\s+(?=["'(]?[A-Z0-9])/).map(s => s.trim()).filter(sentence => {
    if (sentence.length < 30 || sentence.length > 280) return false
    if (!/^["'(]?[A-Z]/.test(sentence) || !/[.!?]["')]?$/.test(sentence)) return false
    if (!/^[\x20-\x7e\u00c0-\u024f\u2018\u2019\u201c\u201d\u2013\u2014\u2026]+$/.test(sentence)) return false
    if (/[{}[\]<>|\\#*=;$]|\/\/|\.\.|:\S/.test(sentence)) return false
    const words = sentence.split(' ').length
    if (words < 5 || words > 50) return false
    const letters = sentence.match(/[\p{L} ]/gu)?.length ?? 0
    return letters / sentence.length >= 0.85
  })
}

/** Complete Chinese sentences of a prose block, at least a third of them Han characters, 10–120 characters. */
function chineseSentences(block: string): string[] {
  return (block.match(/[^。！？]+[。！？]+[”」』）]?/g) ?? []).map(s => s.trim()).filter(sentence => {
    if (sentence.length < 10 || sentence.length > 120) return false
    if (/[{}[\]<>|\\#*=;$]|\/\/|:\S|^[，、：；,.:;）)]/.test(sentence)) return false
    return (sentence.match(HAN)?.length ?? 0) / sentence.length >= 0.34
  })
}

function readmes(root: string, name: RegExp): string[] {
  const found: string[] = []
  const walk = (dir: string) => {
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      if (entry.isDirectory()) walk(join(dir, entry.name))
      else if (entry.isFile() && name.test(entry.name)) found.push(join(dir, entry.name))
    }
  }
  walk(root)
  return found
}

/** Each distinct sentence once, in the README where it first appears; READMEs with fewer than 6 sentences only feed the shared pool. */
function buildPool(files: readonly string[], split: (block: string) => string[]): Pool {
  const sentences: string[] = []
  const seen = new Set<string>()
  const documents: number[][] = []
  for (const file of files) {
    const document: number[] = []
    for (const block of proseBlocks(readFileSync(file, 'utf8'))) {
      for (const sentence of split(block)) {
        if (seen.has(sentence)) continue
        seen.add(sentence)
        document.push(sentences.length)
        sentences.push(sentence)
      }
    }
    if (document.length >= 6) documents.push(document)
  }
  return { sentences, documents }
}

const pools = new Map<string, { en: Pool; zh: Pool }>()

/**
 * The English and Chinese sentence pools of a host install, read once per process.
 * @param hostDir - the pinned host's install folder.
 * @returns the pools' sentence counts (English from every `README.md`, Chinese from every `README.zh.md`).
 */
export function sentencePools(hostDir: string): { en: number; zh: number } {
  const both = loadPools(hostDir)
  return { en: both.en.sentences.length, zh: both.zh.sentences.length }
}

/**
 * The English and Chinese sentences of a host install's READMEs.
 * @param hostDir - the pinned host's install folder.
 * @returns the sentences of each language.
 */
export function sentencePool(hostDir: string): { en: readonly string[]; zh: readonly string[] } {
  const both = loadPools(hostDir)
  return { en: both.en.sentences, zh: both.zh.sentences }
}

function loadPools(hostDir: string): { en: Pool; zh: Pool } {
  let both = pools.get(hostDir)
  if (both === undefined) {
    const root = join(hostDir, 'node_modules')
    both = {
      en: buildPool(readmes(root, /^readme\.md$/i), englishSentences),
      zh: buildPool(readmes(root, /^readme\.zh\.md$/i), chineseSentences),
    }
    if (both.en.documents.length === 0 || both.zh.documents.length === 0) throw new Error(`no README prose found under ${root}`)
    pools.set(hostDir, both)
  }
  return both
}

function joinSentences(sentences: readonly string[]): string {
  let text = ''
  for (const sentence of sentences) {
    const cjkBoundary = /[。！？”」』）]$/.test(text) && CJK_START.test(sentence)
    text += text === '' || cjkBoundary ? sentence : ` ${sentence}`
  }
  return text
}

/**
 * A session's language, whether it mixes in the other one, its pools of
 * sentences and its topic, drawn in that order.
 * @param random - the corpus's random source.
 * @param pools - the English and Chinese sentence pools.
 * @param english - the share of English sessions.
 * @param mixing - the share of sessions that mix in the other language.
 */
function voiceOf(random: () => number, pools: { en: Pool; zh: Pool }, english: number, mixing: number): { language: 'en' | 'zh'; mixed: boolean; pool: Pool; other: Pool; topic: readonly number[] } {
  const language = random() < english ? 'en' : 'zh'
  const mixed = random() < mixing
  const pool = language === 'en' ? pools.en : pools.zh
  const other = language === 'en' ? pools.zh : pools.en
  return { language, mixed, pool, other, topic: pick(random, pool.documents) }
}

/**
 * Conversations of real README sentences. About 70 % of the sessions are
 * English and 30 % Chinese; about 6 % of them mix in sentences of the other
 * language. Each session keeps to one README (its topic) for most of its
 * sentences, so words cluster in sessions the way topics do, and draws the
 * rest from the whole pool of its language. Each has 2–6 turns of a user
 * message of 1–3 sentences and a reply of 2–8 consecutive sentences of the
 * topic. Workspaces are assigned round-robin.
 * @param hostDir - the pinned host's install folder (its node_modules supply the text).
 * @param options - how many sessions and workspaces, and the seed.
 * @returns the sessions, oldest first.
 */
export function conversationCorpus(hostDir: string, options: CorpusOptions): ConversationSpec[] {
  const { en, zh } = loadPools(hostDir)
  const random = createRandom(options.seed ?? 1)
  const specs: ConversationSpec[] = []
  for (let n = 0; n < options.sessions; n += 1) {
    const { language, mixed, pool, other, topic } = voiceOf(random, { en, zh }, 0.7, 0.06)
    const used = new Set<string>()
    const draw = (at: number): string => {
      for (let attempt = 0; attempt < 8; attempt += 1) {
        let sentence: string
        if (mixed && random() < 0.3) sentence = pick(random, other.sentences)
        else if (attempt === 0 && random() < 0.85) sentence = pool.sentences[topic[at % topic.length]!]!
        else sentence = random() < 0.5 ? pool.sentences[pick(random, topic)]! : pick(random, pool.sentences)
        if (!used.has(sentence)) {
          used.add(sentence)
          return sentence
        }
      }
      return pick(random, pool.sentences)
    }
    const turns: ConversationTurn[] = []
    const turnCount = randomInt(random, 2, 6)
    for (let t = 0; t < turnCount; t += 1) {
      const asked = randomInt(random, 1, 3)
      const user = Array.from({ length: asked }, () => draw(randomInt(random, 0, topic.length - 1)))
      const start = randomInt(random, 0, topic.length - 1)
      const reply = Array.from({ length: randomInt(random, 2, 8) }, (_, k) => draw(start + k))
      turns.push({ user: joinSentences(user), reply: joinSentences(reply) })
    }
    specs.push({ workspace: n % options.workspaces, language, mixed, title: fallbackTitle(turns[0]!.user), turns })
  }
  return specs
}

/**
 * Conversations of short prose messages in two scripts, as a store of chat
 * without code or tool output looks: about 65 % of the sessions English and
 * 35 % Chinese, 4–22 turns of a user message of 2–5 sentences and a reply of
 * 4–10, so a message averages about 600 bytes. The sentences are the
 * READMEs', drawn from the session's topic for most of it and the whole pool
 * of its language for the rest, so sentences recur across sessions as real
 * conversations repeat their phrasing. Workspaces are assigned round-robin.
 * @param hostDir - the pinned host's install folder (its node_modules supply the text).
 * @param options - how many sessions and workspaces, and the seed.
 * @yields the sessions, oldest first.
 */
export function* proseSessions(hostDir: string, options: CorpusOptions): Generator<ConversationSpec> {
  const { en, zh } = loadPools(hostDir)
  const random = createRandom(options.seed ?? 1)
  for (let n = 0; n < options.sessions; n += 1) {
    const { language, mixed, pool, other, topic } = voiceOf(random, { en, zh }, 0.65, 0.05)
    const sentence = (at: number): string => {
      if (mixed && random() < 0.2) return pick(random, other.sentences)
      return random() < 0.75 ? pool.sentences[topic[at % topic.length]!]! : pick(random, pool.sentences)
    }
    const run = (count: number): string => {
      const start = randomInt(random, 0, topic.length - 1)
      return joinSentences(Array.from({ length: count }, (_, k) => sentence(start + k)))
    }
    const turns: ConversationTurn[] = []
    const turnCount = randomInt(random, 4, 22)
    for (let t = 0; t < turnCount; t += 1) turns.push({ user: run(randomInt(random, 2, 5)), reply: run(randomInt(random, 4, 10)) })
    yield { workspace: n % options.workspaces, language, mixed, title: fallbackTitle(turns[0]!.user), turns }
  }
}

/**
 * Conversations of README sentences drawn at random, in the shape of the
 * store the sixth milestone's size miss was measured on: about 65 % of the
 * sessions English (sentences of every `README.md`) and 35 % Chinese (every
 * `README.zh.md`), `3 + floor(r·r·41)` turns each, a user message of 1–3
 * sentences and a reply of 3–10, each sentence drawn from the whole pool of
 * the session's language, with no topic. No sentence of it was written here.
 * Workspaces are assigned round-robin.
 * @param hostDir - the pinned host's install folder (its node_modules supply the text).
 * @param options - how many sessions and workspaces, and the seed.
 * @yields the sessions, oldest first.
 */
export function* readmeSessions(hostDir: string, options: CorpusOptions): Generator<ConversationSpec> {
  const { en, zh } = loadPools(hostDir)
  const random = createRandom(options.seed ?? 1)
  for (let n = 0; n < options.sessions; n += 1) {
    const language = random() < 0.65 ? 'en' : 'zh'
    const pool = language === 'en' ? en : zh
    const run = (count: number): string => joinSentences(Array.from({ length: count }, () => pick(random, pool.sentences)))
    const r = random()
    const turnCount = 3 + Math.floor(r * r * 41)
    const turns: ConversationTurn[] = []
    for (let t = 0; t < turnCount; t += 1) turns.push({ user: run(randomInt(random, 1, 3)), reply: run(randomInt(random, 3, 10)) })
    yield { workspace: n % options.workspaces, language, mixed: false, title: fallbackTitle(turns[0]!.user), turns }
  }
}

/** The bench's corpora by name: long realistic conversations with code and tool output, short prose in two scripts, README sentences drawn at random (text no one here wrote, in the shape of a store the index once took 1.54× of), and the first milestone's small one. */
export const CORPORA = {
  realistic: realisticSessions,
  prose: proseSessions,
  readme: readmeSessions,
  small: (hostDir: string, options: CorpusOptions): Iterable<ConversationSpec> => conversationCorpus(hostDir, options),
} as const

/** The name of a bench corpus. */
export type CorpusName = keyof typeof CORPORA

/** What one session offers to the matching rules. */
interface Searchable {
  /** The normalised text, for Chinese and Japanese runs (matched as substrings). */
  readonly text: string
  /** Its other words, for exact and prefix matches. */
  readonly words: ReadonlySet<string>
}

function searchable(text: string): Searchable {
  const normal = normalizeText(text)
  return { text: normal, words: new Set(letterRuns(normal).filter(run => !run.cjk).map(run => run.text)) }
}

function matches(session: Searchable, terms: readonly { text: string; cjk: boolean }[]): boolean {
  return terms.length > 0 && terms.every((term, n) => {
    if (term.cjk) return session.text.includes(term.text)
    if (n < terms.length - 1) return session.words.has(term.text)
    for (const word of session.words) if (word.startsWith(term.text)) return true
    return false
  })
}

/**
 * The reference matching rules of the search benches. Query and session text
 * are normalised (`normalizeText`) and cut into runs (`letterRuns`). A session
 * matches when every run of the query matches (AND): a Chinese or Japanese run
 * occurs anywhere in the session's text; any other run equals one of the
 * session's words, except the query's last run, which only has to begin one
 * (a prefix). A query without letters or digits matches nothing.
 * @param corpus - the sessions.
 * @returns a function giving the indexes of the sessions matching a query, ascending.
 */
export function queryOracle(corpus: readonly ConversationSpec[]): (query: string) => number[] {
  const sessions = corpus.map(spec => searchable(sessionText(spec)))
  return query => {
    const terms = letterRuns(normalizeText(query))
    const found: number[] = []
    sessions.forEach((session, n) => {
      if (matches(session, terms)) found.push(n)
    })
    return found
  }
}

/**
 * `queryOracle` for a corpus that is generated as it is read, never held
 * whole: the sessions are given one at a time, in order, and each query's
 * matches are counted as they come.
 * @param queries - the queries.
 * @returns `add` for each session in turn, and per query the indexes of the sessions it matches, ascending.
 */
export function queryMatcher(queries: readonly string[]): { add(spec: ConversationSpec): void; readonly found: readonly (readonly number[])[] } {
  const terms = queries.map(query => letterRuns(normalizeText(query)))
  const found: number[][] = queries.map(() => [])
  let n = 0
  return {
    add(spec) {
      const session = searchable(sessionText(spec))
      terms.forEach((query, k) => {
        if (matches(session, query)) found[k]!.push(n)
      })
      n += 1
    },
    found,
  }
}

/**
 * Realistic body-search queries for a corpus, `perKind` of each kind where the
 * corpus has them (fewer when it has not): `rare word` (an English word that
 * matches in 1–5 sessions and begins no title word), `common word` (an English
 * word of 5+ letters that is not a stop word, matching in 8–30 % of the
 * sessions), `two words` (two English words of one session, 4+ letters each,
 * neither in more than 5 % of the sessions), `prefix` (the first 4 letters of
 * a rare word), `zh 4 chars` (four Han characters of a message that occur in
 * no title), `zh 2 chars` and `zh 1 char` (Han characters of a message).
 * @param corpus - the sessions.
 * @param options - the seed (default 1) and how many queries of each kind (default 1).
 * @returns the queries with the sessions that truly match them under `queryOracle`'s rules.
 */
export function benchQueries(corpus: readonly ConversationSpec[], options: { seed?: number; perKind?: number } = {}): BenchQuery[] {
  const random = createRandom(options.seed ?? 1)
  const perKind = options.perKind ?? 1
  const oracle = queryOracle(corpus)
  const sessions = corpus.map(spec => searchable(sessionText(spec)))
  const titles = corpus.map(spec => searchable(spec.title))
  const titleWords = [...new Set(titles.flatMap(title => [...title.words]))]
  const inTitle = (han: string) => titles.some(title => title.text.includes(han))
  const frequency = new Map<string, number>()
  for (const session of sessions) for (const word of session.words) frequency.set(word, (frequency.get(word) ?? 0) + 1)
  const english = [...frequency.keys()].filter(word => /^[a-z]+$/.test(word) && !STOPWORDS.has(word)).sort()
  const queries: BenchQuery[] = []
  const add = (kind: string, candidates: () => string | undefined, accept: (expected: number[]) => boolean) => {
    const chosen = new Set<string>()
    for (let attempt = 0; chosen.size < perKind && attempt < 200 * perKind; attempt += 1) {
      const query = candidates()
      if (query === undefined || chosen.has(query)) continue
      const expected = oracle(query)
      if (!accept(expected)) continue
      chosen.add(query)
      queries.push({ kind, query, expected })
    }
  }
  const rare = english.filter(word => word.length >= 6 && frequency.get(word)! <= 5
    && !titleWords.some(title => title.startsWith(word)))
  const common = english.filter(word => word.length >= 5 && frequency.get(word)! >= 0.08 * corpus.length && frequency.get(word)! <= 0.3 * corpus.length)
  const fromList = (list: readonly string[]) => () => (list.length === 0 ? undefined : pick(random, list))
  add('rare word', fromList(rare), expected => expected.length >= 1 && expected.length <= 5)
  add('common word', fromList(common), expected => expected.length > 0)
  add('two words', () => {
    const session = pick(random, sessions)
    const words = [...session.words].filter(word => /^[a-z]{4,}$/.test(word) && !STOPWORDS.has(word) && frequency.get(word)! <= 0.05 * corpus.length)
    if (words.length < 2) return undefined
    const first = pick(random, words)
    const second = pick(random, words)
    return first === second ? undefined : `${first} ${second}`
  }, expected => expected.length > 0)
  add('prefix', () => (rare.length === 0 ? undefined : pick(random, rare).slice(0, 4)), expected => expected.length > 0)
  const chineseSessions = corpus.flatMap((spec, n) => (/\p{Script=Han}/u.test(sessionText(spec)) ? [n] : []))
  const hanRun = (length: number, avoidTitles: boolean) => () => {
    if (chineseSessions.length === 0) return undefined
    const spec = corpus[pick(random, chineseSessions)]!
    const messages = spec.turns.flatMap(turn => [turn.user, turn.reply])
    const message = normalizeText(pick(random, messages))
    const runs = letterRuns(message).filter(run => run.cjk && run.text.length >= length)
    if (runs.length === 0) return undefined
    const run = [...pick(random, runs).text]
    const at = randomInt(random, 0, run.length - length)
    const han = run.slice(at, at + length).join('')
    return /^\p{Script=Han}+$/u.test(han) && !(avoidTitles && inTitle(han)) ? han : undefined
  }
  add('zh 4 chars', hanRun(4, true), expected => expected.length > 0)
  add('zh 2 chars', hanRun(2, false), expected => expected.length > 0)
  add('zh 1 char', hanRun(1, false), expected => expected.length > 0)
  return queries
}

/** A tool call of a realistic turn: its output is real text of a file of the host install, cut when the session is written (`toolOutput`), so the corpus holds no copy of it. */
export interface ToolUse {
  readonly name: 'read_file' | 'bash' | 'grep'
  /** Index into the install's source files (`sourceFiles`), the first line and how many lines the output shows. */
  readonly file: number
  readonly from: number
  readonly lines: number
}

/** A realistic turn: the tool calls the assistant made before its reply. */
export interface RealisticTurn extends ConversationTurn {
  readonly tools: readonly ToolUse[]
}

/** One realistic session. */
export interface RealisticSpec extends ConversationSpec {
  readonly language: 'en' | 'zh'
  readonly turns: readonly RealisticTurn[]
}

const sources = new Map<string, { files: string[]; lines: Map<number, string[]> }>()

/** The JavaScript files of the install's `@deepseek-ai` packages, in a fixed order: the source of code blocks and tool output. */
function sourceFiles(hostDir: string): { files: string[]; lines: (file: number) => string[] } {
  let known = sources.get(hostDir)
  if (known === undefined) {
    const root = join(hostDir, 'node_modules', '@deepseek-ai')
    const files = readmes(root, /^index\.js$/).filter(file => /[/\\]lib[/\\]index\.js$/.test(file))
    if (files.length === 0) throw new Error(`no package sources found under ${root}`)
    known = { files, lines: new Map() }
    sources.set(hostDir, known)
  }
  const { files, lines } = known
  return {
    files,
    lines: file => {
      let text = lines.get(file)
      if (text === undefined) {
        text = readFileSync(files[file]!, 'utf8').split('\n')
        lines.set(file, text)
      }
      return text
    },
  }
}

const japanesePools = new Map<string, string[]>()

/** Japanese sentences of the install: the messages of zod's Japanese locale, each with at least four kana. */
function japaneseSentences(hostDir: string): string[] {
  let found = japanesePools.get(hostDir)
  if (found === undefined) {
    found = []
    const file = join(hostDir, 'node_modules', 'zod', 'v4', 'locales', 'ja.js')
    try {
      const text = readFileSync(file, 'utf8')
      for (const [, literal] of text.matchAll(/["'`]([^"'`\n]*[\p{Script=Hiragana}\p{Script=Katakana}][^"'`\n]*)["'`]/gu)) {
        const sentence = literal!.replace(/\$\{[^}]*\}/g, '').trim()
        if ((sentence.match(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0) >= 4) found.push(sentence.endsWith('。') ? sentence : `${sentence}。`)
      }
    } catch {
      // no Japanese text in this install: sessions get none
    }
    found = [...new Set(found)]
    japanesePools.set(hostDir, found)
  }
  return found
}

/**
 * The output a tool call of a realistic turn shows: lines of a real source
 * file, as `read_file` or `grep` would show them, or a short command output.
 * @param hostDir - the pinned host's install folder.
 * @param tool - the call.
 * @returns the output text.
 */
export function toolOutput(hostDir: string, tool: ToolUse): string {
  const { files, lines } = sourceFiles(hostDir)
  const text = lines(tool.file % files.length)
  const shown = text.slice(tool.from % Math.max(1, text.length), (tool.from % Math.max(1, text.length)) + tool.lines)
  if (tool.name === 'grep') return shown.map((line, n) => `lib/index.js:${tool.from + n + 1}:${line}`).join('\n')
  if (tool.name === 'bash') return `$ node --test\n${shown.slice(0, 12).map(line => `# ${line.trim()}`).join('\n')}\n# pass ${tool.lines}\n# fail 0`
  return shown.map((line, n) => `${String(tool.from + n + 1).padStart(5)}\t${line}`).join('\n')
}

/**
 * Conversations shaped like real agent sessions, of real text of the host
 * install: 5–80 turns (log-uniform, so most are short; about 1 in 250 has
 * 250–300 turns, over 500 messages). User messages run from one sentence to
 * a page (one in twenty pastes code). Replies are prose with, often, a list
 * and a code block of real source lines. Half the turns make one to three
 * tool calls first, whose output (10–120 real source lines) is in the log but is not text a search looks in. About 55 % of the
 * sessions are English, 35 % Chinese, 10 % mix in the other language, and
 * about 1 in 12 has some Japanese. Workspaces are assigned round-robin. The
 * same seed and install always give the same corpus.
 * @param hostDir - the pinned host's install folder.
 * @param options - how many sessions and workspaces, and the seed.
 * @returns the sessions, oldest first.
 */
export function realisticCorpus(hostDir: string, options: CorpusOptions): RealisticSpec[] {
  return [...realisticSessions(hostDir, options)]
}

/**
 * The sessions of {@link realisticCorpus}, one at a time, so a consumer need not hold them all.
 * @param hostDir - the pinned host's install folder.
 * @param options - how many sessions and workspaces, and the seed.
 * @yields the sessions, oldest first.
 */
export function* realisticSessions(hostDir: string, options: CorpusOptions): Generator<RealisticSpec> {
  const { en, zh } = loadPools(hostDir)
  const japanese = japaneseSentences(hostDir)
  const { files, lines } = sourceFiles(hostDir)
  const random = createRandom(options.seed ?? 1)
  const codeBlock = (count: number): string => {
    const file = randomInt(random, 0, files.length - 1)
    const text = lines(file)
    const from = randomInt(random, 0, Math.max(0, text.length - count))
    return `\`\`\`js\n${text.slice(from, from + count).join('\n')}\n\`\`\``
  }
  for (let n = 0; n < options.sessions; n += 1) {
    const language = random() < 0.6 ? 'en' : 'zh'
    const mixed = random() < 0.1
    const withJapanese = japanese.length > 0 && random() < 0.08
    const pool = language === 'en' ? en : zh
    const other = language === 'en' ? zh : en
    const topic = pick(random, pool.documents)
    const sentence = (at: number): string => {
      if (withJapanese && random() < 0.15) return pick(random, japanese)
      if (mixed && random() < 0.25) return pick(random, other.sentences)
      return random() < 0.8 ? pool.sentences[topic[at % topic.length]!]! : pick(random, pool.sentences)
    }
    const sentences = (count: number): string => joinSentences(Array.from({ length: count }, () => sentence(randomInt(random, 0, topic.length - 1))))
    const long = random() < 0.004
    const turnCount = long ? randomInt(random, 250, 300) : Math.round(5 * 16 ** random())
    const turns: RealisticTurn[] = []
    for (let t = 0; t < turnCount; t += 1) {
      const shape = random()
      let user = shape < 0.7 ? sentences(randomInt(random, 1, 3)) : shape < 0.95 ? sentences(randomInt(random, 4, 12)) : sentences(randomInt(random, 20, 40))
      if (random() < 0.05) user += `\n\n${codeBlock(randomInt(random, 5, 30))}`
      const parts = [sentences(randomInt(random, 2, 8))]
      if (random() < 0.4) parts.push(Array.from({ length: randomInt(random, 3, 6) }, (_, k) => `${k + 1}. ${sentence(randomInt(random, 0, topic.length - 1))}`).join('\n'))
      if (random() < 0.35) parts.push(codeBlock(randomInt(random, 5, 40)))
      if (random() < 0.5) parts.push(sentences(randomInt(random, 1, 3)))
      const tools: ToolUse[] = random() < 0.5
        ? Array.from({ length: randomInt(random, 1, 3) }, () => ({
            name: pick(random, ['read_file', 'bash', 'grep'] as const),
            file: randomInt(random, 0, files.length - 1),
            from: randomInt(random, 0, 2000),
            lines: randomInt(random, 10, 120),
          }))
        : []
      turns.push({ user, reply: parts.join('\n\n'), tools })
    }
    yield { workspace: n % options.workspaces, language, mixed: mixed || withJapanese, title: fallbackTitle(turns[0]!.user), turns }
  }
}
