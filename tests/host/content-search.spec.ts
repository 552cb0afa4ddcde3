/** Content search: terms, excerpts, what text counts (held to the official snapshot), ranking after title matches, scope, freshness, invalidation, the index file (SQLite), damage found while it is in use, and no SQLite at all. */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { createAssistantMessage, createUserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { DatabaseSync } from 'node:sqlite'
import { beforeEach, describe, expect, it } from 'vitest'
import { ContentSearch, contentIndexFile } from '../../src/host/search/content-search.ts'
import { type LogLookup, SessionLogLocator } from '../../src/host/search/log-locator.ts'
import { logRevision } from '../../src/host/search/worker-protocol.ts'
import type { Context } from '@deepseek-ai/cordis'
import { BATCH } from '../../src/host/search/log-pass.ts'
import { conversationOf } from '../../src/host/official/conversation.ts'
import { queryTerms } from '../../src/host/search/text/terms.ts'
import { loadSqlite } from '../../src/host/search/worker/sqlite-capability.ts'
import { SqliteIndex } from '../../src/host/search/worker/sqlite-index.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { A, B, createHostHarness, type HostHarness, id, post, TARGET, temporaryFolder } from './harness.ts'
import { until } from '../wait.ts'
import { foreignDatabase, notADatabase, olderLayout, RESTING_HARMS, RUNNING_HARMS } from './fixtures/damaged-files.ts'

const temporary = temporaryFolder

beforeEach(() => {
  process.env.DSH_HOME = temporary('dsh-sessions-search-home-')
})

const waitFor = (check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => until(check, 'the condition', ms)

interface Stored {
  readonly cwd?: string
  readonly title?: string
  readonly createdAt?: number
  /** User message, assistant reply; pairs. */
  readonly turns: readonly (readonly [string, string])[]
}

/** Writes sessions through the host's JSONL backend in one process, for a second one to find cold. */
async function writeStore(root: string, sessions: Record<number, Stored>): Promise<HostHarness> {
  const writer = await createHostHarness({ persistenceRoot: root })
  for (const [n, spec] of Object.entries(sessions)) {
    const sessionId = id(Number(n))
    writer.session(sessionId, { cwd: spec.cwd ?? A, ...(spec.createdAt === undefined ? {} : { createdAt: spec.createdAt }) })
    for (const [user, reply] of spec.turns) writer.turn(sessionId, user, reply)
    if (spec.title !== undefined) writer.retitle(sessionId, spec.title)
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(sessionId))!)
  }
  return writer
}

const STORE: Record<number, Stored> = {
  2: { title: 'Billing notes', createdAt: 2, turns: [['Where are the invoices kept?', 'In the finance folder.']] },
  3: { title: 'Weekly sync', createdAt: 3, turns: [['We planned the billing migration for Q3.', 'The migration needs a freeze window.']] },
  4: { title: 'Old chat', createdAt: 4, turns: [['Billing came up once.', 'Noted.']] },
  5: { title: '发布评审', createdAt: 5, turns: [['我们讨论了发布流程和灰度策略', '好的，灰度先从百分之五开始。']] },
  6: { cwd: B, title: 'Elsewhere', createdAt: 6, turns: [['The billing migration in another repo, codename zanzibar.', 'ok']] },
  7: { title: 'Accents', createdAt: 7, turns: [['Le café était fermé à Genève.', 'Dommage.']] },
}

/** A second host over the written store, with the plugin mounted, once the content index is ready. */
async function searchHost(config: object = {}, store: Record<number, Stored> = STORE) {
  const root = temporary('dsh-sessions-search-store-')
  await writeStore(root, store)
  const h = await createHostHarness({ persistenceRoot: root })
  h.session(TARGET, { cwd: A, messages: ['the billing migration is mine to cite from, not to find'] })
  const mounted = await h.mount(config)
  // The worker's first start compiles its modules: on a loaded machine that alone has taken over 10 s (the test's own limit is 20 s).
  await waitFor(async () => (await (await fetch(`${mounted.url}/dsh-sessions/content-index`)).json()).ready === true, 18_000)
  const search = async (query: string) => {
    const res = await post(mounted.url, 'candidates', { citingSessionId: TARGET, query })
    expect(res.status).toBe(200)
    return (await res.json()).candidates as { sessionId: string; label: string; snippet?: { text: string; marks: [number, number][]; missing?: string[] } }[]
  }
  return { h, root, url: mounted.url, dispose: mounted.dispose, search }
}

