/**
 * Walks kept per scope: the catalog's generation and membership, the views
 * of each scope kept while they hold, the worker keeping a scope's sessions
 * between queries (a repeated query walks no session and sends no list of
 * ids), and what changes them: a new session, a move, a scope change. The
 * scope still holds: a session of another workspace is never found nor
 * excerpted, whatever was kept.
 */
import { describe, expect, it, vi } from 'vitest'
import { listCandidates } from '../../src/host/references/candidates.ts'
import { IndexKeeper } from '../../src/host/search/worker/index-keeper.ts'
import { SqliteIndex } from '../../src/host/search/worker/sqlite-index.ts'
import { searchSidebar } from '../../src/host/search/sidebar-search.ts'
import { queryTerms } from '../../src/host/search/text/terms.ts'
import { SearchWorker } from '../../src/host/search/worker-client.ts'
import { SCOPE_NOT_HELD, type WorkerCalls } from '../../src/host/search/worker-protocol.ts'
import { CatalogEntries } from '../../src/host/sessions/catalog-entries.ts'
import { scopeViewsOf } from '../../src/host/sessions/scope-views.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { afterTest, temporaryFolder } from './cleanup.ts'
import { A, B, createHostHarness, id, searchIndexes, TARGET, until } from './harness.ts'

/** Live sessions in two workspaces, both indexes ready, and every search call the worker is sent. */
async function setup() {
  const searches: WorkerCalls['search']['args'][] = []
  const holds: WorkerCalls['hold']['args'][] = []
  const call = SearchWorker.prototype.call
  const spy = vi.spyOn(SearchWorker.prototype, 'call').mockImplementation(function (this: SearchWorker, name, args) {
    if (name === 'search') searches.push(args as WorkerCalls['search']['args'])
    if (name === 'hold') holds.push(args as WorkerCalls['hold']['args'])
    return call.call(this, name, args) as never
  })
  afterTest(() => spy.mockRestore())
  const h = await createHostHarness()
  h.session(TARGET, { cwd: A })
  h.session(id(2), { cwd: A, title: 'Kiwi plans', messages: ['we talked about the quetzal rollout'] })
  h.session(id(3), { cwd: A, title: 'Plum plans', messages: ['a quetzal in the garden'] })
  h.session(id(4), { cwd: B, title: 'Elsewhere', messages: ['the quetzal of another workspace, codename zanzibar'] })
  const { index, content } = await searchIndexes(h)
  await content.idle()
  const target = { id: TARGET, cwd: A }
  const menu = (query: string, scope: 'workspace' | 'all' = 'workspace') => listCandidates({ catalog: index, content }, { target, query, scope, candidateLimit: 10 })
  return { h, index, content, menu, searches, holds }
}

describe('the catalog\'s generation and membership', () => {
  it('change when a session is added, moved or removed; a retitle changes the generation alone; an equal entry changes neither', () => {
    const catalog = new CatalogEntries()
    catalog.stored({ id: 'a', cwd: A, createdAt: 1 }, 'Alpha')
    const [generation, membership] = [catalog.generation, catalog.membership]
    const listed = catalog.list()
    catalog.stored({ id: 'a', cwd: A, createdAt: 1 }, 'Alpha')
    catalog.repairTitle('a', 'Alpha')
    expect([catalog.generation, catalog.membership]).toEqual([generation, membership])
    expect(catalog.list()).toBe(listed)
    catalog.repairTitle('a', 'Alpha, renamed')
    expect(catalog.generation).toBeGreaterThan(generation)
    expect(catalog.membership).toBe(membership)
    catalog.stored({ id: 'a', cwd: B, createdAt: 1 }, undefined)
    expect(catalog.membership).toBeGreaterThan(membership)
    const moved = catalog.membership
    catalog.stored({ id: 'b', cwd: A, createdAt: 2 }, undefined)
    expect(catalog.membership).toBeGreaterThan(moved)
    const added = catalog.membership
    catalog.remove('b')
    expect(catalog.membership).toBeGreaterThan(added)
  })
})

