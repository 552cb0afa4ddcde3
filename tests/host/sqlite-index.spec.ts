/** The on-disk content index: the answers of a plain scan of the text, writes proportional to a new message, a kill between any two writes, two writers on one file, a corrupt, foreign or outdated file, damage found while it is open. */
import { spawnSync, spawn } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { IndexDamagedError, SQLITE_VERSION } from '../../src/host/search/worker/index-file.ts'
import { loadSqlite, type SqliteModule } from '../../src/host/search/worker/sqlite-capability.ts'
import { type ContentEntry, MAX_SEGMENTS, SqliteIndex } from '../../src/host/search/worker/sqlite-index.ts'
import { matchOf } from '../../src/host/search/text/match-expression.ts'
import { expansionsOf, MAX_EXPANSION } from '../../src/host/search/worker/prefix-expansion.ts'
import { digestOf, pack } from '../../src/host/search/text/stored-text.ts'
import { fold, indexTerms, queryTerms, termsFingerprint } from '../../src/host/search/text/terms.ts'
import { afterTest, temporaryFolder } from './cleanup.ts'
import { foreignDatabase, type FoundFile, notADatabase, olderLayout } from './fixtures/damaged-files.ts'

const loaded = await loadSqlite()
if (!loaded.ok) throw new Error(loaded.reason)
const sqlite: SqliteModule = loaded.sqlite

const WRITER = new URL('./fixtures/sqlite-writer.ts', import.meta.url).pathname

function openIndex(path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')): SqliteIndex {
  const { index } = SqliteIndex.open(sqlite, path)
  afterTest(() => index.close())
  return index
}

/** The index's merge settings, and FTS5's own. */
const SIXTEEN = { automerge: 16, crisismerge: 64 }
const FTS5_OWN = { automerge: 4, crisismerge: 16 }

/** The merge settings a closed index file records for each of its FTS5 tables. */
function mergeSettingsOf(path: string): Record<string, Record<string, number>> {
  const db = new DatabaseSync(path, { readOnly: true })
  try {
    return Object.fromEntries(['terms', 'places', 'inside'].map(table => [table, Object.fromEntries((db.prepare(`SELECT k, v FROM ${table}_config WHERE k IN ('automerge', 'crisismerge')`).all() as { k: string; v: number }[]).map(row => [row.k, row.v]))]))
  } finally {
    db.close()
  }
}

const entry = (...messages: string[]): ContentEntry => ({ revision: `r${messages.length}`, title: undefined, messages })

/** Sessions, ids `session-0…`, the later ones newer. */
const CORPUS: readonly (readonly string[])[] = [
  ['We planned the rollout of the billing service.', 'The rollout waits for the freeze.'],
  ['我们讨论了发布流程和灰度策略的细节', '灰度发布要分三批'],
  ['Café au lait, naïve résumé', 'GENÈVE is a city'],
  ['データベースの設計について', 'がっこうへ行く'],
  ['rollout rollout rollout and more rollout', 'billing'],
  ['x86_64 builds', 'Straße und İstanbul'],
  ['kiwi plans for the quarter', 'quetzal sighting in the report'],
  ['a long note '.repeat(200), 'the rollout again'],
]

const QUERIES = ['rollout', 'rollo', 'billing freeze', 'billing rollout', '灰度', '灰度策略', '灰', '发布流程', 'cafe', 'geneve', 'resume', 'データベース', 'がっこう', 'ベース', 'x86', 'strasse', 'straße', 'istanbul', 'quetz', 'kiwi quetzal', 'nothing-here', 'the', 'note']

function both(): { scan: (query: string) => string[]; disk: SqliteIndex } {
  const disk = openIndex()
  CORPUS.forEach((messages, n) => disk.set(`session-${n}`, entry(...messages)))
  return { scan: query => CORPUS.flatMap((messages, n) => (holds(messages, query) ? [`session-${n}`] : [])).sort(), disk }
}

/**
 * Whether a session's text answers a query, by a plain scan: every word is
 * one of its terms (the last also as a prefix), and every Chinese or
 * Japanese run of the query stands whole in one of its messages.
 */
function holds(messages: readonly string[], query: string): boolean {
  const terms = queryTerms(query)
  if (terms.length === 0) return false
  const all = new Set(messages.flatMap(message => indexTerms(message)))
  if (!terms.every(({ term, prefix }) => (prefix ? [...all].some(held => held.startsWith(term)) : all.has(term)))) return false
  const runs = new Map<number, string>()
  for (const { term, run } of terms) if (run !== undefined) runs.set(run, runs.has(run) ? runs.get(run)! + [...term].at(-1)! : term)
  return [...runs.values()].every(run => messages.some(message => fold(message).includes(run)))
}

const newestFirst = (a: string, b: string) => Number(b.slice(8)) - Number(a.slice(8))
/** The sessions that hold the whole query (partial matches, which name what they lack, left out). */
const found = (index: SqliteIndex, query: string, admit: (id: string) => boolean = () => true) =>
  index.search(queryTerms(query), { admit, limit: 20, tieBreak: newestFirst }).filter(hit => hit.snippet.missing === undefined).map(hit => hit.id).sort()

