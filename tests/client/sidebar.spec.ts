/**
 * The sidebar module's search and titles: the plugin's route answers, the
 * host's search answers only when the route cannot; the matching message of
 * each content row is kept for opening; an answer while the index is built
 * says so instead of "no matches"; the titles an answer names reach the rows
 * with it; a session the page's list lacks has the list asked again, once;
 * titles are asked in batches, asked again while the logs are still
 * being read, and arriving titles are announced.
 */
import { describe, expect, it, vi } from 'vitest'
import { en, type SessionsKey } from '../../src/client/locales.ts'
import { SidebarSearch } from '../../src/client/sidebar/search.ts'
import { createSidebar } from '../../src/client/sidebar/sidebar.ts'
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import { TitleStore } from '../../src/client/sidebar/titles.ts'
import type { SidebarSearchResponse, TitlesResponse } from '../../src/shared/wire.ts'
import { emphasise, type MarkedText } from '../../src/client/core/snippet.ts'

/** The matches between the English marks, as a page that cannot highlight shows them. */
const marked = (snippet: MarkedText) => emphasise(snippet, '«', '»')

const t = (key: SessionsKey, params: Record<string, string> = {}) => en[key].replace(/\{(\w+)\}/g, (match, name: string) => params[name] ?? match)
const signal = () => new AbortController().signal

