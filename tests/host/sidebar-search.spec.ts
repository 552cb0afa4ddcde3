/**
 * The sidebar's search on the official session store and query engine:
 * its ranking (titles first, newest first; then what was said, best first,
 * then newest), every workspace, folding, prefixes and Chinese without
 * spaces, bounded work for any query; the host's `session.search` provider
 * served from the same index (its contract: page limit, cursor, cancellation,
 * the official method for what it does not answer, restored on dispose);
 * and the `search` and `titles` routes with their refusals.
 */
import { SessionId } from '@deepseek-ai/dsh-session'
import { SessionQueryError, type SessionSearchRequest } from '@deepseek-ai/dsh-session-query'
import { describe, expect, it } from 'vitest'
import { ContentSearch } from '../../src/host/search/content-search.ts'
import { MAX_HITS, hostSearch } from '../../src/host/search/host-search.ts'
import { boundedQuery, MAX_SIDEBAR_QUERY, searchSidebar } from '../../src/host/search/sidebar-search.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { HOSTILE_QUERIES } from './hostile-queries.ts'
import { A, B, createHostHarness, type HostHarness, id, post, searchIndexes, until } from './harness.ts'

const MESSAGES: SessionSearchRequest['eventFilters'] = [
  { kind: 'type', values: ['user/message', 'assistant/message'] },
  { kind: 'surface', values: ['current'] },
]

async function setup(): Promise<{ h: HostHarness; index: SessionCatalog; content: ContentSearch }> {
  const h = await createHostHarness()
  h.session(id(1), { cwd: A, title: 'Kiwi plans', messages: ['We ship QUETZAL on Monday'] })
  h.session(id(2), { cwd: A, title: '梨计划', messages: ['我们讨论了发布流程和灰度策略的细节'] })
  h.session(id(3), { cwd: B, title: 'Plum plans', messages: ['quetzal quetzal quetzal, and the kiwi too'] })
  h.session(id(4), { cwd: B, title: 'Kíwi review', messages: ['nothing here'] })
  h.turn(id(1), 'and the Café menu?', 'The café opens at nine')
  const { index, content } = await searchIndexes(h)
  return { h, index, content }
}

const ids = (answer: { matches: readonly { session: { id: string } }[] }) => answer.matches.map(match => match.session.id)

describe('the sidebar search', () => {
  it('puts title matches first, newest first, then matches of what was said, best first, across every workspace', async () => {
    const { index, content } = await setup()
    const kiwi = await until(() => searchSidebar({ catalog: index, content }, { query: 'kiwi', limit: 50 }), answer => answer.matches.length === 3)
    // Titles (accents folded): id(4) is newer than id(1); then id(3) by what was said.
    expect(ids(kiwi)).toEqual([id(4), id(1), id(3)])
    expect(kiwi.matches.map(match => match.snippet === undefined)).toEqual([true, true, false])
    expect(kiwi.matches[2]!.snippet!.text.toLowerCase()).toContain('kiwi')
    // Best first: the session saying it three times leads.
    const quetzal = await searchSidebar({ catalog: index, content }, { query: 'QUETZAL', limit: 50 })
    expect(ids(quetzal)).toEqual([id(3), id(1)])
    expect(quetzal.matches[1]!.snippet).toMatchObject({ text: 'We ship QUETZAL on Monday', message: 1 })
  })

  it('matches a prefix of the last word, accents folded, and Chinese inside a sentence without spaces', async () => {
    const { index, content } = await setup()
    expect(ids(await until(() => searchSidebar({ catalog: index, content }, { query: 'quetz', limit: 50 }), answer => answer.matches.length === 2))).toEqual([id(3), id(1)])
    expect(ids(await searchSidebar({ catalog: index, content }, { query: 'cafe opens', limit: 50 }))).toEqual([id(1)])
    for (const query of ['灰度', '灰度策略', '发布流程', '梨']) {
      expect(ids(await searchSidebar({ catalog: index, content }, { query: query, limit: 50 })), query).toEqual([id(2)])
    }
  })

  it('matches a title only when it holds every word of the query', async () => {
    const { index, content } = await setup()
    await until(() => searchSidebar({ catalog: index, content }, { query: 'kiwi', limit: 50 }), answer => answer.matches.length === 3)
    // "plans" is in two titles, "zebra" in none and in nothing said: no session holds both.
    expect(ids(await searchSidebar({ catalog: index, content }, { query: 'plans zebra', limit: 50 }))).toEqual([])
    expect(ids(await searchSidebar({ catalog: index, content }, { query: 'zebra plans', limit: 50 }))).toEqual([])
    // Both words in one title: that title alone.
    expect(ids(await searchSidebar({ catalog: index, content }, { query: 'plum plans', limit: 50 }))).toEqual([id(3)])
  })

  it('names each match of what was said by its message number and log event', async () => {
    const { h, index, content } = await setup()
    const answer = await until(() => searchSidebar({ catalog: index, content }, { query: 'nine', limit: 50 }), found => found.matches.length === 1)
    const events = h.ctx.sessions.get(SessionId(id(1)))!.events
    const reply = events.find(event => event.type === 'assistant/message')!
    expect(answer.matches[0]!.snippet).toMatchObject({ message: 3 })
    const hit = (await content.search([{ term: 'nine', prefix: false }], { admit: () => true, limit: 5 }))[0]!
    expect(hit.origin).toEqual({ seq: reply.seq, time: reply.time, role: 'assistant' })
  })

  it('caps the answer at its limit and says there is more', async () => {
    const { index, content } = await setup()
    const answer = await until(() => searchSidebar({ catalog: index, content }, { query: 'plans', limit: 1 }), found => found.matches.length === 1)
    expect(answer.hasMore).toBe(true)
    expect(ids(answer)).toEqual([id(3)])
  })

  it('reads only the first characters of a long query and answers every hostile query with sessions or none', async () => {
    const { index, content } = await setup()
    expect(boundedQuery(` ${'a'.repeat(2_000)} `)).toHaveLength(MAX_SIDEBAR_QUERY)
    expect(boundedQuery(`${'a'.repeat(MAX_SIDEBAR_QUERY - 1)}😀`)).toHaveLength(MAX_SIDEBAR_QUERY - 1)
    for (const query of [...HOSTILE_QUERIES, 'kiwi'.repeat(500)]) {
      const answer = await searchSidebar({ catalog: index, content }, { query: query, limit: 50 })
      expect(Array.isArray(answer.matches), JSON.stringify(query)).toBe(true)
    }
  })
})

