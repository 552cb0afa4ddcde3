/**
 * Finding what a person means, on the index: other forms of a word, Chinese words in any order, partial
 * matches ranked by rarity with what they lack, phrases, `from:`, and bounded work whatever the store holds.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MessageRole } from '../../src/host/official/conversation.ts'
import { MAX_PARTIAL, PARTIAL_BELOW } from '../../src/host/search/worker/partial-matches.ts'
import { loadSqlite } from '../../src/host/search/worker/sqlite-capability.ts'
import { SqliteIndex } from '../../src/host/search/worker/sqlite-index.ts'
import { queryTerms } from '../../src/host/search/text/terms.ts'
import { unspacedWords } from '../../src/host/search/text/unspaced-words.ts'
import { stemOf } from '../../src/host/search/text/word-forms.ts'
import { afterTest, temporaryFolder } from './cleanup.ts'

const loaded = await loadSqlite()
if (!loaded.ok) throw new Error(loaded.reason)
const sqlite = loaded.sqlite

function openIndex(options: { readonly partialRows?: number } = {}): SqliteIndex {
  const { index } = SqliteIndex.open(sqlite, join(temporaryFolder('dsh-sessions-finding-'), 'content-index.sqlite'), options)
  afterTest(() => index.close())
  return index
}

/** A session of turns, the person's message then the model's. */
function put(index: SqliteIndex, id: string, ...messages: string[]): void {
  const origins = messages.map((_, n) => ({ seq: n, time: n, role: (n % 2 === 0 ? 'user' : 'assistant') as MessageRole }))
  index.set(id, { revision: 'r', title: undefined, messages, origins })
}

const newestFirst = (a: string, b: string) => b.localeCompare(a)
const find = (index: SqliteIndex, query: string, limit = 20, role?: MessageRole) => index.search(queryTerms(query), { admit: () => true, limit, tieBreak: newestFirst, role })
const ids = (index: SqliteIndex, query: string) => find(index, query).map(hit => hit.id)

describe('other forms of a word', () => {
  it('stem with Porter2, so fails, failed and failing, cookie and cookies, leak and leaking are one word', () => {
    for (const group of [['fail', 'fails', 'failed', 'failing'], ['cookie', 'cookies'], ['leak', 'leaks', 'leaking', 'leaked'], ['deploy', 'deploys', 'deployed', 'deployment']]) {
      expect(new Set(group.map(stemOf)), group.join()).toEqual(new Set([stemOf(group[0]!)]))
    }
    expect(stemOf('is')).toBeUndefined()
    expect(stemOf('x86')).toBeUndefined()
  })

  it('find a session by another form of each word, mark the form found, and put the one as typed first', () => {
    const index = openIndex()
    put(index, 'session-a', 'The deploy failed twice on staging')
    put(index, 'session-b', 'Cookies are leaking across tabs')
    put(index, 'session-c', 'The deploys failing on staging')
    expect(ids(index, 'deploys failing')).toEqual(['session-c', 'session-a'])
    expect(ids(index, 'cookie leak')).toEqual(['session-b'])
    const [hit] = find(index, 'cookie leak')
    expect(hit!.snippet.marks.map(([start, end]) => hit!.snippet.text.slice(start, end))).toEqual(['Cookies', 'leaking'])
    // A quoted word is asked only as typed.
    expect(ids(index, '"failed"')).toEqual(['session-a'])
  })
})

describe('Chinese words in any order', () => {
  it('split a run into words with ICU, join characters it does not know, and drop a particle alone', () => {
    expect(unspacedWords('签名校验')).toEqual(['签名', '校验'])
    expect(unspacedWords('校验用户的权限')).toEqual(['校验', '用户', '权限'])
    expect(unspacedWords('空值缓存')).toEqual(['空值', '缓存'])
    expect(unspacedWords('数据库连接超时了')).toEqual(['数据库', '连接', '超时'])
    expect(unspacedWords('灰')).toEqual(['灰'])
    // Japanese keeps its words too, particles dropped.
    expect(unspacedWords('データベースの接続')).toEqual(['データベース', '接続'])
  })

  it('find each word anywhere in the session, the run as typed first', () => {
    const index = openIndex()
    put(index, 'session-a', '先校验签名，再看证书')
    put(index, 'session-b', '我们需要签名校验的流程')
    put(index, 'session-c', '只有签名，没有别的')
    expect(ids(index, '签名校验')).toEqual(['session-b', 'session-a', 'session-c'])
    expect(find(index, '签名校验').map(hit => hit.snippet.missing)).toEqual([undefined, undefined, ['校验']])
    // A run whose particles are left out (把规范的 asks for 规范) still answers first where it stands whole.
    put(index, 'session-d', '我们要把规范的条目整理一遍')
    put(index, 'session-e', '规范已经写好了')
    put(index, 'session-f', '规范的问题，先把它放下')
    const particles = ids(index, '把规范的')
    expect(particles[0]).toBe('session-d')
    expect(new Set(particles)).toEqual(new Set(['session-d', 'session-e', 'session-f']))
    // Korean, spaced, is no worse than before.
    put(index, 'session-k', '데이터베이스 연결 시간 초과')
    expect(ids(index, '연결 초과')).toEqual(['session-k'])
  })
})