describe('the sidebar search', () => {
  const answer: SidebarSearchResponse = {
    results: [
      { sessionId: 'a', title: 'Kiwi plans' },
      { sessionId: 'b', title: 'Plum plans', snippet: { text: 'the QUETZAL rollout', marks: [[4, 11]], message: 3, seq: 17 } },
      { sessionId: 'c', title: 'Old', snippet: { text: 'quetzal', marks: [[0, 7]], message: 1 } },
    ],
    hasMore: true,
  }

  it('answers from the plugin\'s route: excerpts as text with the matches marked as the @ menu marks them, the matching message kept for opening', async () => {
    const search = new SidebarSearch({ search: vi.fn(() => Promise.resolve(answer)) }, t, { titles: { learn: () => undefined }, excerpt: marked })
    const host = vi.fn()
    expect(await search.search('quetzal', signal(), host)).toEqual({
      items: [{ sessionId: 'a' }, { sessionId: 'b', snippet: 'the «QUETZAL» rollout' }, { sessionId: 'c', snippet: '«quetzal»' }],
      hasMore: true,
    })
    expect(host).not.toHaveBeenCalled()
    expect(search.matchOf('a')).toBeUndefined()
    expect(search.matchOf('b')).toEqual({ seq: 17 })
    expect(search.matchOf('c')).toEqual({ seq: undefined })
    expect(search.indexingNote('quetzal')).toBeUndefined()
  })

  it('hands on the titles an answer names, before its rows are drawn, and none of a query typed over', async () => {
    const store = new TitleStore({ titles: vi.fn() })
    const heard = vi.fn()
    store.subscribe(heard)
    const untitled: SidebarSearchResponse = { results: [{ sessionId: 'd', snippet: { text: 'quetzal', marks: [[0, 7]], message: 1 } }], hasMore: false }
    const api = { search: vi.fn().mockResolvedValueOnce(answer).mockResolvedValueOnce(untitled).mockResolvedValueOnce({ results: [{ sessionId: 'e', title: 'Stale' }], hasMore: false }) }
    const search = new SidebarSearch(api, t, { titles: store, excerpt: marked })
    await search.search('quetzal', signal(), vi.fn())
    expect([...store.titles]).toEqual([['a', 'Kiwi plans'], ['b', 'Plum plans'], ['c', 'Old']])
    expect(heard).toHaveBeenCalledTimes(1)
    await search.search('quetzal', signal(), vi.fn())
    expect(heard).toHaveBeenCalledTimes(1)
    const typedOver = new AbortController()
    const stale = search.search('q', typedOver.signal, vi.fn())
    typedOver.abort()
    await expect(stale).rejects.toThrow()
    expect(store.titles.has('e')).toBe(false)
  })

  it('asks the page\'s list again, once per session, when an answer names a session the list lacks (one another process wrote since the page loaded)', async () => {
    const held = new Set(['a', 'b'])
    const list = { has: (id: string) => held.has(id), refresh: vi.fn() }
    const search = new SidebarSearch({ search: vi.fn(() => Promise.resolve(answer)) }, t, { titles: { learn: () => undefined }, excerpt: marked, list })
    await search.search('quetzal', signal(), vi.fn())
    expect(list.refresh).toHaveBeenCalledTimes(1)
    await search.search('quetzal', signal(), vi.fn())
    expect(list.refresh).toHaveBeenCalledTimes(1)
    held.add('c')
    await search.search('quetzal', signal(), vi.fn())
    expect(list.refresh).toHaveBeenCalledTimes(1)
  })

  it('falls back to the host\'s search when the route fails, and forgets the last matches', async () => {
    const api = { search: vi.fn().mockResolvedValueOnce(answer).mockRejectedValueOnce(new Error('HTTP 500')) }
    const search = new SidebarSearch(api, t, { titles: { learn: () => undefined }, excerpt: marked })
    await search.search('quetzal', signal(), vi.fn())
    const host = vi.fn(() => Promise.resolve({ items: [{ sessionId: 'z', snippet: 'host' }], hasMore: false }))
    expect(await search.search('quetzal', signal(), host)).toEqual({ items: [{ sessionId: 'z', snippet: 'host' }], hasMore: false })
    expect(search.matchOf('b')).toBeUndefined()
  })

  it('does not fall back for a query the user has already replaced', async () => {
    const controller = new AbortController()
    const search = new SidebarSearch({ search: vi.fn(() => { controller.abort(); return Promise.reject(new Error('aborted')) }) }, t, { titles: { learn: () => undefined }, excerpt: marked })
    const host = vi.fn()
    await expect(search.search('q', controller.signal, host)).rejects.toThrow('aborted')
    expect(host).not.toHaveBeenCalled()
  })

  it('keeps the matches of the query on screen when a query typed over is answered after it', async () => {
    let answerFirst: (value: SidebarSearchResponse) => void = () => undefined
    const first = new Promise<SidebarSearchResponse>(resolve => { answerFirst = resolve })
    const api = { search: vi.fn().mockReturnValueOnce(first).mockResolvedValueOnce(answer) }
    const search = new SidebarSearch(api, t, { titles: { learn: () => undefined }, excerpt: marked })
    const typedOver = new AbortController()
    const stale = search.search('quetz', typedOver.signal, vi.fn())
    typedOver.abort()
    await search.search('quetzal', signal(), vi.fn())
    answerFirst({ results: [{ sessionId: 'b', title: 'Plum plans', snippet: { text: 'old', marks: [], message: 1, seq: 2 } }], hasMore: false })
    await expect(stale).rejects.toThrow()
    expect(search.matchOf('b')).toEqual({ seq: 17 })
  })

  it('asks the route for as many sessions as the host\'s sidebar shows of an answer, no more', async () => {
    const search = vi.fn(() => Promise.resolve(answer))
    const sessions = { searchResultLimit: 20, list: { getSnapshot: () => ({ byId: { a: {}, b: {}, c: {} } }) } } as unknown as ClientContext['sessions']
    const sidebar = createSidebar(sessions, { search, titles: vi.fn() }, { t, excerpt: marked })
    const asked = signal()
    await sidebar.search('quetzal', asked, vi.fn())
    expect(search).toHaveBeenCalledWith('quetzal', 20, asked)
  })

  it('says the index is still being built, for the query it answered', async () => {
    const search = new SidebarSearch({ search: vi.fn(() => Promise.resolve({ results: [], hasMore: false, indexing: { indexed: 1234, total: 20000 } })) }, t, { titles: { learn: () => undefined }, excerpt: marked })
    await search.search('quetzal', signal(), vi.fn())
    expect(search.indexingNote('quetzal')).toBe(`Still indexing what was said (${(1234).toLocaleString()} of ${(20000).toLocaleString()}); so far only titles match`)
    expect(search.indexingNote('other')).toBeUndefined()
  })

  it('says indexing is paused for low disk space, for the query it answered', async () => {
    const search = new SidebarSearch({ search: vi.fn(() => Promise.resolve({ results: [], hasMore: false, indexing: { indexed: 1234, total: 20000, paused: 'low-disk' as const } })) }, t, { titles: { learn: () => undefined }, excerpt: marked })
    await search.search('quetzal', signal(), vi.fn())
    expect(search.indexingNote('quetzal')).toBe(`Indexing paused: low disk space (${(1234).toLocaleString()} of ${(20000).toLocaleString()}); so far only these match`)
  })
})