describe('the host\'s session.search provider', () => {
  it('answers the host\'s request from the index with the matching message\'s event, page by page', async () => {
    const { h, index, content } = await setup()
    const official = () => Promise.reject(new SessionQueryError('off', 'SESSION_QUERY_SEARCH_DISABLED'))
    const search = hostSearch(h.ctx, { catalog: index, content: content }, official)
    const first = await until(() => search({ query: 'quetzal', eventFilters: MESSAGES, limit: 1 }), page => page.items.length === 1)
    expect(first.items[0]!.header.id).toBe(id(3))
    expect(first.items[0]!.bestMatch).toMatchObject({ sessionId: id(3), type: 'user/message', surface: 'current', snippet: expect.stringContaining('quetzal') })
    const userMessage = h.ctx.sessions.get(SessionId(id(3)))!.events.find(event => event.type === 'user/message')!
    expect(first.items[0]!.bestMatch.seq).toBe(userMessage.seq)
    expect(first.nextCursor).toBeDefined()
    const second = await search({ query: 'quetzal', eventFilters: MESSAGES, limit: 1, cursor: first.nextCursor! })
    expect(second.items.map(item => item.header.id)).toEqual([id(1)])
    expect(second.nextCursor).toBeUndefined()
    const reply = await search({ query: 'nine', eventFilters: MESSAGES, limit: 5 })
    expect(reply.items[0]!.bestMatch.type).toBe('assistant/message')
    // The sidebar's grammar holds here too: a filter narrows, and from: keeps to one side's words.
    expect((await search({ query: 'nine from:me', eventFilters: MESSAGES, limit: 5 })).items).toEqual([])
    expect((await search({ query: 'nine from:agent', eventFilters: MESSAGES, limit: 5 })).items.map(item => item.bestMatch.type)).toEqual(reply.items.map(item => item.bestMatch.type))
    expect((await search({ query: 'quetzal before:1970-01-01', eventFilters: MESSAGES, limit: 5 })).items).toEqual([])
  })

  it('refuses a bad limit, query or cursor, and an aborted call, with the host\'s own errors', async () => {
    const { h, index, content } = await setup()
    const search = hostSearch(h.ctx, { catalog: index, content: content }, () => Promise.reject(new Error('not called')))
    const code = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: unknown) => error instanceof SessionQueryError ? error.code : String(error))
    expect(await code(search({ query: 'kiwi', eventFilters: MESSAGES, limit: 0 }))).toBe('SESSION_QUERY_INVALID_LIMIT')
    expect(await code(search({ query: 'kiwi', eventFilters: MESSAGES, limit: 1.5 }))).toBe('SESSION_QUERY_INVALID_LIMIT')
    expect(await code(search({ query: '  ', eventFilters: MESSAGES }))).toBe('SESSION_QUERY_INVALID_QUERY')
    const page = await until(() => search({ query: 'quetzal', eventFilters: MESSAGES, limit: 1 }), found => found.nextCursor !== undefined)
    expect(await code(search({ query: 'kiwi', eventFilters: MESSAGES, cursor: page.nextCursor! }))).toBe('SESSION_QUERY_INVALID_CURSOR')
    expect(await code(search({ query: 'kiwi', eventFilters: MESSAGES, cursor: 'garbage' as never }))).toBe('SESSION_QUERY_INVALID_CURSOR')
    const aborted = new AbortController()
    aborted.abort()
    expect(await code(search({ query: 'kiwi', eventFilters: MESSAGES }, { signal: aborted.signal }))).toBe('SESSION_QUERY_ABORTED')
    expect(MAX_HITS).toBeGreaterThanOrEqual(51)
  })

  it('passes requests it does not answer to the official method', async () => {
    const { h, index, content } = await setup()
    const asked: SessionSearchRequest[] = []
    const search = hostSearch(h.ctx, { catalog: index, content: content }, request => {
      asked.push(request)
      return Promise.resolve({ items: [] })
    })
    await search({ query: 'kiwi', sessionFilters: [{ kind: 'cwd', values: [A] }] })
    await search({ query: 'kiwi', eventFilters: [{ kind: 'type', values: ['user/message'] }] })
    await search({ query: 'kiwi', eventFilters: [{ kind: 'seq', from: 1 }] })
    expect(asked).toHaveLength(3)
    await search({ query: 'kiwi', eventFilters: MESSAGES })
    expect(asked).toHaveLength(3)
  })

  it('is set on the official instance while the plugin runs, and the official method is back after', async () => {
    const h = await createHostHarness()
    h.session(id(1), { cwd: A, title: 'Kiwi plans', messages: ['We ship QUETZAL on Monday'] })
    const engine = h.ctx.sessionQuery
    const { dispose } = await h.mount()
    const page = await until(
      () => engine.searchSessions({ query: 'quetzal', eventFilters: MESSAGES, limit: 5 }).catch(() => ({ items: [] })),
      found => found.items.length === 1,
    )
    expect(page.items[0]!.header.id).toBe(id(1))
    await dispose()
    await expect(engine.searchSessions({ query: 'quetzal', eventFilters: MESSAGES })).rejects.toMatchObject({ code: 'SESSION_QUERY_SEARCH_DISABLED' })
    expect(Object.hasOwn(engine, 'searchSessions')).toBe(false)
  })
})