describe('what text counts', () => {
  it('is the conversation the official session-reference snapshot shows: own messages and reply text only', async () => {
    const h = await createHostHarness()
    h.session(TARGET, { cwd: A })
    const source = id(2)
    h.session(source, { cwd: A, messages: ['first own message'] })
    const session = h.ctx.sessions.get(SessionId(source))!
    session.append('user/message', createUserMessage({ content: [{ type: 'text', text: 'injected context' }], source: { kind: 'plugin', plugin: 'probe', form: 'relay' } } as never), { surfaceOp: 'append' })
    session.append('assistant/message', {
      turn: 1,
      step: 1,
      message: createAssistantMessage({ content: [{ type: 'reasoning', text: 'hidden thought' }, { type: 'text', text: 'visible reply' }, { type: 'text', text: 'second block' }], source: { provider: 'p', model: 'm' } } as never),
    } as never, { surfaceOp: 'append' })
    h.turn(source, 'second own message', 'second reply')
    const prepared = await h.ctx.sessionReferenceResolver.prepare({ id: TARGET } as Agent, [{ type: 'text', text: '' }], [{ sessionId: SessionId(source) }])
    const text = prepared.additionalContext!.content.map(block => (block.type === 'text' ? block.text : '')).join('')
    const data = JSON.parse(text.slice(text.indexOf('{"sessionId"'), text.lastIndexOf('}') + 1)) as { conversation: { text: string }[] }
    expect(conversationOf(session.events).messages).toEqual(data.conversation.map(item => item.text))
    expect(conversationOf(session.events).messages).not.toContain('injected context')
  })
})

describe('content candidates through the route', () => {
  it('find a rare word of a message body, with an excerpt, after the title matches in the official order', async () => {
    const { search } = await searchHost()
    const rows = await search('billing')
    // The title match first; then by BM25 score, where the shorter text that says it once outranks the longer one.
    expect(rows.map(row => row.sessionId)).toEqual([id(2), id(4), id(3)])
    expect(rows[0]!.snippet).toBeUndefined()
    expect(rows[2]!.snippet!.text).toContain('billing migration')
    const rare = await search('invoices')
    expect(rare.map(row => [row.sessionId, rare[0]!.snippet!.text])).toEqual([[id(2), 'Where are the invoices kept?']])
  })

  it('find every word first, take the last as a prefix, match accents and Chinese words in any order, then name what a partial match lacks', async () => {
    const { search } = await searchHost()
    const whole = async (query: string) => (await search(query)).filter(row => row.snippet?.missing === undefined).map(row => row.sessionId)
    expect(await whole('billing migration')).toEqual([id(3)])
    expect(await whole('freeze win')).toEqual([id(3)])
    expect(await whole('migr')).toEqual([id(3)])
    expect(await whole('geneve')).toEqual([id(7)])
    // A session with one of the words follows, saying which one it lacks.
    expect((await search('billing migration')).map(row => [row.sessionId, row.snippet?.missing])).toEqual([[id(3), undefined], [id(4), ['migration']]])
    const chinese = await search('灰度策略')
    expect(chinese.map(row => row.sessionId)).toEqual([id(5)])
    // From the phrase the match stands in, so it shows near the start of the row without a broken word before it.
    expect(chinese[0]!.snippet!.text).toMatch(/^(…)?[^…]{0,16}灰度策略/)
    expect(chinese[0]!.snippet!.text).not.toMatch(/^…(和|程|流)/)
    expect((await search('策略灰度')).map(row => row.sessionId)).toEqual([id(5)])
  })

  it('hold the scope: another workspace is neither listed nor excerpted, and the current session never is', async () => {
    const { search, url } = await searchHost()
    const inWorkspace = await search('zanzibar')
    expect(inWorkspace).toEqual([])
    const body = await (await post(url, 'candidates', { citingSessionId: TARGET, query: 'migration' })).text()
    expect(body).not.toContain('zanzibar')
    expect(body).not.toContain(id(6))
    expect(body).not.toContain(TARGET)
    await post(url, 'settings', { scope: 'all' })
    expect((await search('zanzibar')).map(row => row.sessionId)).toEqual([id(6)])
    expect((await search('billing migration')).filter(row => row.snippet?.missing === undefined).map(row => row.sessionId).sort()).toEqual([id(3), id(6)])
  })

  it('order equally good content matches newest first', async () => {
    const twins = { 8: { title: 'One', createdAt: 8, turns: [['same words tiebreak', 'x']] }, 9: { title: 'Two', createdAt: 9, turns: [['same words tiebreak', 'x']] } } as const
    const { search } = await searchHost({}, { ...STORE, ...twins })
    expect((await search('tiebreak')).map(row => row.sessionId)).toEqual([id(9), id(8)])
  })

  it('stop at candidateLimit, title matches included', async () => {
    const { search } = await searchHost({ candidateLimit: 2 })
    expect((await search('billing')).map(row => row.sessionId)).toEqual([id(2), id(4)])
  })

  it('find a live session\'s new message a moment after it is appended', async () => {
    const { h, search } = await searchHost()
    h.session(id(20), { cwd: A, messages: ['a quokka appeared'] })
    await waitFor(async () => (await search('quokka')).some(row => row.sessionId === id(20)))
    h.turn(id(20), 'and then a narwhal', 'fine')
    await waitFor(async () => (await search('narwhal')).some(row => row.sessionId === id(20)))
  })
})