describe('scope views', () => {
  it('are made once per scope and listing: a second look walks no session, a retitle keeps the set of ids, a new session changes it', async () => {
    const h = await createHostHarness()
    h.session(id(2), { cwd: A, title: 'Kiwi plans' })
    h.session(id(3), { cwd: B, title: 'Plum plans' })
    const index = new SessionCatalog(h.ctx)
    await index.ready()
    const views = scopeViewsOf(index)
    const list = vi.spyOn(index, 'list')
    const first = views.of('workspace', A)
    expect(first.ranked.map(session => session.id)).toEqual([id(2)])
    expect(list).toHaveBeenCalledTimes(1)
    expect(views.of('workspace', A)).toBe(first)
    expect(first.matching('kiwi')).toBe(first.matching('kiwi'))
    expect(list).toHaveBeenCalledTimes(1)
    // Another workspace's scope, and `all` ranked for A: the same cwd first.
    expect(views.of('workspace', B).set.ids).toEqual(new Set([id(3)]))
    expect(views.of('all', A).ranked.map(session => session.id)).toEqual([id(2), id(3)])
    h.retitle(id(2), 'Kiwi plans, renamed')
    const retitled = views.of('workspace', A)
    expect(retitled).not.toBe(first)
    expect(retitled.ranked[0]!.label).toBe('Kiwi plans, renamed')
    expect(retitled.set).toBe(first.set)
    h.session(id(5), { cwd: A, title: 'Fig plans' })
    const grown = views.of('workspace', A)
    expect(grown.set).not.toBe(first.set)
    expect(grown.set.ids).toEqual(new Set([id(2), id(5)]))
  })

  it('narrow a query typed further from the matches of the earlier one, and give what a walk gives', async () => {
    const h = await createHostHarness()
    h.session(id(2), { cwd: A, title: 'Kiwi plans' })
    h.session(id(3), { cwd: A, title: 'Kiwano notes' })
    const index = new SessionCatalog(h.ctx)
    await index.ready()
    const view = scopeViewsOf(index).of('workspace', A)
    const walked = (typed: string) => view.ranked.filter(session => session.matchKeys.some(key => key.includes(typed))).map(session => session.id)
    for (const typed of ['ki', 'kiw', 'kiwi', 'kiwi ', 'plans', 'k', 'xyz', 'kiwi']) expect(view.matching(typed).map(session => session.id), typed).toEqual(walked(typed))
    expect(view.matching('kiw').map(session => session.id)).toEqual([id(3), id(2)])
    expect(view.matching('kiwi').map(session => session.id)).toEqual([id(2)])
  })
})

