/** Find in one session: the messages that hold a query, in order, paged, from the index and from a conversation read whole alike; and `read_session`'s search inside a session, which matches as find does and ranks the densest first. */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadSqlite } from '../../src/host/search/worker/sqlite-capability.ts'
import { type ContentEntry, SqliteIndex } from '../../src/host/search/worker/sqlite-index.ts'
import { scanMessages } from '../../src/host/search/text/conversation-search.ts'
import { findInConversation, MAX_FIND_PIECES } from '../../src/host/search/text/conversation-find.ts'
import { queryTerms } from '../../src/host/search/text/terms.ts'
import { afterTest, temporaryFolder } from './cleanup.ts'

const loaded = await loadSqlite()
if (!loaded.ok) throw new Error(loaded.reason)
const { sqlite } = loaded

function openIndex(): SqliteIndex {
  const { index } = SqliteIndex.open(sqlite, join(temporaryFolder('dsh-sessions-find-'), 'content-index.sqlite'))
  afterTest(() => index.close())
  return index
}

const filler = (n: number) => `filler ${n} ${'padding '.repeat(80)}`

/** A session's messages, with log events: message n (from 1) has seq 10·n, and odd ones are the person's. */
function entryOf(messages: readonly string[]): ContentEntry {
  return { revision: `r${messages.length}`, title: undefined, messages, origins: messages.map((_, n) => ({ seq: 10 * (n + 1), time: 1_000 + n, role: n % 2 === 0 ? 'user' : 'assistant' })) }
}

/** Messages planted among filler, by number (from 1). */
const PLANTED: Readonly<Record<number, string>> = {
  3: 'The deploy failed at the health check.',
  12: 'Deploys keep failing since Monday',
  20: '我们先校验用户的权限，再签名',
  31: 'connection reset by peer, again',
  44: 'the connection was reset twice',
  60: 'a deploy that fails the check',
  95: '签名校验失败了',
}

function sessionOf(length: number): string[] {
  return Array.from({ length }, (_, n) => PLANTED[n + 1] ?? filler(n + 1))
}

describe('find in session', () => {
  for (const [kind, length] of [['a long session (its pieces named by places)', 120], ['a short one (its pieces read in order)', 3]] as const) {
    it(`answers in order, every form of a word and Chinese words in any order, in ${kind}`, () => {
      const disk = openIndex()
      const messages = sessionOf(length)
      disk.set('session-a', entryOf(messages))
      const numbers = (query: string) => disk.findInSession('session-a', { terms: queryTerms(query), after: 0, limit: 50 })!.matches.map(match => match.message)
      const expected = (wanted: number[]) => wanted.filter(n => n <= length)
      expect(numbers('deploy failed')).toEqual(expected([3, 12, 60]))
      expect(numbers('权限校验')).toEqual(expected([20]))
      expect(numbers('校验签名')).toEqual(expected([20, 95]))
      expect(numbers('"connection reset"')).toEqual(expected([31]))
      expect(numbers('connection reset')).toEqual(expected([31, 44]))
      expect(numbers('quetzal')).toEqual([])
    })
  }

  it('gives each match its number, log event, side and an excerpt marking the form found', () => {
    const disk = openIndex()
    disk.set('session-a', entryOf(sessionOf(120)))
    const { matches, total, complete } = disk.findInSession('session-a', { terms: queryTerms('failing'), after: 0, limit: 50 })!
    expect([total, complete]).toEqual([3, true])
    expect(matches[0]).toMatchObject({ message: 3, origin: { seq: 30, role: 'user' } })
    const { text, marks } = matches[0]!.snippet
    expect(marks.map(([start, end]) => text.slice(start, end))).toEqual(['failed'])
    expect(disk.findInSession('session-nowhere', { terms: queryTerms('failing'), after: 0, limit: 50 })).toBeUndefined()
  })

  it('pages after a message, counting the matches past the page', () => {
    const disk = openIndex()
    disk.set('session-a', entryOf(Array.from({ length: 300 }, (_, n) => filler(n + 1))))
    const first = disk.findInSession('session-a', { terms: queryTerms('padding'), after: 0, limit: 50 })!
    expect(first.matches.map(match => match.message)).toEqual(Array.from({ length: 50 }, (_, n) => n + 1))
    expect([first.total, first.complete]).toEqual([300, true])
    const next = disk.findInSession('session-a', { terms: queryTerms('padding'), after: 50, limit: 50 })!
    expect(next.matches[0]!.message).toBe(51)
    expect(next.total).toBe(250)
    expect(disk.findInSession('session-a', { terms: queryTerms('padding'), after: 299, limit: 50 })!.matches.map(match => match.message)).toEqual([300])
    expect(disk.findInSession('session-a', { terms: queryTerms('padding'), after: 300, limit: 50 })).toMatchObject({ matches: [], total: 0, complete: true })
  })

  it('reads a bounded number of pieces, and says the count is a lower bound when it stops short', () => {
    const disk = openIndex()
    // Each filler message fills most of a piece: far more pieces than one request reads.
    disk.set('session-big', entryOf(Array.from({ length: 2_000 }, (_, n) => filler(n + 1))))
    const { matches, total, complete } = disk.findInSession('session-big', { terms: queryTerms('padding'), after: 0, limit: 50 })!
    expect(matches).toHaveLength(50)
    expect(complete).toBe(false)
    expect(total).toBeGreaterThanOrEqual(MAX_FIND_PIECES)
    expect(total).toBeLessThan(2_000)
    // A rare word past the bound is still found: only the pieces that hold it are read.
    expect(disk.findInSession('session-big', { terms: queryTerms('filler 1999'), after: 0, limit: 50 })).toMatchObject({ total: 1, complete: true })
  })

  it('finds in a conversation read whole as the index does', () => {
    const messages = sessionOf(120)
    const { origins } = entryOf(messages)
    const numbers = (query: string, after = 0) => findInConversation({ title: undefined, messages, ...(origins === undefined ? {} : { origins }) }, { terms: queryTerms(query), after, limit: 50 }).matches.map(match => match.message)
    expect(numbers('deploy failed')).toEqual([3, 12, 60])
    expect(numbers('deploy failed', 3)).toEqual([12, 60])
    expect(numbers('校验签名')).toEqual([20, 95])
    expect(numbers('"connection reset"')).toEqual([31])
  })
})