describe('the log pass and the index file', () => {
  /** Host over a store with the classes wired by hand, a short reconciliation and the index file in a temp folder; stopped after the test. */
  async function passHost(root: string, file: string, options: { workerModule?: URL; engine?: 'sqlite' | 'none'; duty?: number; holdListings?: Promise<void>; checkMs?: number; pausedCheckMs?: number; retryMs?: number; freeSpaceMiB?: () => number; reconcileMs?: number; logs?: (ctx: Context) => SessionLogLocator } = {}) {
    const { holdListings, reconcileMs = 60, logs = (ctx: Context) => new SessionLogLocator(ctx), ...searchOptions } = options
    const h = await createHostHarness({ persistenceRoot: root })
    h.faults.holdListings = holdListings
    h.session(TARGET, { cwd: A })
    const fiber = h.ctx.plugin({ name: 'pass-host', inject: ['sessionQuery', 'sessions'], apply: () => undefined })
    await fiber
    const index = new SessionCatalog(fiber.ctx, { reconcileMs })
    const content = new ContentSearch(fiber.ctx, { catalog: index, logs: logs(fiber.ctx) }, { file, duty: 1, ...searchOptions })
    return { h, index, content, ctx: fiber.ctx, stop: () => fiber.dispose() }
  }

  const find = async (content: ContentSearch, query: string) => (await content.search(queryTerms(query), { admit: () => true, limit: 10 })).map(hit => hit.id)
  const sqliteFile = (file: string) => join(file, '..', 'content-index.sqlite')

  it('send a live session\'s new messages alone once the index holds the earlier ones, and the whole text where it does not', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    await writeStore(root, { 2: STORE[2]! })
    const { h, content } = await passHost(root, file)
    await content.whenReady()
    h.turn(TARGET, 'a live word: pangolin', 'ok')
    await waitFor(async () => (await find(content, 'pangolin')).includes(TARGET))
    const worker = (content as unknown as { upkeep: { worker: { call: (name: string, args: { session?: string; entry?: { messages: readonly string[] } }) => Promise<unknown> } } }).upkeep.worker
    const call = worker.call.bind(worker)
    const sent: { name: string; messages: readonly string[] }[] = []
    worker.call = (name, args) => {
      if (args.session === TARGET && args.entry !== undefined) sent.push({ name, messages: args.entry.messages })
      return call(name, args)
    }
    h.turn(TARGET, 'then a wombat', 'sure')
    await waitFor(async () => (await find(content, 'wombat')).includes(TARGET))
    expect(sent.every(one => one.name === 'append')).toBe(true)
    expect(sent.flatMap(one => one.messages)).toEqual(['then a wombat', 'sure'])
    // The index's copy replaced under it: the next append is refused, and the whole text goes instead.
    await call('put', { session: TARGET, entry: { revision: 'elsewhere', title: undefined, messages: ['something else'] } as never })
    sent.length = 0
    h.turn(TARGET, 'and a platypus', 'fine')
    await waitFor(async () => (await find(content, 'platypus')).includes(TARGET))
    expect(sent.map(one => one.name)).toEqual(['append', 'put'])
    expect(sent[1]!.messages).toEqual(['a live word: pangolin', 'ok', 'then a wombat', 'sure', 'and a platypus', 'fine'])
    expect(await find(content, 'pangolin')).toContain(TARGET)
  })

  it('read each log once, again only when it changed, and forget a deleted session', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    const writer = await writeStore(root, { 2: STORE[2]!, 3: STORE[3]! })
    const { content } = await passHost(root, file)
    await content.whenReady()
    // Two cold logs read; the live target is indexed from its events.
    expect(content.status()).toMatchObject({ ready: true, reads: 2, sessions: 3, engine: 'sqlite' })
    await waitFor(() => content.status().passes >= 3)
    expect(content.status().reads).toBe(2)
    writer.turn(id(3), 'a new word: xylophone', 'ok')
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(3)))!)
    await waitFor(async () => (await find(content, 'xylophone')).length === 1)
    expect(content.status().reads).toBe(3)
    const location = writer.ctx.sessionPersistence.locate({ version: 1, id: SessionId(id(2)), createdAt: 2, cwd: A } as never)!
    rmSync(join(location.path, '..'), { recursive: true, force: true })
    await waitFor(async () => (await find(content, 'invoices')).length === 0)
    expect(content.status().sessions).toBe(2)
  })

  it('open the file while the host lists its sessions, and answer once that listing ends', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    await writeStore(root, { 2: STORE[2]! })
    const first = await passHost(root, file)
    await first.content.whenReady()
    await first.stop()
    let release!: () => void
    const second = await passHost(root, file, { holdListings: new Promise(resolve => { release = resolve }) })
    // Restored while the listing is held.
    await second.content.whenReady()
    expect(second.index.isListed).toBe(false)
    expect(second.content.status()).toMatchObject({ engine: 'sqlite', start: 'restored' })
    release()
    await second.index.whenStarted()
    expect(await find(second.content, 'invoices')).toEqual([id(2)])
    await waitFor(() => second.content.status().passes >= 1)
    expect(second.content.status().reads).toBe(0)
  })

  it('restore at once, read no unchanged log, take titles from the file, and remove the JSON file and temporary files of earlier versions', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    writeFileSync(file, '{"an old": "memory-engine file"}')
    const stale = [`${file}.${process.pid}.tmp`, `${file}.${2 ** 22 + 4_321}.tmp`]
    for (const path of stale) writeFileSync(path, '{"format":')
    await writeStore(root, { 2: STORE[2]!, 5: STORE[5]! })
    const first = await passHost(root, file)
    await first.content.whenReady()
    expect(first.content.status()).toMatchObject({ engine: 'sqlite', start: 'missing', reads: 2 })
    expect(existsSync(file)).toBe(false)
    for (const path of stale) expect(existsSync(path)).toBe(false)
    await first.stop()
    expect(existsSync(sqliteFile(file))).toBe(true)
    const second = await passHost(root, file)
    await second.content.whenReady()
    expect(second.content.status()).toMatchObject({ engine: 'sqlite', start: 'restored' })
    expect(await find(second.content, 'invoices')).toEqual([id(2)])
    expect(await find(second.content, '灰度')).toEqual([id(5)])
    await waitFor(() => second.content.status().passes >= 1)
    expect(second.content.status().reads).toBe(0)
    await waitFor(() => second.index.get(id(5))?.label === '发布评审')
    expect(readdirSync(join(file, '..')).filter(name => name.endsWith('.tmp') || name.endsWith('.json'))).toEqual([])
  })

  it('build a file of the previous layout again once, in the background, answering titles meanwhile, and keep it from then on', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    // The layout before: a word named in the first piece alone, nothing in `inside`.
    const loaded = await loadSqlite()
    if (!loaded.ok) throw new Error(loaded.reason)
    const old = SqliteIndex.open(loaded.sqlite, sqliteFile(file))
    old.index.set(id(2), { revision: 'old', title: 'Billing notes', messages: ['Where are the invoices kept?'] })
    old.index.close()
    const db = new DatabaseSync(sqliteFile(file))
    db.exec("UPDATE meta SET value = replace(value, 'words=apart', 'words=first') WHERE key = 'layout'")
    db.close()
    await writeStore(root, { 2: STORE[2]!, 5: STORE[5]! })
    const first = await passHost(root, file)
    // Titles answer from the listing whatever the file holds.
    await first.index.whenStarted()
    await waitFor(() => first.index.get(id(5))?.label === '发布评审')
    await first.content.whenReady()
    expect(first.content.status()).toMatchObject({ engine: 'sqlite', start: 'outdated', reads: 2 })
    expect(await find(first.content, '灰度')).toEqual([id(5)])
    await first.stop()
    const second = await passHost(root, file)
    await second.content.whenReady()
    expect(second.content.status()).toMatchObject({ engine: 'sqlite', start: 'restored' })
    await waitFor(() => second.content.status().passes >= 1)
    expect(second.content.status().reads).toBe(0)
    expect(await find(second.content, 'invoices')).toEqual([id(2)])
  })

  it('merges a completed build\'s term tables before it is called ready', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    const many: Record<number, Stored> = {}
    for (let n = 10; n < 60; n += 1) many[n] = { createdAt: n, turns: [[`merge note number${n}`, 'ok']] }
    await writeStore(root, many)
    const { content, stop } = await passHost(root, file)
    await content.whenReady()
    // Read at the moment it is ready: one segment per table, not the several its writes made.
    const db = new DatabaseSync(sqliteFile(file), { readOnly: true })
    try {
      expect((db.prepare('SELECT count(DISTINCT segid) AS n FROM terms_idx').get() as { n: number }).n).toBe(1)
    } finally {
      db.close()
    }
    expect(await find(content, 'number42')).toEqual([id(42)])
    // The logs were read a batch at a time, each batch written in one transaction.
    expect(content.status()).toMatchObject({ reads: 50, batches: Math.ceil(50 / BATCH.logs) })
    await stop()
  })

  it('builds a first index with no look at each log on the host\'s thread: the worker looks as it reads, and a later pass looks at the logs the index holds', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    await writeStore(root, { 2: STORE[2]!, 3: STORE[3]!, 4: STORE[4]! })
    // Every look the log pass asks of the host's side, by session.
    const looks: string[] = []
    class CountedLooks extends SessionLogLocator {
      override lookup(): LogLookup {
        const look = super.lookup()
        return { ...look, state: header => { looks.push(header.id); return look.state(header) } }
      }
    }
    // One listing each, so one pass each.
    const first = await passHost(root, file, { logs: ctx => new CountedLooks(ctx), reconcileMs: 600_000 })
    await waitFor(() => first.content.status().passes >= 1)
    // The three logs read, and the live session's text.
    expect(first.content.status()).toMatchObject({ reads: 3, sessions: 4 })
    expect(looks).toEqual([])
    expect(await find(first.content, 'invoices')).toEqual([id(2)])
    // What the index holds of each is the revision of its file as it is.
    const locator = new SessionLogLocator(first.ctx)
    const upkeep = (first.content as unknown as { upkeep: { entry(id: string): { revision: string | undefined } | undefined } }).upkeep
    for (const n of [2, 3, 4]) expect(upkeep.entry(id(n))?.revision).toBe(logRevision(statSync(locator.path(first.index.get(id(n))!)!)))
    await first.stop()
    // Restarted over the same file: each log the index holds is looked at, and none is read again.
    const second = await passHost(root, file, { logs: ctx => new CountedLooks(ctx), reconcileMs: 600_000 })
    await waitFor(() => second.content.status().passes >= 1)
    expect(second.content.status()).toMatchObject({ start: 'restored', ready: true, reads: 0 })
    expect(looks.sort()).toEqual([id(2), id(3), id(4)])
    await second.stop()
  })

  it('a build stopped midway answers from what it held at once and reads only the rest', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    const FILLERS = 100
    const many: Record<number, Stored> = { 2: STORE[2]! }
    // Four batches of logs (see `BATCH`): a stop after the first leaves most unread, however late the wait below sees it.
    for (let n = 10; n < 10 + FILLERS; n += 1) many[n] = { createdAt: n, turns: [[`filler note number${n}`, 'ok']] }
    await writeStore(root, many)
    const first = await passHost(root, file, { duty: 0.05 })
    // At a 5 % duty each read waits nineteen times its own length, which a busy machine stretches.
    await waitFor(() => first.content.status().reads >= 3, 40_000)
    await first.stop()
    const held = first.content.status().reads
    expect(held).toBeLessThan(FILLERS + 1)
    const second = await passHost(root, file)
    await waitFor(() => second.content.status().start !== 'pending' && second.index.isListed)
    expect(second.content.status()).toMatchObject({ start: 'partial', ready: false })
    // The routes and the tools say how far it has come (the live target is one of the listed sessions).
    expect(second.content.progress()).toMatchObject({ total: FILLERS + 2 })
    expect(second.content.progress()!.indexed).toBeGreaterThanOrEqual(held)
    // Newest first: the newest session was read before the stop.
    expect(await find(second.content, `number${9 + FILLERS}`)).toEqual([id(9 + FILLERS)])
    await second.content.whenReady()
    expect(second.content.status().reads).toBe(FILLERS + 1 - held)
    expect(second.content.progress()).toBeUndefined()
    expect(await find(second.content, 'invoices')).toEqual([id(2)])
    await second.stop()
    const third = await passHost(root, file)
    await third.content.whenReady()
    expect(third.content.status()).toMatchObject({ start: 'restored' })
  }, 90_000)

  it.each([notADatabase, foreignDatabase, olderLayout(4, 'x')] as const)('build the index again from the logs over a %s file', async (reason, make) => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    make(sqliteFile(file))
    await writeStore(root, { 2: STORE[2]! })
    const { content } = await passHost(root, file)
    await content.whenReady()
    expect(content.status()).toMatchObject({ engine: 'sqlite', start: reason, reads: 1 })
    expect(await find(content, 'invoices')).toEqual([id(2)])
  })

  it('answer from titles at once when the file is damaged while in use, say so once, and find content again after the rebuild', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    const many: Record<number, Stored> = { 2: STORE[2]!, 3: STORE[3]! }
    for (let n = 10; n < 30; n += 1) many[n] = { createdAt: n, turns: [[`filler note number${n} ${'with more words '.repeat(40)}`, 'ok']] }
    await writeStore(root, many)
    const { content, ctx } = await passHost(root, file)
    const logged: string[] = []
    ctx.logger.exporter({ colors: 0, levels: { default: 3 }, export: (message: { args: unknown[] }) => { logged.push(message.args.map(String).join(' ')) } } as never)
    await content.whenReady()
    expect(await find(content, 'invoices')).toEqual([id(2)])
    // Garbage written into the open file's pages through another handle.
    const other = new DatabaseSync(sqliteFile(file))
    other.exec('UPDATE texts SET body = randomblob(length(body))')
    other.exec('UPDATE terms_data SET block = randomblob(length(block)) WHERE id > 10')
    other.close()
    const [damaged, again] = await Promise.all([find(content, 'invoices'), find(content, 'freeze')])
    expect(damaged).toEqual([])
    expect(again).toEqual([])
    expect(content.status()).toMatchObject({ damaged: 1, start: 'corrupt', ready: false })
    // Titles still answer through the route while it is built again.
    await content.whenReady()
    expect(await find(content, 'invoices')).toEqual([id(2)])
    expect(await find(content, 'freeze')).toEqual([id(3)])
    expect(content.status()).toMatchObject({ damaged: 1, ready: true })
    expect(logged.filter(line => line.includes('damaged'))).toHaveLength(1)
    expect(existsSync(`${sqliteFile(file)}.damaged`)).toBe(true)
  })

  it('without SQLite (no node:sqlite, or no FTS5), search titles only, say so, and start all the same', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    await writeStore(root, { 2: STORE[2]!, 3: STORE[3]! })
    const { content, index, ctx } = await passHost(root, file, { engine: 'none' })
    const logged: string[] = []
    ctx.logger.exporter({ colors: 0, levels: { default: 3 }, export: (message: { args: unknown[] }) => { logged.push(message.args.map(String).join(' ')) } } as never)
    await content.whenReady()
    await waitFor(() => index.get(id(3))?.label === 'Weekly sync' && index.get(id(2))?.label === 'Billing notes')
    expect(content.status()).toMatchObject({ engine: 'none', available: false, start: 'unavailable', sessions: 0 })
    expect(await find(content, 'migration')).toEqual([])
    expect(existsSync(sqliteFile(file))).toBe(false)
    expect(logged.filter(line => line.includes('titles only'))).toHaveLength(1)
  })

  it('read the sessions after an unreadable log in the same pass', async () => {
    const root = temporary('dsh-sessions-pass-')
    const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
    await writeStore(root, { 2: STORE[2]!, 3: STORE[3]!, 4: STORE[4]! })
    // The worker fails every read of session 3's log (`id(3)`, see the fixture); the pass goes newest first, so it meets 4, then 3, then 2.
    // Retries three seconds apart, and no listing in between (each listing runs a pass, which tries the log again): the state between two passes lasts long enough to be seen on a machine with a core kept busy.
    const { content } = await passHost(root, file, { workerModule: new URL('./fixtures/unreadable-log-worker.ts', import.meta.url), retryMs: 3_000, reconcileMs: 600_000 })
    let saw = ''
    await until(async () => {
      const found = await find(content, 'invoices')
      saw = `found ${JSON.stringify(found)}, status ${JSON.stringify(content.status())}`
      return found.length === 1 && content.status().pending === 1
    }, 'session 2 found and session 3 pending', 30_000).catch((error: unknown) => { throw new Error(`${String(error)}; last saw ${saw}`) })
    // Not ready while a listed session is neither indexed nor named as skipped: it is tried again.
    expect(content.status()).toMatchObject({ ready: false, skipped: { count: 0 } })
    expect(content.progress()).toEqual({ indexed: 3, total: 4 })
    expect(await find(content, 'noted')).toEqual([id(4)])
    await content.whenReady()
    // Ready once it failed three times in a row and is named, with why.
    expect(content.status()).toMatchObject({ ready: true, pending: 0, skipped: { count: 1, sessions: [{ id: id(3), tries: 3, reason: expect.stringContaining('EIO') }] } })
    expect(await find(content, 'freeze')).toEqual([])
    // Three tries three seconds apart, and up to 30 s to see the state between two of them: more than the suite's 20 s a test.
  }, 60_000)

  it('without the search worker, still repair titles from the logs and answer title matches, with no content match', async () => {
    const root = temporary('dsh-sessions-pass-')
    await writeStore(root, { 2: STORE[2]!, 3: STORE[3]! })
    const h = await createHostHarness({ persistenceRoot: root })
    h.session(TARGET, { cwd: A })
    const index = new SessionCatalog(h.ctx)
    const content = new ContentSearch(h.ctx, { catalog: index, logs: new SessionLogLocator(h.ctx) }, { workerModule: new URL('file:///nonexistent/worker.js') })
    await content.whenReady()
    await waitFor(() => index.get(id(3))?.label === 'Weekly sync' && index.get(id(2))?.label === 'Billing notes')
    expect(content.status()).toMatchObject({ available: false, start: 'unavailable', sessions: 0 })
    expect(await content.search(queryTerms('migration'), { admit: () => true, limit: 10 })).toEqual([])
  })

  it('never fail the plugin\'s start over a bad file: the routes answer and search still works', async () => {
    const root = temporary('dsh-sessions-pass-')
    await writeStore(root, { 3: STORE[3]! })
    const file = contentIndexFile()
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, '\u0000garbage')
    const h = await createHostHarness({ persistenceRoot: root })
    h.session(TARGET, { cwd: A })
    const { url } = await h.mount()
    await waitFor(async () => (await (await fetch(`${url}/dsh-sessions/content-index`)).json()).ready === true)
    const rows = (await (await post(url, 'candidates', { citingSessionId: TARGET, query: 'freeze' })).json()).candidates as { sessionId: string }[]
    expect(rows.map(row => row.sessionId)).toEqual([id(3)])
  })

  describe('under a full disk, failed writes and damage', () => {
    const faultWorker = new URL('./fixtures/disk-fault-worker.ts', import.meta.url)
    const MiB = 2 ** 20
    /** The disk the fixture worker reports for the index's folder. */
    const setDisk = (file: string, freeMiB: number | undefined): void => {
      const figures = join(file, '..', 'disk.json')
      if (freeMiB === undefined) rmSync(figures, { force: true })
      else writeFileSync(figures, JSON.stringify({ free: freeMiB * MiB, total: 1_000 * MiB }))
    }
    /** While `on`, every write of the fixture worker fails with SQLITE_FULL. */
    const setFull = (file: string, on: boolean): void => {
      const marker = join(file, '..', 'full')
      if (on) writeFileSync(marker, '')
      else rmSync(marker, { force: true })
    }
    const faultHost = (root: string, file: string) => passHost(root, file, { workerModule: faultWorker, checkMs: 20, retryMs: 20, freeSpaceMiB: () => 100 })

    it('creates no file on a disk below the floor, says it is paused everywhere, and builds once space returns', async () => {
      const root = temporary('dsh-sessions-pass-')
      const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
      await writeStore(root, { 2: STORE[2]!, 3: STORE[3]! })
      setDisk(file, 60)
      const { content, index } = await faultHost(root, file)
      await index.ready()
      await waitFor(() => content.status().start === 'low-disk' && index.isListed && content.status().disk !== undefined)
      await content.idle()
      expect(content.status()).toMatchObject({ ready: false, paused: 'low-disk', sessions: 0, disk: { free: 60 * MiB, floor: 100 * MiB } })
      expect(content.progress()).toEqual({ indexed: 0, total: 3, paused: 'low-disk' })
      expect(existsSync(sqliteFile(file))).toBe(false)
      // Space returns: indexing resumes by itself, and the index becomes ready.
      setDisk(file, 500)
      await content.whenReady()
      expect(content.status().paused).toBeUndefined()
      expect(content.progress()).toBeUndefined()
      expect(await find(content, 'invoices')).toEqual([id(2)])
    })

    it('looks at the disk sooner while paused: space freed is found well before the usual look', async () => {
      const root = temporary('dsh-sessions-pass-')
      const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
      await writeStore(root, { 2: STORE[2]! })
      setDisk(file, 60)
      // The usual look is a minute away; the paused one 20 ms.
      const { content, index } = await passHost(root, file, { workerModule: faultWorker, checkMs: 60_000, pausedCheckMs: 20, retryMs: 20, freeSpaceMiB: () => 100 })
      await index.ready()
      await waitFor(() => content.status().paused === 'low-disk' && content.status().disk !== undefined)
      setDisk(file, 500)
      await waitFor(() => content.status().paused === undefined)
      await content.whenReady()
      expect(await find(content, 'invoices')).toEqual([id(2)])
    })

    it('pauses a build whose writes fail, keeps what it wrote, is not ready meanwhile, and indexes the rest once writes succeed', async () => {
      const root = temporary('dsh-sessions-pass-')
      const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
      await writeStore(root, { 2: STORE[2]!, 3: STORE[3]!, 4: STORE[4]! })
      setDisk(file, 500)
      const first = await faultHost(root, file)
      await first.content.whenReady()
      await first.stop()
      // Two new sessions arrive while the disk refuses every write.
      await writeStore(root, { 5: STORE[5]!, 7: STORE[7]! })
      setFull(file, true)
      const { content } = await faultHost(root, file)
      await waitFor(() => content.status().paused === 'low-disk')
      await content.idle()
      // The file held the live target and three cold sessions; the two new ones are not written.
      expect(content.status()).toMatchObject({ ready: false, paused: 'low-disk', sessions: 4 })
      expect(content.progress()).toEqual({ indexed: 4, total: 6, paused: 'low-disk' })
      expect(await find(content, 'invoices')).toEqual([id(2)])
      expect(await find(content, 'genève')).toEqual([])
      // The disk takes writes again, but has no more room than when it refused them: still paused.
      setFull(file, false)
      await waitFor(() => content.status().disk !== undefined)
      await new Promise(resolve => setImmediate(resolve))
      expect(content.status().paused).toBe('low-disk')
      setDisk(file, 520)
      await content.whenReady()
      expect(await find(content, 'genève')).toEqual([id(7)])
      expect(await find(content, '灰度')).toEqual([id(5)])
    })

    it('indexes a live message whose write failed once writes succeed again, and records nothing before', async () => {
      const root = temporary('dsh-sessions-pass-')
      const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
      await writeStore(root, { 2: STORE[2]! })
      setDisk(file, 500)
      const { h, content } = await faultHost(root, file)
      await content.whenReady()
      setFull(file, true)
      h.turn(TARGET, 'a live word: pangolin', 'ok')
      await waitFor(() => content.status().paused === 'low-disk')
      expect(await find(content, 'pangolin')).toEqual([])
      setFull(file, false)
      setDisk(file, 520)
      await waitFor(async () => (await find(content, 'pangolin')).length === 1)
      expect(content.status().paused).toBeUndefined()
    })

    for (const [damage, harm] of RUNNING_HARMS) {
      it(`finds a file ${damage} while running within a look, sets it aside and builds it again`, async () => {
        const root = temporary('dsh-sessions-pass-')
        const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
        await writeStore(root, Object.fromEntries(Array.from({ length: 24 }, (_, n) => [n + 2, { createdAt: n + 2, turns: [[`note ${n} about the ocelot ${'and more words '.repeat(400)}`, 'ok']] }])))
        const { content } = await passHost(root, file, { checkMs: 20, retryMs: 20 })
        await content.whenReady()
        expect(await find(content, 'ocelot')).toHaveLength(10)
        harm(sqliteFile(file))
        await waitFor(() => content.status().damaged === 1)
        expect(existsSync(`${sqliteFile(file)}.damaged`)).toBe(true)
        await waitFor(async () => content.status().ready && (await find(content, 'ocelot')).length === 10)
        expect(content.status()).toMatchObject({ damaged: 1, start: 'corrupt' })
      })
    }

    for (const [damage, harm] of RESTING_HARMS) {
      it(`sets a file with ${damage} aside when loading, and builds it again`, async () => {
        const root = temporary('dsh-sessions-pass-')
        const file = join(temporary('dsh-sessions-pass-home-'), 'content-index.json')
        await writeStore(root, { 2: STORE[2]!, 3: STORE[3]! })
        const first = await passHost(root, file)
        await first.content.whenReady()
        await first.stop()
        harm(sqliteFile(file))
        const { content } = await passHost(root, file, { checkMs: 20, retryMs: 20 })
        await content.whenReady()
        expect(content.status()).toMatchObject({ start: 'corrupt', engine: 'sqlite', sessions: 3 })
        expect(existsSync(`${sqliteFile(file)}.damaged`)).toBe(true)
        expect(await find(content, 'invoices')).toEqual([id(2)])
      })
    }
  })
})