describe('answers', () => {
  it('are a plain scan\'s for words, the prefix of the last word, CJK substrings, kana and accents', () => {
    const { scan, disk } = both()
    for (const query of QUERIES) expect([query, found(disk, query)]).toEqual([query, scan(query)])
    expect(found(disk, '灰度策略')).toEqual(['session-1'])
    expect(found(disk, 'rollo')).toEqual(['session-0', 'session-4', 'session-7'])
  })

  it('rank the better match first, then the newer session, and make the excerpt of the matching message', () => {
    const { disk } = both()
    const hits = disk.search(queryTerms('rollout'), { admit: () => true, limit: 10, tieBreak: newestFirst })
    expect(hits[0]!.id).toBe('session-4')
    const late = hits.find(hit => hit.id === 'session-7')!
    expect(late.snippet).toMatchObject({ message: 2 })
    expect(late.snippet.text).toContain('rollout again')
    const tied = openIndex()
    tied.set('session-1', entry('same words here'))
    tied.set('session-2', entry('same words here'))
    expect(tied.search(queryTerms('words'), { admit: () => true, limit: 10, tieBreak: newestFirst }).map(hit => hit.id)).toEqual(['session-2', 'session-1'])
  })

  it('find the words of a Chinese or Japanese query in any order, where they stand together first, and a word of three characters only where it stands whole', () => {
    const disk = openIndex()
    disk.set('session-0', entry('不会的。会移动吗？移除它'))
    disk.set('session-1', entry('这个版本不会移除旧的配置'))
    disk.set('session-2', entry('不会移', '除非'))
    expect(found(disk, '不会移除')).toEqual(['session-0', 'session-1'])
    expect(disk.search(queryTerms('不会移除'), { admit: () => true, limit: 5, tieBreak: newestFirst })[0]).toMatchObject({ id: 'session-1', snippet: { text: '这个版本不会移除旧的配置' } })
    expect(found(disk, '移除 不会')).toEqual(['session-0', 'session-1'])
    disk.set('session-3', entry('数据在库里'))
    disk.set('session-4', entry('数据库已经备份'))
    expect(found(disk, '数据库')).toEqual(['session-4'])
    expect(found(disk, '"不会移除"')).toEqual(['session-1'])
  })

  it('find a run only where it stands whole when its pairs stand apart in one message', () => {
    const disk = openIndex()
    disk.set('session-0', entry('它不会移动，但会移除旧的配置'))
    disk.set('session-1', entry('这个版本不会移除旧的配置'))
    disk.set('session-2', entry('灰度策略', '不会移动，会移除吗'))
    expect(found(disk, '"不会移除"')).toEqual(['session-1'])
    expect(found(disk, '会移除')).toEqual(['session-0', 'session-1', 'session-2'])
    const [hit] = disk.search(queryTerms('"不会移除"'), { admit: () => true, limit: 5, tieBreak: newestFirst })
    expect(hit!.snippet.marks.map(([start, end]) => hit!.snippet.text.slice(start, end))).toEqual(['不会移除'])
  })

  it('never name a session the filter keeps out, and stop at the limit', () => {
    const { disk } = both()
    expect(found(disk, 'rollout', id => id !== 'session-4')).toEqual(['session-0', 'session-7'])
    expect(disk.search(queryTerms('rollout'), { admit: () => true, limit: 1, tieBreak: newestFirst })).toHaveLength(1)
  })

  it('find every admitted session however many better matches outside it there are', () => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')
    const { index } = SqliteIndex.open(sqlite, path, { rankedRows: 10 })
    afterTest(() => index.close())
    // Forty sessions outside the scope match better (the word many times) than the three inside it.
    for (let n = 0; n < 40; n += 1) index.set(`session-out-${n}`, entry('quetzal quetzal quetzal quetzal'))
    for (let n = 0; n < 3; n += 1) index.set(`session-in-${n}`, entry(`a long note that names the quetzal once ${'among many other words '.repeat(20)}`))
    const admitted = ['session-in-0', 'session-in-1', 'session-in-2']
    const hits = index.search(queryTerms('quetzal'), { admit: id => admitted.includes(id), limit: 10, tieBreak: (a, b) => a.localeCompare(b), admitted })
    expect(hits.map(hit => hit.id).sort()).toEqual(admitted)
  })

  it('rank a bounded batch of rows at a time, and still give every match up to the limit', () => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')
    const { index } = SqliteIndex.open(sqlite, path, { rankedRows: 7 })
    afterTest(() => index.close())
    for (let n = 0; n < 60; n += 1) index.set(`session-${n}`, entry(`report ${n} names the quetzal ${'and other words '.repeat(n % 5)}`, n % 3 === 0 ? '我们讨论了灰度策略' : '灰度 发布 策略 分开'))
    const all = index.search(queryTerms('quetzal'), { admit: () => true, limit: 100, tieBreak: newestFirst })
    expect(all.map(hit => hit.id).sort()).toEqual(Array.from({ length: 60 }, (_, n) => `session-${n}`).sort())
    expect(index.search(queryTerms('quetzal'), { admit: () => true, limit: 25, tieBreak: newestFirst })).toHaveLength(25)
    // The phrase stands whole in every third session only: its pairs found apart in the others are passed over batch after batch.
    expect(index.search(queryTerms('"灰度策略"'), { admit: () => true, limit: 100, tieBreak: newestFirst }).filter(hit => hit.snippet.missing === undefined).map(hit => hit.id).sort()).toEqual(Array.from({ length: 20 }, (_, n) => `session-${3 * n}`).sort())
    // Its words, in any order, are in every session: those where they stand together come first.
    expect(index.search(queryTerms('灰度策略'), { admit: () => true, limit: 100, tieBreak: newestFirst }).slice(0, 20).map(hit => hit.id).sort()).toEqual(Array.from({ length: 20 }, (_, n) => `session-${3 * n}`).sort())
  })

  it('ask a prefix as the terms it starts where they are few, as a prefix past that, with the same answers', () => {
    const { scan, disk } = both()
    // Seventy words that start with "quo", in sessions of their own; "quetz" starts one.
    for (let n = 0; n < 70; n += 1) disk.set(`session-q${n}`, entry(`quo${String.fromCharCode(97 + (n % 26))}${n} marks`))
    expect(disk.termsStarting('quetz', MAX_EXPANSION + 1)).toEqual(['quetzal'])
    expect(disk.termsStarting('rollo', MAX_EXPANSION + 1)).toEqual(['rollout'])
    expect(disk.termsStarting('灰', MAX_EXPANSION + 1)).toEqual(['灰度'])
    expect(disk.termsStarting('quo', MAX_EXPANSION + 1)).toHaveLength(MAX_EXPANSION + 1)
    const vocabulary = (prefix: string, limit: number) => disk.termsStarting(prefix, limit)
    expect(expansionsOf(queryTerms('kiwi quetz'), vocabulary)).toEqual(new Map([['quetz', ['quetzal']]]))
    expect(expansionsOf(queryTerms('quo'), vocabulary)).toEqual(new Map())
    expect(matchOf(queryTerms('billing rollo'), expansionsOf(queryTerms('billing rollo'), vocabulary))).toBe('"billing" AND ("rollout")')
    const quo = Array.from({ length: 70 }, (_, n) => `session-q${n}`)
    expect(found(disk, 'quo').length).toBe(20)
    expect(disk.search(queryTerms('quo'), { admit: () => true, limit: 100, tieBreak: newestFirst }).map(hit => hit.id).sort()).toEqual(quo.sort())
    // A session deleted leaves its terms in the vocabulary: asked for, they match nothing.
    disk.delete('session-6')
    expect(found(disk, 'quetz')).toEqual([])
    for (const query of QUERIES) expect([query, found(disk, query)]).toEqual([query, scan(query).filter(id => id !== 'session-6')])
  })

  it('make the excerpt of the first message that matches, with its number, in a long session', () => {
    const disk = openIndex()
    const long = Array.from({ length: 400 }, (_, n) => `message ${n} about nothing ${'filler '.repeat(30)}`)
    long[250] = 'here the quetzal appears at last'
    long[300] = '这里讨论灰度策略的细节'
    disk.set('session-a', { ...entry(...long), origins: long.map((_, n) => ({ seq: 10 + n, time: 1000 + n, role: n % 2 === 0 ? 'user' : 'assistant' })) })
    const [hit] = disk.search(queryTerms('quetzal'), { admit: () => true, limit: 5, tieBreak: newestFirst })
    expect(hit).toMatchObject({ snippet: { message: 251, text: 'here the quetzal appears at last' }, origin: { seq: 260, time: 1250, role: 'user' } })
    expect(disk.search(queryTerms('灰度策略'), { admit: () => true, limit: 5, tieBreak: newestFirst })[0]!.snippet).toMatchObject({ message: 301, text: '这里讨论灰度策略的细节' })
  })
})

  it('name a word in its first piece in places and its later pieces apart, find a run whose pairs first stand apart, and excerpt the first message of every word', () => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')
    // A session long enough for `places` to name its pieces.
    const disk = openIndex(path)
    const filler = (n: number) => `filler ${n} ${'padding '.repeat(80)}`
    // Piece 1 holds the run's pairs apart and the first quetzal; later pieces hold quetzal again, and the run whole.
    const messages = ['不会 and 移除 apart, 会移 too, the first quetzal here', ...Array.from({ length: 80 }, (_, n) => filler(n))]
    messages[20] = 'a second quetzal sighting'
    messages[30] = '这里说的是不会移除的数据'
    disk.set('session-r', entry(...messages))
    const [word] = disk.search(queryTerms('quetzal'), { admit: () => true, limit: 5, tieBreak: newestFirst })
    expect(word?.snippet).toMatchObject({ message: 1 })
    const [run] = disk.search(queryTerms('"不会移除"'), { admit: () => true, limit: 5, tieBreak: newestFirst })
    expect(run?.snippet).toMatchObject({ message: 31, text: '这里说的是不会移除的数据' })
    disk.close()
    // The file's own record: quetzal named in places in its first piece and in `inside` in the later one; each pair of the run in every piece that holds it.
    const db = new DatabaseSync(path)
    afterTest(() => db.close())
    db.exec("CREATE VIRTUAL TABLE temp.placed USING fts5vocab(main, 'places', 'row')")
    const rows = (term: string) => (db.prepare('SELECT doc FROM temp.placed WHERE term = ?').get(term) as { doc: number } | undefined)?.doc
    expect({ quetzal: rows('quetzal'), 不会: rows('不会'), 移除: rows('移除') }).toEqual({ quetzal: 1, 不会: 2, 移除: 2 })
    db.exec("CREATE VIRTUAL TABLE temp.later USING fts5vocab(main, 'inside', 'row')")
    const later = (term: string) => (db.prepare('SELECT doc FROM temp.later WHERE term = ?').get(term) as { doc: number } | undefined)?.doc
    expect({ quetzal: later('quetzal'), 不会: later('不会') }).toEqual({ quetzal: 1, 不会: undefined })
    expect(later('filler')).toBeGreaterThan(2)
  })

