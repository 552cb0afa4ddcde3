/** The query grammar: filters read, malformed ones kept as words, hostile input bounded; and the filters applied to a session. */
import { describe, expect, it } from 'vitest'
import { parseQuery, passes } from '../../src/host/search/text/query-grammar.ts'
import { boundedQuery } from '../../src/host/search/sidebar-search.ts'
import { queryTerms } from '../../src/host/search/text/terms.ts'

const NOW = Date.UTC(2026, 11, 6, 12, 30)
const DAY = 86_400_000

describe('the query grammar', () => {
  it('reads in:, after:, before: and from: out of the words', () => {
    expect(parseQuery('deploy in:api after:7d from:me', NOW)).toEqual({ text: 'deploy', filters: { in: 'api', after: NOW - 7 * DAY, from: 'user' } })
    expect(parseQuery('"connection reset" before:2026-11-01 from:agent', NOW)).toEqual({ text: '"connection reset"', filters: { before: Date.UTC(2026, 10, 1), from: 'assistant' } })
    expect(parseQuery('in:"My Project" IN:web x', NOW)).toEqual({ text: 'x', filters: { in: 'web' } })
    expect(parseQuery('灰度 from:我 after:2w', NOW)).toEqual({ text: '灰度', filters: { from: 'user', after: NOW - 14 * DAY } })
    expect(parseQuery('from:智能体 超时', NOW).filters).toEqual({ from: 'assistant' })
  })

  it('keeps a malformed filter as words, never an error', () => {
    for (const query of ['after:yesterdayish retry', 'from:nobody z', 'in: q', 'after:2026-02-30 y', 'before:7x', 'after:', 'from:"me', 'in:"unclosed']) {
      const parsed = parseQuery(query, NOW)
      expect(parsed.filters, query).toEqual({})
      expect(parsed.text, query).toBe(query.replace(/\s+/g, ' ').trim())
    }
    // A filter glued to a word is a word.
    expect(parseQuery('login:after:7d', NOW).filters).toEqual({})
  })

  it('counts ages back from the minute, so the same query typed again asks the same window', () => {
    expect(parseQuery('after:3h', NOW + 20_000).filters.after).toBe(parseQuery('after:3h', NOW).filters.after)
  })

  it('bounds hostile input: a thousand filters, unbalanced quotes, another user\'s path', () => {
    const many = Array.from({ length: 1_000 }, (_, n) => `in:ws-${n} after:${n}d`).join(' ')
    const bounded = boundedQuery(`${many} deploy`)
    expect(bounded.length).toBeLessThanOrEqual(256)
    const parsed = parseQuery(bounded, NOW)
    expect(parsed.text.split(' ').length).toBeLessThanOrEqual(2)
    // The last of each kind wins.
    expect(parsed.filters.in).toMatch(/^ws-\d+$/)
    expect(queryTerms('"unbalanced quote').map(({ term }) => term)).toEqual(['unbalanced', 'quote'])
    expect(queryTerms('"" " "')).toEqual([])
    // A path is only a filter on the sessions the scope already admits: it names no session by itself.
    expect(parseQuery('in:/home/other/secret', NOW).filters).toEqual({ in: '/home/other/secret' })
  })

  it('applies workspace and time filters to a session by its folder name or path and its creation time', () => {
    const session = { cwd: '/home/me/Work/API/', createdAt: NOW - 3 * DAY }
    expect(passes({ in: 'api' }, session)).toBe(true)
    expect(passes({ in: '/home/me/work/api' }, session)).toBe(true)
    expect(passes({ in: 'work' }, session)).toBe(false)
    expect(passes({ in: 'api' }, { cwd: undefined, createdAt: NOW })).toBe(false)
    expect(passes({ after: NOW - 7 * DAY }, session)).toBe(true)
    expect(passes({ after: NOW - DAY }, session)).toBe(false)
    expect(passes({ before: NOW - 3 * DAY }, session)).toBe(false)
    expect(passes({ before: NOW - 2 * DAY }, session)).toBe(true)
    expect(passes({ from: 'user' }, session)).toBe(true)
  })
})