describe('content queries in a scope kept by the worker', () => {
  it('send the scope\'s sessions once: a repeated query walks no session and sends only those it leaves out', async () => {
    const { index, menu, searches } = await setup()
    expect((await until(() => menu('quetzal'), found => found.length === 2)).map(row => row.sessionId).sort()).toEqual([id(2), id(3)])
    const sent = searches.filter(args => args.held?.ids !== undefined).at(-1)!
    expect(sent.held!.ids!.slice().sort()).toEqual([TARGET, id(2), id(3)].sort())
    const list = vi.spyOn(index, 'list')
    const get = vi.spyOn(index, 'get')
    searches.length = 0
    expect((await menu('quetzal')).map(row => row.sessionId).sort()).toEqual([id(2), id(3)])
    expect(searches).toHaveLength(1)
    expect(searches[0]!.held).toEqual({ key: sent.held!.key, version: sent.held!.version, except: [TARGET] })
    expect(searches[0]!.only).toBeUndefined()
    expect(searches[0]!.except).toBeUndefined()
    expect(searches[0]!.dates).toBeUndefined()
    expect(list).not.toHaveBeenCalled()
    // Only the hits are looked up: no session the index holds is walked.
    expect(get.mock.calls.length).toBeLessThanOrEqual(2)
  })

  it('send the scope again when a session enters it, and find that session', async () => {
    const { h, menu, searches } = await setup()
    await until(() => menu('quetzal'), found => found.length === 2)
    h.session(id(5), { cwd: A, title: 'Fig plans', messages: ['one more quetzal'] })
    const found = await until(() => menu('quetzal'), rows => rows.length === 3)
    expect(found.map(row => row.sessionId).sort()).toEqual([id(2), id(3), id(5)])
    expect(searches.some(args => (args.held?.ids ?? args.held?.changed?.added)?.includes(id(5)) === true)).toBe(true)
  })

  it('hold the scope: another workspace\'s session is neither found nor excerpted by the worker, until the scope is all', async () => {
    const { menu, searches, content } = await setup()
    const answers: string[][] = []
    const find = content.search.bind(content)
    vi.spyOn(content, 'search').mockImplementation(async (...args) => {
      const hits = await find(...args)
      answers.push(hits.map(hit => hit.id))
      return hits
    })
    await until(() => menu('quetzal'), found => found.length === 2)
    for (let n = 0; n < 3; n += 1) expect(await menu('zanzibar')).toEqual([])
    expect(JSON.stringify(await menu('quetzal'))).not.toContain(id(4))
    expect(answers.flat()).not.toContain(id(4))
    expect(searches.every(args => !(args.held?.ids ?? args.held?.changed?.added ?? []).includes(id(4)))).toBe(true)
    expect((await menu('zanzibar', 'all')).map(row => row.sessionId)).toEqual([id(4)])
    expect(await menu('zanzibar')).toEqual([])
  })

  it('in the sidebar, leave out the title matches and still fill the page', async () => {
    const { index, content, searches } = await setup()
    // No session holds both words: what holds one of them says which it lacks.
    expect((await searchSidebar({ catalog: index, content }, { query: 'plans quetzal', limit: 10 })).matches.filter(match => match.snippet?.missing === undefined)).toEqual([])
    const quetzal = await until(() => searchSidebar({ catalog: index, content }, { query: 'quetzal', limit: 10 }), answer => answer.matches.length === 3)
    expect(quetzal.matches.map(match => match.session.id).sort()).toEqual([id(2), id(3), id(4)])
    const kiwi = await searchSidebar({ catalog: index, content }, { query: 'kiwi', limit: 10 })
    expect(kiwi.matches.map(match => [match.session.id, match.snippet === undefined])).toEqual([[id(2), true]])
    const plans = await searchSidebar({ catalog: index, content }, { query: 'plans', limit: 10 })
    expect(plans.matches.map(match => match.session.id)).toEqual([id(3), id(2)])
    expect(searches.at(-1)!.held).toMatchObject({ except: [id(3), id(2)] })
    expect(searches.at(-1)!.held!.ids).toBeUndefined()
  })
})