describe("read_session's search inside one session", () => {
  const sorted = (numbers: number[]) => [...numbers].sort((a, b) => a - b)
  for (const [kind, length] of [['a long session (its pieces named by places)', 120], ['a short one (its pieces read in order)', 3]] as const) {
    it(`finds the messages find finds: every form of a word, Chinese words in any order, a phrase as written, in ${kind}`, () => {
      const disk = openIndex()
      disk.set('session-a', entryOf(sessionOf(length)))
      for (const query of ['deploy failed', 'fails', '权限校验', '校验签名', '"connection reset"', 'connection reset', '"failed"', 'quetzal']) {
        const searched = sorted(disk.searchSession('session-a', queryTerms(query), 20)!.matches.map(match => match.message))
        expect([query, searched]).toEqual([query, disk.findInSession('session-a', { terms: queryTerms(query), after: 0, limit: 50 })!.matches.map(match => match.message)])
      }
      expect(sorted(disk.searchSession('session-a', queryTerms('deploy failed'), 20)!.matches.map(match => match.message))).toEqual([3, 12, 60].filter(n => n <= length))
    })
  }

  it('ranks a message with the word as typed above one with another form, and marks the form found', () => {
    const disk = openIndex()
    // The typed form's message is the longer one: it ranks first by the weight of the form alone.
    disk.set('session-a', entryOf(['the deploy failing', 'the deploy failed at noon today, again']))
    const { matches } = disk.searchSession('session-a', queryTerms('deploy failed'), 20)!
    expect(matches.map(match => match.message)).toEqual([2, 1])
    const { text, marks } = matches[1]!.snippet
    expect(marks.map(([start, end]) => text.slice(start, end))).toEqual(['deploy', 'failing'])
  })

  it('looks for a match in the first 65,536 characters of a message, as find does and as excerpts are made', () => {
    const disk = openIndex()
    disk.set('session-a', entryOf([`${'padding '.repeat(8_200)} quetzal`, 'a quetzal here']))
    const found = disk.searchSession('session-a', queryTerms('quetzal'), 20)!.matches.map(match => match.message)
    expect(found).toEqual([2])
    expect(disk.findInSession('session-a', { terms: queryTerms('quetzal'), after: 0, limit: 50 })).toMatchObject({ total: 1, matches: [{ message: 2 }] })
  })

  it('searches a conversation the index does not hold yet the same way', () => {
    const messages = sessionOf(120)
    const numbers = (query: string) => sorted(scanMessages({ title: undefined, messages }, queryTerms(query), 20).matches.map(match => match.message))
    expect(numbers('deploy failed')).toEqual([3, 12, 60])
    expect(numbers('"failed"')).toEqual([3])
    expect(numbers('校验签名')).toEqual([20, 95])
    expect(numbers('"connection reset"')).toEqual([31])
  })
})