describe('the pieces of long sessions only, named', () => {
  const openPlacing = (path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')): SqliteIndex => {
    const { index } = SqliteIndex.open(sqlite, path)
    afterTest(() => index.close())
    return index
  }
  const placedOf = (path: string, id: string): number => {
    const db = new DatabaseSync(path, { readOnly: true })
    try {
      return (db.prepare('SELECT placed FROM sessions WHERE id = ?').get(id) as { placed: number }).placed
    } finally {
      db.close()
    }
  }
  const filler = (n: number) => `filler ${n} ${'padding '.repeat(80)}`

  it('gives a plain scan\'s answers, and the excerpt of the first matching message of a short session and of a long one', () => {
    const disk = openPlacing()
    CORPUS.forEach((messages, n) => disk.set(`session-${n}`, entry(...messages)))
    for (const query of QUERIES) {
      expect([query, found(disk, query)]).toEqual([query, CORPUS.flatMap((messages, n) => (holds(messages, query) ? [`session-${n}`] : [])).sort()])
    }
    expect(disk.search(queryTerms('rollout'), { admit: id => id === 'session-7', limit: 5, tieBreak: newestFirst })[0]!.snippet).toMatchObject({ message: 2 })
    // A short session whose run stands apart in its first message and whole in its second.
    disk.set('session-run', entry('不会移 and 会移除 apart', '这里说的是不会移除的数据'))
    expect(disk.search(queryTerms('"不会移除"'), { admit: id => id === 'session-run', limit: 5, tieBreak: newestFirst }).map(hit => hit.snippet.message)).toEqual([2])
    const long = Array.from({ length: 60 }, (_, n) => filler(n))
    long[40] = 'the quetzal appears late'
    long[50] = '这里说的是不会移除的数据'
    disk.set('session-long', entry(...long))
    expect(placedOf(disk.path, 'session-long')).toBe(1)
    expect(placedOf(disk.path, 'session-0')).toBe(0)
    expect(disk.search(queryTerms('quetzal'), { admit: () => true, limit: 5, tieBreak: newestFirst }).map(hit => [hit.id, hit.snippet.message]).sort()).toEqual([['session-6', 2], ['session-long', 41]])
    expect(disk.search(queryTerms('"不会移除"'), { admit: () => true, limit: 5, tieBreak: newestFirst }).map(hit => [hit.id, hit.snippet.message]).sort()).toEqual([['session-long', 51], ['session-run', 2]])
  })

  it('writes a short session without places, appends to it while it stays short, and writes it again whole with them once it is not', () => {
    const disk = openPlacing()
    const messages = ['a kiwi at first']
    disk.set('session-a', entry(...messages))
    expect(placedOf(disk.path, 'session-a')).toBe(0)
    // Nothing of it in `places`.
    const vocabulary = new DatabaseSync(disk.path, { readOnly: true })
    vocabulary.exec("CREATE VIRTUAL TABLE temp.placed USING fts5vocab(main, 'places', 'row')")
    expect((vocabulary.prepare('SELECT count(*) AS n FROM temp.placed').get() as { n: number }).n).toBe(0)
    vocabulary.close()
    messages.push(filler(1), filler(2))
    disk.set('session-a', entry(...messages))
    const db = new DatabaseSync(disk.path, { readOnly: true })
    afterTest(() => db.close())
    const segments = () => (db.prepare('SELECT segments FROM sessions WHERE id = ?').get('session-a') as { segments: number }).segments
    expect([placedOf(disk.path, 'session-a'), segments()]).toEqual([0, 2])
    for (let n = 3; n < 70; n += 1) messages.push(filler(n))
    messages.push('and a quetzal at last')
    disk.set('session-a', entry(...messages))
    expect([placedOf(disk.path, 'session-a'), segments()]).toEqual([1, 1])
    expect(disk.search(queryTerms('kiwi quetzal'), { admit: () => true, limit: 5, tieBreak: newestFirst }).map(hit => [hit.id, hit.snippet.message])).toEqual([['session-a', 1]])
    expect(disk.search(queryTerms('quetzal'), { admit: () => true, limit: 5, tieBreak: newestFirst })[0]!.snippet.message).toBe(messages.length)
  })
})