describe('the search and titles routes', () => {
  it('answer the sidebar and refuse bad bodies with 400', async () => {
    const h = await createHostHarness()
    h.session(id(1), { cwd: A, title: 'Kiwi plans', messages: ['We ship QUETZAL on Monday'] })
    h.session(id(2), { cwd: B, messages: ['untitled'] })
    const { url } = await h.mount()
    const found = await until(async () => (await post(url, 'search', { query: 'quetzal' })).json() as Promise<{ results: { sessionId: string; title: string; snippet?: { text: string; seq?: number } }[] }>, answer => answer.results.length === 1)
    expect(found.results[0]).toMatchObject({ sessionId: id(1), title: 'Kiwi plans', snippet: { text: 'We ship QUETZAL on Monday', seq: expect.any(Number) } })
    const untitled = await until(async () => (await post(url, 'search', { query: 'untitled' })).json() as Promise<{ results: { sessionId: string; title?: string }[] }>, answer => answer.results.length === 1)
    expect(untitled.results[0]!.sessionId).toBe(id(2))
    expect(Object.hasOwn(untitled.results[0]!, 'title')).toBe(false)
    const titled = await (await post(url, 'titles', { ids: [id(1), id(2), 'session-nope'] })).json() as { titles: Record<string, string>; pending: boolean }
    expect(titled.titles).toEqual({ [id(1)]: 'Kiwi plans' })
    expect(typeof titled.pending).toBe('boolean')
    for (const [path, body] of [
      ['search', {}], ['search', { query: 3 }], ['search', { query: 'a', limit: 0 }], ['search', { query: 'a', limit: 201 }],
      ['titles', {}], ['titles', { ids: 'x' }], ['titles', { ids: [1] }], ['titles', { ids: Array.from({ length: 1001 }, (_, n) => String(n)) }],
    ] as const) {
      const res = await post(url, path, body)
      expect(res.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).toBe(400)
    }
    for (const query of [...HOSTILE_QUERIES, 'x'.repeat(2_000)]) {
      const res = await post(url, 'search', { query })
      expect(res.status, JSON.stringify(query)).toBe(200)
    }
  })
})