describe('the worker\'s held scopes', () => {
  it('answer a version held, refuse one not held, follow sessions indexed and forgotten after, and read only the scope\'s rows', async () => {
    const keeper = new IndexKeeper()
    afterTest(() => keeper.close())
    await keeper.load(`${temporaryFolder('dsh-sessions-held-')}/content-index.json`)
    const entry = (text: string) => ({ revision: '1:1', title: undefined, messages: [text] })
    for (const name of ['a', 'b', 'c', 'd']) keeper.apply(`session-${name}`, entry('a note about a quetzal'))
    const find = (held: NonNullable<WorkerCalls['search']['args']['held']>, dates?: [string, number][]) => keeper.search({ held, ...(dates === undefined ? {} : { dates }) }, { terms: queryTerms('quetzal'), limit: 10 }).map(hit => hit.id)
    // Two of four sessions: fewer than the file holds, so only their rows are read.
    expect(find({ key: 'w', version: 1, ids: ['session-a', 'session-b', 'session-e'] }, [['session-a', 1], ['session-b', 2], ['session-e', 5]])).toEqual(['session-b', 'session-a'])
    expect(find({ key: 'w', version: 1 })).toEqual(['session-b', 'session-a'])
    expect(find({ key: 'w', version: 1, except: ['session-b'] })).toEqual(['session-a'])
    expect(() => find({ key: 'w', version: 2 })).toThrow(SCOPE_NOT_HELD)
    expect(() => find({ key: 'other', version: 1 })).toThrow(SCOPE_NOT_HELD)
    // A session of the scope indexed after it was held is found; one outside it never is.
    keeper.apply('session-e', entry('the quetzal came late'))
    keeper.apply('session-f', entry('the quetzal outside'))
    expect(find({ key: 'w', version: 1 })).toEqual(['session-e', 'session-b', 'session-a'])
    keeper.apply('session-a', null)
    keeper.apply('session-g', entry('another quetzal outside'))
    expect(find({ key: 'w', version: 1 })).toEqual(['session-e', 'session-b'])
    // A file opened anew holds no scope.
    await keeper.load(`${temporaryFolder('dsh-sessions-held-')}/content-index.json`)
    expect(() => find({ key: 'w', version: 1 })).toThrow(SCOPE_NOT_HELD)
  })

  it('reads a held scope smaller than the file through its table of session numbers, and one as large as the file without it', async () => {
    const keeper = new IndexKeeper()
    afterTest(() => keeper.close())
    await keeper.load(`${temporaryFolder('dsh-sessions-held-')}/content-index.json`)
    for (const name of ['a', 'b', 'c', 'd']) keeper.apply(`session-${name}`, { revision: '1:1', title: undefined, messages: ['a note about a quetzal'] })
    const search = vi.spyOn(SqliteIndex.prototype, 'search')
    afterTest(() => search.mockRestore())
    const find = (key: string, ids: string[]) => keeper.search({ held: { key, version: 1, ids }, dates: ids.map((id, n) => [id, n]) }, { terms: queryTerms('quetzal'), limit: 10 }).map(hit => hit.id).sort()
    expect(find('two', ['session-a', 'session-b'])).toEqual(['session-a', 'session-b'])
    const narrow = search.mock.calls.at(-1)![1].admitted as { table?: string } | undefined
    expect(narrow?.table).toMatch(/^scope_\d+$/)
    expect(find('all', ['session-a', 'session-b', 'session-c', 'session-d'])).toEqual(['session-a', 'session-b', 'session-c', 'session-d'])
    expect(search.mock.calls.at(-1)![1].admitted).toBeUndefined()
  })

  it('keeps a scope sent ahead of any query: a query then names it alone, and one smaller than the file has its table made already', async () => {
    const keeper = new IndexKeeper()
    afterTest(() => keeper.close())
    await keeper.load(`${temporaryFolder('dsh-sessions-held-')}/content-index.json`)
    for (const name of ['a', 'b', 'c']) keeper.apply(`session-${name}`, { revision: '1:1', title: undefined, messages: ['a note about a quetzal'] })
    const fill = vi.spyOn(SqliteIndex.prototype, 'fillScope')
    afterTest(() => fill.mockRestore())
    expect(keeper.hold({ held: { key: 'w', version: 7, ids: ['session-a', 'session-b'] }, dates: [['session-a', 1], ['session-b', 2]] })).toBeNull()
    expect(fill).toHaveBeenCalledTimes(1)
    expect(keeper.search({ held: { key: 'w', version: 7 } }, { terms: queryTerms('quetzal'), limit: 10 }).map(hit => hit.id)).toEqual(['session-b', 'session-a'])
    expect(fill).toHaveBeenCalledTimes(1)
    // As large as the file: no table.
    keeper.hold({ held: { key: 'all', version: 8, ids: ['session-a', 'session-b', 'session-c'] } })
    expect(fill).toHaveBeenCalledTimes(1)
    expect(keeper.search({ held: { key: 'all', version: 8 } }, { terms: queryTerms('quetzal'), limit: 10 })).toHaveLength(3)
  })

  it('of every session is sent by the host half once the sessions are listed and indexed, so the sidebar\'s first search sends no list of ids', async () => {
    const { index, content, searches, holds } = await setup()
    await until(async () => holds.length, count => count > 0)
    const every = scopeViewsOf(index).everyone().set
    expect(holds.at(-1)!.held).toMatchObject({ key: every.key, ids: [...every.ids] })
    searches.length = 0
    const answer = await searchSidebar({ catalog: index, content }, { query: 'quetzal', limit: 20 })
    expect(answer.matches.map(match => match.session.id).sort()).toEqual([id(2), id(3), id(4)])
    expect(searches.map(args => [args.held?.key, args.held?.version, args.held?.ids])).toEqual([[every.key, holds.at(-1)!.held.version, undefined]])
  })

  it('takes a new version as what changed since one it holds, its table following, and refuses changes from a version it does not hold', async () => {
    const keeper = new IndexKeeper()
    afterTest(() => keeper.close())
    await keeper.load(`${temporaryFolder('dsh-sessions-held-')}/content-index.json`)
    for (const name of ['a', 'b', 'c', 'd']) keeper.apply(`session-${name}`, { revision: '1:1', title: undefined, messages: ['a note about a quetzal'] })
    const find = (held: NonNullable<WorkerCalls['search']['args']['held']>) => keeper.search({ held }, { terms: queryTerms('quetzal'), limit: 10 }).map(hit => hit.id).sort()
    expect(find({ key: 'w', version: 1, ids: ['session-a', 'session-b'] })).toEqual(['session-a', 'session-b'])
    expect(find({ key: 'w', version: 2, changed: { from: 1, added: ['session-c'], removed: ['session-a'] } })).toEqual(['session-b', 'session-c'])
    expect(find({ key: 'w', version: 2 })).toEqual(['session-b', 'session-c'])
    expect(() => find({ key: 'w', version: 3, changed: { from: 1, added: ['session-d'], removed: [] } })).toThrow(SCOPE_NOT_HELD)
    expect(() => keeper.hold({ held: { key: 'other', version: 4, changed: { from: 3, added: [], removed: [] } } })).toThrow(SCOPE_NOT_HELD)
  })

  it('is sent as what changed when a session joins it, not as every session again', async () => {
    const { h, index, content, searches, holds } = await setup()
    await until(async () => holds.length, count => count > 0)
    const sentAhead = holds.at(-1)!.held.version
    h.session(id(5), { cwd: B, title: 'Late', messages: ['a late quetzal'] })
    await until(async () => index.get(id(5)), session => session !== undefined)
    searches.length = 0
    const answer = await until(() => searchSidebar({ catalog: index, content }, { query: 'quetzal', limit: 20 }), found => found.matches.length === 4)
    expect(answer.matches.map(match => match.session.id)).toContain(id(5))
    expect(searches[0]!.held).toMatchObject({ changed: { from: sentAhead, added: [id(5)], removed: [] } })
    expect(searches[0]!.held!.ids).toBeUndefined()
  })

  it('is sent again by the host half when the worker gave it up', async () => {
    const { content, menu, searches } = await setup()
    await until(() => menu('quetzal'), found => found.length === 2)
    const held = searches.at(-1)!.held!
    // Other scopes, sent to the worker past the host half, push this one out of it.
    const worker = (content as unknown as { upkeep: { worker: SearchWorker } }).upkeep.worker
    for (let n = 0; n < 9; n += 1) await worker.call('search', { terms: queryTerms('quetzal'), limit: 5, held: { key: `other-${n}`, version: 1_000 + n, ids: [id(2)] } })
    searches.length = 0
    expect((await menu('quetzal')).map(row => row.sessionId).sort()).toEqual([id(2), id(3)])
    expect(searches.map(args => args.held?.ids === undefined)).toEqual([true, false])
    expect(searches[0]!.held!.version).toBe(held.version)
  })
})