describe('inside one session', () => {
  const filler = (n: number) => `filler ${n} ${'padding '.repeat(80)}`
  /** A long session (more than 8 pieces, so `places` names them) and a short one, holding the corpus's messages among filler. */
  function sessions(): { disk: SqliteIndex; long: string[]; short: string[] } {
    const disk = openIndex()
    const long = Array.from({ length: 70 }, (_, n) => filler(n))
    CORPUS.flat().forEach((message, n) => { long[5 + n * 4] = message })
    long[66] = '不会移 and 会移除 apart'
    const short = CORPUS.flat().slice(0, 8)
    disk.set('session-long', entry(...long))
    disk.set('session-short', entry(...short))
    return { disk, long, short }
  }
  const scan = (messages: readonly string[], query: string) => messages.flatMap((message, n) => (holds([message], query) ? [n + 1] : []))
  const numbers = (disk: SqliteIndex, id: string, query: string) => disk.searchSession(id, queryTerms(query), 100)!.matches.map(match => match.message).sort((a, b) => a - b)

  it('finds the messages a plain scan of each message finds, in a long session and a short one', () => {
    const { disk, long, short } = sessions()
    for (const query of [...QUERIES, '不会移除', 'padding']) {
      expect([query, numbers(disk, 'session-long', query)]).toEqual([query, scan(long, query)])
      expect([query, numbers(disk, 'session-short', query)]).toEqual([query, scan(short, query)])
    }
  })

  it('gives each match\'s number, excerpt and origin, the densest match first', () => {
    const { disk } = sessions()
    const { matches, more } = disk.searchSession('session-long', queryTerms('rollout'), 3)!
    expect(more).toBe(false)
    // Four matches in message 38 first; then one match in the shortest messages: `the rollout again` (66), `The rollout waits for the freeze.` (10).
    expect(matches.map(match => match.message)).toEqual([38, 66, 10])
    expect(matches[0]!.snippet).toMatchObject({ message: 38, text: 'rollout rollout rollout and more rollout' })
    expect(disk.searchSession('session-nowhere', queryTerms('rollout'), 3)).toBeUndefined()
  })

  it('reads a bounded number of pieces, and says when more may match', () => {
    const disk = openIndex()
    disk.set('session-big', entry(...Array.from({ length: 1_000 }, (_, n) => filler(n))))
    const { matches, more } = disk.searchSession('session-big', queryTerms('padding'), 20)!
    expect(matches).toHaveLength(20)
    expect(more).toBe(true)
    expect(disk.searchSession('session-big', queryTerms('filler 999'), 20)!.matches.map(match => match.message)).toEqual([1_000])
  })
})