describe('partial matches', () => {
  it('follow the sessions holding every word, rarer words weighing more, each saying what it lacks, and never leave the answer empty while a word matches', () => {
    const index = openIndex()
    put(index, 'session-pg', 'postgres autovacuum settings were too lazy', 'the vacuum took hours')
    for (let n = 0; n < 8; n += 1) put(index, `session-v${n}`, `vacuum cleaner review ${n}`)
    put(index, 'session-all', 'postgres vacuum bloat is real')
    const hits = find(index, 'postgres vacuum bloat')
    expect(hits[0]).toMatchObject({ id: 'session-all', snippet: { text: 'postgres vacuum bloat is real' } })
    expect(hits[0]!.snippet.missing).toBeUndefined()
    // The rarer word (postgres) outweighs the common one (vacuum).
    expect(hits[1]).toMatchObject({ id: 'session-pg', snippet: { missing: ['bloat'] } })
    expect(hits.slice(2).every(hit => hit.snippet.missing?.join() === 'postgres,bloat')).toBe(true)
    expect(hits.length).toBeLessThanOrEqual(2 + MAX_PARTIAL)
    index.delete('session-all')
    expect(find(index, 'postgres vacuum bloat')[0]).toMatchObject({ id: 'session-pg', snippet: { missing: ['bloat'] } })
    expect(find(index, 'quagga bloat')).toEqual([])
  })

  it('follow only an answer of fewer sessions holding every word than a screenful, however many are asked for', () => {
    const index = openIndex()
    put(index, 'session-part', 'the kestrel nested somewhere')
    for (let n = 0; n < PARTIAL_BELOW - 1; n += 1) put(index, `session-w${String(n).padStart(2, '0')}`, `kestrel wingspan ${n}`)
    // One fewer than a screenful holds both words: the partial match follows them, as the `@` menu's 50 and the sidebar's 21 ask.
    for (const limit of [50, PARTIAL_BELOW]) {
      const hits = find(index, 'kestrel wingspan', limit)
      expect(hits).toHaveLength(PARTIAL_BELOW)
      expect(hits.at(-1)).toMatchObject({ id: 'session-part', snippet: { missing: ['wingspan'] } })
    }
    // A screenful holds both: the `@` menu's 50 gets them alone, in the same order as the sidebar's first rows.
    put(index, 'session-w99', 'kestrel wingspan 99')
    const hits = find(index, 'kestrel wingspan', 50)
    expect(hits).toHaveLength(PARTIAL_BELOW)
    expect(hits.every(hit => hit.snippet.missing === undefined)).toBe(true)
    expect(hits.slice(0, 20).map(hit => hit.id)).toEqual(find(index, 'kestrel wingspan', 20).map(hit => hit.id))
  })

  it('find the sessions holding the common words together when no rarer word names them, and look for a common word in the text', () => {
    // Any group in more than four segment rows is common here.
    const index = openIndex({ partialRows: 4 })
    for (let n = 0; n < 6; n += 1) put(index, `session-c${n}`, `cookie jar ${n} ${'crumbs '.repeat(30)}`)
    for (let n = 0; n < 6; n += 1) put(index, `session-d${n}`, `domain name ${n} ${'records '.repeat(30)}`)
    put(index, 'session-meant', 'the cookie domain was too wide')
    put(index, 'session-out', 'the logout button')
    const hits = find(index, 'cookie domain logout')
    expect(hits.map(hit => hit.id)).toContain('session-meant')
    expect(hits.find(hit => hit.id === 'session-meant')!.snippet.missing).toEqual(['logout'])
    expect(hits.find(hit => hit.id === 'session-out')!.snippet.missing).toEqual(['cookie', 'domain'])
  })

  it('rank by the words held alone when asked for a draft: a short session holding the rare words before a long one holding every word', () => {
    const index = openIndex()
    for (let n = 0; n < 6; n += 1) put(index, `session-f${n}`, `alpha beta filler ${n}`)
    put(index, 'session-long', `quetzal orchard alpha beta ${Array.from({ length: 300 }, (_, n) => `word${n}`).join(' ')}`)
    put(index, 'session-short', 'the quetzal orchard')
    const asked = { admit: () => true, limit: 3, tieBreak: newestFirst }
    expect(index.search(queryTerms('quetzal orchard alpha beta'), asked).map(hit => hit.id)).toEqual(['session-long', 'session-short', expect.any(String)])
    const most = index.search(queryTerms('quetzal orchard alpha beta'), { ...asked, mostWords: true })
    expect(most[0]).toMatchObject({ id: 'session-short', snippet: { missing: ['alpha', 'beta'] } })
    // The long session holds every word, yet weighs less for its length.
    const long = index.search(queryTerms('quetzal orchard alpha beta'), { ...asked, limit: 20, mostWords: true }).find(hit => hit.id === 'session-long')!
    expect(long.snippet.missing).toBeUndefined()
    expect(long.score).toBeLessThan(most[0]!.score)
  })

  it('say a common word is missing only when the session lacks it, wherever in a long session it stands', () => {
    const index = openIndex({ partialRows: 4 })
    for (let n = 0; n < 6; n += 1) put(index, `session-n${n}`, `node release ${n}`)
    // Three pieces of text: the common word only in the last.
    const long = ['the memory leak grew', 'x'.repeat(4_100), 'y'.repeat(4_100), 'it was the node worker']
    put(index, 'session-long', ...long)
    put(index, 'session-short', 'a memory leak somewhere')
    put(index, 'session-said', 'memory leak in the node worker')
    put(index, 'session-bare', 'memory leak found')
    const hits = find(index, 'node memory leak profiler')
    expect(hits.find(hit => hit.id === 'session-long')!.snippet.missing).toEqual(['profiler'])
    expect(hits.find(hit => hit.id === 'session-short')!.snippet.missing).toEqual(['node', 'profiler'])
    // The common word its text shows counts: the longer session holding it comes before the shorter one without.
    const order = hits.map(hit => hit.id)
    expect(order.indexOf('session-said')).toBeLessThan(order.indexOf('session-bare'))
  })

  it('name a phrase found only apart as missing', () => {
    const index = openIndex()
    put(index, 'session-a', 'the connection was reset by the peer')
    put(index, 'session-b', 'connection reset by peer')
    expect(find(index, '"connection reset"').map(hit => [hit.id, hit.snippet.missing])).toEqual([['session-b', undefined], ['session-a', ['connection reset']]])
  })
})