describe('the title store', () => {
  it('asks for unknown titles once, announces those that arrive, and asks again only while logs are being read', async () => {
    vi.useFakeTimers()
    try {
      const answers: TitlesResponse[] = [
        { titles: { a: 'Kiwi plans' }, pending: true },
        { titles: { b: 'Plum plans' }, pending: false },
      ]
      const titles = vi.fn((_ids: readonly string[]) => Promise.resolve(answers.shift()!))
      const store = new TitleStore({ titles })
      const heard = vi.fn()
      store.subscribe(heard)
      store.want(['a', 'b', 'c'])
      store.want(['a', 'b'])
      await vi.advanceTimersByTimeAsync(0)
      expect(titles).toHaveBeenCalledTimes(1)
      expect(titles.mock.calls[0]![0]).toEqual(['a', 'b', 'c'])
      expect(store.titles.get('a')).toBe('Kiwi plans')
      expect(heard).toHaveBeenCalledTimes(1)
      expect(store.version()).toBe(1)
      await vi.advanceTimersByTimeAsync(1_000)
      expect(titles).toHaveBeenCalledTimes(2)
      expect(titles.mock.calls[1]![0]).toEqual(['b', 'c'])
      expect(store.titles.get('b')).toBe('Plum plans')
      // No more pending: c is settled and never asked again.
      store.want(['a', 'b', 'c'])
      await vi.advanceTimersByTimeAsync(60_000)
      expect(titles).toHaveBeenCalledTimes(2)
    } finally {
      vi.useRealTimers()
    }
  })

  it('takes titles learnt elsewhere without asking for them, and announces only new or changed ones', async () => {
    const titles = vi.fn((_ids: readonly string[]) => Promise.resolve({ titles: {}, pending: false }))
    const store = new TitleStore({ titles })
    const heard = vi.fn()
    store.subscribe(heard)
    store.learn([['a', 'Kiwi plans'], ['b', 'Plum plans']])
    store.learn([['a', 'Kiwi plans']])
    expect(heard).toHaveBeenCalledTimes(1)
    // Every timer the store could have set runs: none asks for a title it already has.
    vi.useFakeTimers()
    try {
      store.want(['a', 'b'])
      await vi.runAllTimersAsync()
    } finally {
      vi.useRealTimers()
    }
    expect(titles).not.toHaveBeenCalled()
    store.learn([['a', 'Kiwi plans, renamed']])
    expect(heard).toHaveBeenCalledTimes(2)
    expect(store.titles.get('a')).toBe('Kiwi plans, renamed')
    expect(store.version()).toBe(2)
  })

  it('asks in batches of at most 500 ids', async () => {
    const titles = vi.fn((_ids: readonly string[]) => Promise.resolve({ titles: {}, pending: false }))
    const store = new TitleStore({ titles })
    store.want(Array.from({ length: 1_200 }, (_, n) => `s${n}`))
    await vi.waitFor(() => { expect(titles.mock.calls.map(call => call[0].length)).toEqual([500, 500, 200]) })
  })
})