describe('writes', () => {
  it('append only the new messages of a session whose earlier ones are unchanged, and find terms across its segments', () => {
    const disk = openIndex()
    const messages = ['the first message says kiwi']
    disk.set('session-a', entry(...messages))
    const before = statSync(disk.path).size + (() => { try { return statSync(`${disk.path}-wal`).size } catch { return 0 } })()
    disk.checkpoint(false)
    // Words that do not repeat, so the stored text does not compress away.
    const long = Array.from({ length: 1_000 }, (_, n) => `message ${n} about nothing in particular ${Array.from({ length: 40 }, (_, k) => `w${((n * 40 + k) * 2654435761 % 1e9).toString(36)}`).join(' ')}`)
    disk.set('session-b', entry(...long))
    disk.checkpoint(false)
    const wal = (): number => statSync(`${disk.path}-wal`).size
    const other = new DatabaseSync(disk.path)
    afterTest(() => other.close())
    // The log emptied first, so what a write adds to it is all it wrote.
    const growth = (write: () => void): number => {
      other.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      const start = wal()
      write()
      return wal() - start
    }
    // One new message of a 1,001-message session writes pages for that message, not for the session.
    const small = growth(() => disk.set('session-b', entry(...long, 'then a quetzal appeared')))
    const rewrite = growth(() => disk.set('session-b', entry('changed first message', ...long.slice(1), 'then a quetzal appeared')))
    expect(small).toBeLessThan(rewrite / 4)
    expect(before).toBeGreaterThan(0)
    disk.set('session-a', entry(...messages, 'and later a quetzal'))
    expect(found(disk, 'kiwi quetzal')).toEqual(['session-a'])
    expect(found(disk, 'quetzal')).toEqual(['session-a', 'session-b'])
    expect(disk.search(queryTerms("quetzal"), { admit: id => id === "session-b", limit: 5, tieBreak: newestFirst })[0]!.snippet.message).toBe(1_001)
  })

  it('write a session again as one segment past the segment limit, and after its earlier messages changed', () => {
    const disk = openIndex()
    const messages: string[] = []
    for (let n = 0; n < MAX_SEGMENTS + 3; n += 1) {
      messages.push(`step ${n} word${n}`)
      disk.set('session-a', entry(...messages))
    }
    const db = new DatabaseSync(disk.path)
    const segments = () => (db.prepare('SELECT segments FROM sessions WHERE id = ?').get('session-a') as { segments: number }).segments
    expect(segments()).toBeLessThanOrEqual(MAX_SEGMENTS)
    expect(found(disk, 'word0 word18')).toEqual(['session-a'])
    disk.set('session-a', entry('only this now'))
    expect(segments()).toBe(1)
    expect(found(disk, 'word0')).toEqual([])
    db.close()
    expect(disk.delete('session-a')).toBe(true)
    expect(found(disk, 'only')).toEqual([])
  })
})