describe('from:', () => {
  it('keeps to the words one side said, read from the text', () => {
    const index = openIndex()
    put(index, 'session-a', 'the deploy failed on staging', 'the readiness probe hits the endpoint early')
    put(index, 'session-b', 'what about the probe?', 'the deploy failed again')
    expect(find(index, 'deploy', 20, 'user').map(hit => hit.id)).toEqual(['session-a'])
    expect(find(index, 'deploy', 20, 'assistant').map(hit => hit.id)).toEqual(['session-b'])
    expect(find(index, 'probe', 20, 'assistant').map(hit => [hit.id, hit.snippet.text])).toEqual([['session-a', 'the readiness probe hits the endpoint early']])
    // The model said deploy but not staging: a partial match, saying so; what neither side's words hold is no match.
    expect(find(index, 'deploy staging', 20, 'assistant').map(hit => [hit.id, hit.snippet.missing])).toEqual([['session-b', ['staging']]])
    expect(find(index, 'staging endpoint', 20, 'user').map(hit => [hit.id, hit.snippet.missing])).toEqual([['session-a', ['endpoint']]])
  })
})

describe('ranking', () => {
  it('rank every matching session, not the first thousand in the order they were indexed', () => {
    const index = openIndex()
    for (let n = 0; n < 1_200; n += 1) put(index, `session-${String(n).padStart(4, '0')}`, `alpha beta ${n} ${Array.from({ length: 30 }, (_, k) => `w${n}x${k}`).join(' ')}`)
    put(index, 'session-late', 'alpha beta')
    expect(find(index, 'alpha beta', 5)[0]!.id).toBe('session-late')
  })

  it('put a session where one message holds every word, in any form, before shorter ones where the words stand in different messages', () => {
    const index = openIndex()
    // Shorter sessions that hold both words, each in its own message.
    for (const n of [1, 2, 3]) put(index, `session-apart-${n}`, 'The builds were slow', 'We added caching today')
    put(index, 'session-meant', 'Why is every build so slow when the docker layers were cached before, and what should we change in the pipeline so they stay that way?', 'Keep them')
    expect(ids(index, 'builds caching')[0]).toBe('session-meant')
    // Words as typed and together still come first.
    put(index, 'session-together', 'builds caching tuned', 'the end of the story for now, more to come later in the week')
    expect(ids(index, 'builds caching').slice(0, 2)).toEqual(['session-together', 'session-meant'])
  })
})

describe('bounded work', () => {
  it('answers a phrase that stands apart in a thousand sessions with what a bounded read found, in order, without error', () => {
    const index = openIndex()
    for (let n = 0; n < 1_000; n += 1) put(index, `session-${String(n).padStart(4, '0')}`, `alpha ${'filler words '.repeat(40)} beta ${n}`)
    put(index, 'session-zzzz', 'alpha beta together')
    const hits = find(index, '"alpha beta"', 50)
    expect(hits.length).toBeLessThanOrEqual(50)
    expect(hits.every(hit => hit.snippet.missing === undefined || hit.snippet.missing.join() === 'alpha beta')).toBe(true)
  })
})