describe('a live session\'s appends', () => {
  const append = (earlier: readonly string[], ...messages: string[]) => ({
    revision: `live:${earlier.length + messages.length}`,
    title: 'Live',
    messages,
    origins: messages.map((_, n) => ({ seq: earlier.length + n, time: 1, role: 'user' as const })),
    total: earlier.length + messages.length,
    after: { messages: earlier.length, digest: digestOf(earlier, 0).whole },
    digest: digestOf([...earlier, ...messages], 0).whole,
  })

  it('add the new messages where the file holds exactly the earlier ones, as a whole write would have them', () => {
    const disk = openIndex()
    const whole = openIndex()
    const earlier = ['a live kiwi', 'its reply']
    disk.set('session-a', entry(...earlier))
    expect(disk.append('session-a', append(earlier, 'then a quetzal', 'and a 灰度 plan'))).toBe(true)
    whole.set('session-a', entry(...earlier, 'then a quetzal', 'and a 灰度 plan'))
    for (const query of ['kiwi quetzal', '灰度', 'quetz', 'reply plan']) expect(found(disk, query)).toEqual(found(whole, query))
    expect(disk.summaries()).toEqual([['session-a', { revision: 'live:4', title: 'Live' }]])
    expect(disk.facts('session-a')).toMatchObject({ messages: 4 })
    // The next whole write of the same text finds its earlier messages unchanged: the digests agree.
    const db = new DatabaseSync(disk.path)
    afterTest(() => db.close())
    const segments = () => (db.prepare('SELECT segments FROM sessions WHERE id = ?').get('session-a') as { segments: number }).segments
    expect(segments()).toBe(2)
    disk.set('session-a', entry(...earlier, 'then a quetzal', 'and a 灰度 plan', 'one more'))
    expect(segments()).toBe(3)
  })

  it('are refused where the file holds other earlier messages, another count of them, or none, and change nothing', () => {
    const disk = openIndex()
    const earlier = ['a live kiwi', 'its reply']
    expect(disk.append('session-a', append(earlier, 'a quetzal'))).toBe(false)
    disk.set('session-a', entry('a changed kiwi', 'its reply'))
    expect(disk.append('session-a', append(earlier, 'a quetzal'))).toBe(false)
    expect(disk.append('session-a', append(['a changed kiwi'], 'a quetzal'))).toBe(false)
    expect(found(disk, 'quetzal')).toEqual([])
    expect(found(disk, 'changed')).toEqual(['session-a'])
  })
})

describe('the file', () => {
  it('reopens with what it held, its revisions and titles, complete once said so', () => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')
    const first = SqliteIndex.open(sqlite, path)
    expect(first.rebuilt).toBe('missing')
    first.index.set('session-a', { revision: '7:9', title: 'Kiwi plans', messages: ['QUETZAL'] })
    expect(first.index.complete).toBe(false)
    first.index.checkpoint(true)
    first.index.close()
    const second = SqliteIndex.open(sqlite, path)
    afterTest(() => second.index.close())
    expect(second.rebuilt).toBeUndefined()
    expect(second.index.complete).toBe(true)
    expect(second.index.summaries()).toEqual([['session-a', { revision: '7:9', title: 'Kiwi plans' }]])
    // A checkpoint leaves no write-ahead log behind: the index on disk is its file.
    for (let n = 0; n < 50; n += 1) second.index.set(`session-${n}`, entry(`words of session ${n} `.repeat(200)))
    expect(second.index.checkpoint(true)).toBe(statSync(path).size)
    expect(statSync(`${path}-wal`).size).toBe(0)
    expect(found(second.index, 'quetzal')).toEqual(['session-a'])
  })

  it.each<FoundFile>([
    notADatabase,
    foreignDatabase,
    olderLayout(1, 'another pipeline'),
    olderLayout(0, termsFingerprint()),
    // The layout before, at the current version: a word named in the first piece alone, nothing in `inside`.
    ['outdated', (path: string) => {
      const { index } = SqliteIndex.open(sqlite, path)
      index.set('session-old', entry('written before later pieces had words of their own'))
      index.close()
      const db = new DatabaseSync(path)
      db.exec("UPDATE meta SET value = replace(value, 'words=apart', 'words=first') WHERE key = 'layout'")
      db.close()
    }],
    // The current layout, written by another term pipeline: only the fingerprint tells.
    ['outdated', (path: string) => {
      const { index } = SqliteIndex.open(sqlite, path)
      index.set('session-old', entry('made by another pipeline'))
      index.close()
      const db = new DatabaseSync(path)
      db.exec(`UPDATE meta SET value = 'another pipeline' WHERE key = 'terms'`)
      expect((db.prepare(`SELECT value FROM meta WHERE key = 'version'`).get() as { value: string }).value).toBe(String(SQLITE_VERSION))
      db.close()
    }],
  ])('is built anew over a %s file', (reason, make) => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')
    make(path)
    const opened = SqliteIndex.open(sqlite, path)
    afterTest(() => opened.index.close())
    expect(opened.rebuilt).toBe(reason)
    expect(opened.index.summaries()).toEqual([])
    opened.index.set('session-a', entry('works again'))
    expect(found(opened.index, 'works')).toEqual(['session-a'])
  })

  it('records the layout files of this version have always recorded, so an upgrade keeps them', () => {
    const { index } = SqliteIndex.open(sqlite, join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite'))
    index.close()
    const db = new DatabaseSync(index.path, { readOnly: true })
    afterTest(() => db.close())
    expect(Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map(row => [row.key, row.value]))).toMatchObject({
      version: '7',
      layout: 'detail=none;prefix=;piece=4096;places=true;pairs=true;words=apart;placesFrom=8;segments=16;forms=porter2;text=brotli',
    })
  })

  it('keeps a file whose text was deflated at another level, and reads it', () => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')
    const { index } = SqliteIndex.open(sqlite, path)
    index.set('session-a', entry('the quetzal was seen at dawn'))
    index.close()
    // Its one piece deflated at level 9; files of earlier versions recorded their level in the layout.
    const db = new DatabaseSync(path)
    db.prepare('UPDATE texts SET body = ?').run(pack([['the quetzal was seen at dawn'], [null]], 9))
    db.exec("UPDATE meta SET value = replace(value, ';piece=', ';level=6;piece=') WHERE key = 'layout'")
    db.close()
    const opened = SqliteIndex.open(sqlite, path)
    afterTest(() => opened.index.close())
    expect(opened.rebuilt).toBeUndefined()
    expect(opened.index.search(queryTerms('quetzal'), { admit: () => true, limit: 5, tieBreak: newestFirst }).map(hit => [hit.id, hit.snippet.text])).toEqual([['session-a', 'the quetzal was seen at dawn']])
  })

  it('merges the segments of its term tables sixteen at a time, in a new file and in one built again', () => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')
    const merging = () => mergeSettingsOf(path)
    const first = SqliteIndex.open(sqlite, path)
    first.index.set('session-a', entry('kiwi'))
    first.index.checkpoint(true)
    first.index.close()
    expect(merging()).toEqual({ terms: SIXTEEN, places: SIXTEEN, inside: SIXTEEN })
    const db = new DatabaseSync(path)
    db.exec("UPDATE meta SET value = '4' WHERE key = 'version'")
    db.close()
    const again = SqliteIndex.open(sqlite, path)
    expect(again.rebuilt).toBe('outdated')
    again.index.checkpoint(true)
    again.index.close()
    expect(merging()).toEqual({ terms: SIXTEEN, places: SIXTEEN, inside: SIXTEEN })
  })

  it('keeps a file created with other merge settings, and its settings', () => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')
    const first = SqliteIndex.open(sqlite, path)
    first.index.set('session-a', entry('kiwi'))
    first.index.checkpoint(true)
    first.index.close()
    // FTS5's own settings, as a file created by another version may hold.
    const db = new DatabaseSync(path)
    for (const table of ['terms', 'places', 'inside']) db.exec(`INSERT INTO ${table}(${table}, rank) VALUES ('automerge', 4); INSERT INTO ${table}(${table}, rank) VALUES ('crisismerge', 16)`)
    db.close()
    const second = SqliteIndex.open(sqlite, path)
    expect(second.rebuilt).toBeUndefined()
    expect(second.index.search(queryTerms('kiwi'), { admit: () => true, limit: 10, tieBreak: newestFirst }).map(hit => hit.id)).toEqual(['session-a'])
    second.index.close()
    expect(mergeSettingsOf(path)).toEqual({ terms: FTS5_OWN, places: FTS5_OWN, inside: FTS5_OWN })
  })

  it('gives back the space of an older layout it drops', () => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')
    const { index } = SqliteIndex.open(sqlite, path)
    for (let n = 0; n < 400; n += 1) index.set(`session-${n}`, entry(Array.from({ length: 200 }, (_, k) => `w${((n * 200 + k) * 2654435761 % 1e9).toString(36)}`).join(' ')))
    index.checkpoint(true)
    index.close()
    const db = new DatabaseSync(path)
    db.exec("PRAGMA wal_checkpoint(TRUNCATE); UPDATE meta SET value = '4' WHERE key = 'version'")
    db.close()
    const before = statSync(path).size
    const opened = SqliteIndex.open(sqlite, path)
    afterTest(() => opened.index.close())
    expect(opened.rebuilt).toBe('outdated')
    expect(statSync(path).size).toBeLessThan(before / 4)
  })

  it('says it is damaged when its pages are overwritten while it is open, and a fresh file works in its place', () => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-'), 'content-index.sqlite')
    const { index } = SqliteIndex.open(sqlite, path)
    afterTest(() => index.close())
    for (let n = 0; n < 15; n += 1) index.set(`session-${n}`, entry(`quetzal report ${n}`, 'more words '.repeat(50)))
    expect(found(index, 'quetzal')).toHaveLength(15)
    // Garbage written through another handle: every page of the term index's data.
    const other = new DatabaseSync(path)
    other.exec("UPDATE terms_data SET block = randomblob(length(block)) WHERE id > 10")
    other.exec("UPDATE texts SET body = randomblob(length(body))")
    other.close()
    expect(() => index.search(queryTerms('quetzal'), { admit: () => true, limit: 10, tieBreak: newestFirst })).toThrow(IndexDamagedError)
    index.close()
    SqliteIndex.setAside(path)
    const fresh = SqliteIndex.open(sqlite, path)
    afterTest(() => fresh.index.close())
    expect(fresh.rebuilt).toBe('missing')
    fresh.index.set('session-a', entry('the quetzal again'))
    expect(found(fresh.index, 'quetzal')).toEqual(['session-a'])
  })

  it('after a kill between any two of its writes, opens as it was at the last completed change', { timeout: 120_000 }, () => {
    const folder = temporaryFolder('dsh-sessions-sqlite-kill-')
    // The writer indexes sessions 0…5 and kills itself at its n-th write statement.
    const total = Number(spawnSync(process.execPath, [WRITER, join(folder, 'count.sqlite'), 'count'], { encoding: 'utf8' }).stdout.trim())
    expect(total).toBeGreaterThan(12)
    for (let at = 1; at <= total; at += 1) {
      const path = join(folder, `kill-${at}.sqlite`)
      const run = spawnSync(process.execPath, [WRITER, path, 'kill', String(at)], { encoding: 'utf8' })
      expect(run.signal).toBe('SIGKILL')
      const done = Number(readFileSync(`${path}.done`, 'utf8') || '0')
      const opened = SqliteIndex.open(sqlite, path)
      expect(opened.rebuilt).toBeUndefined()
      const held = opened.index.summaries().map(([id]) => id).sort()
      // Every completed change is there, whole; the one cut short is not there at all (or, for a change of a session already held, as it was).
      const expected = Array.from({ length: Math.min(done, 6) }, (_, n) => `session-${n}`).filter(id => !(id === 'session-5' && done >= 9))
      expect([at, held]).toEqual([at, expected])
      for (const id of held) {
        const n = Number(id.slice(8))
        expect(found(opened.index, `alpha${n}`)).toEqual([id])
      }
      expect(found(opened.index, 'omega')).toEqual(held.filter(id => Number(id.slice(8)) < 2 && done > 6 + Number(id.slice(8))))
      opened.index.close()
    }
  })

  it('takes two writers at once without losing or corrupting a change', async () => {
    const path = join(temporaryFolder('dsh-sessions-sqlite-two-'), 'content-index.sqlite')
    SqliteIndex.open(sqlite, path).index.close()
    const run = (name: string) => new Promise<number | null>(resolve => {
      spawn(process.execPath, [WRITER, path, 'writer', name], { stdio: 'ignore' }).on('exit', code => resolve(code))
    })
    expect(await Promise.all([run('left'), run('right')])).toEqual([0, 0])
    const opened = SqliteIndex.open(sqlite, path)
    afterTest(() => opened.index.close())
    expect(opened.rebuilt).toBeUndefined()
    const ids = opened.index.summaries().map(([id]) => id)
    expect(ids.filter(id => id.startsWith('session-left')).length).toBe(40)
    expect(ids.filter(id => id.startsWith('session-right')).length).toBe(40)
    expect(found(opened.index, 'shared').length).toBe(1)
    for (const word of ['leftword', 'rightword']) expect(opened.index.search(queryTerms(word), { admit: () => true, limit: 100, tieBreak: newestFirst })).toHaveLength(40)
  })
})
