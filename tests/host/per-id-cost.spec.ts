/**
 * Work in proportion to the ids a request names, on stored (cold) sessions
 * of the host's JSONL backend: an id the index does not hold costs no read
 * and no listing, an id named twice is read once, and a stored session is
 * read from its one log, never through a listing of the whole store. The
 * plugin's read of one log gives exactly the surface the official query
 * service gives. One look at a log tells its revision or that it is deleted.
 * Without a request, the first listing waits for the host's settled boot.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { SessionId } from '@deepseek-ai/dsh-session'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bootSettled } from '../../src/host/official/boot-settled.ts'
import { readLiveSurface, readStoredSurface, readStoredTitle, readStoredTitleSnapshot } from '../../src/host/official/session-query.ts'
import { MessageSeqs } from '../../src/host/references/message-seqs.ts'
import { SourceMessages } from '../../src/host/references/source-messages.ts'
import { SurfaceCache } from '../../src/host/references/surface-cache.ts'
import { SessionLogLocator } from '../../src/host/search/log-locator.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { A, B, createHostHarness, type HostHarness, id, mention, post, TARGET, unknownId, until } from './harness.ts'
import { until as poll } from '../wait.ts'

const roots: string[] = []

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** Sessions written by one host, then a second host with the plugin on the same folder, where they are cold. */
async function coldHost(): Promise<{ writer: HostHarness; reader: HostHarness; url: string; listings: () => number; inspected: () => string[] }> {
  const root = mkdtempSync(join(tmpdir(), 'dsh-sessions-per-id-'))
  roots.push(root)
  const writer = await createHostHarness({ persistenceRoot: root })
  writer.session(id(2), { cwd: A, title: 'Kiwi plans', messages: ['first kiwi note'] })
  writer.turn(id(2), 'second kiwi question', 'second kiwi answer')
  writer.session(id(3), { cwd: B, title: 'Plum plans', messages: ['beta only text'] })
  writer.turn(id(3), 'beta question', 'beta answer')
  writer.retitle(id(3), 'Plum plans, renamed')
  for (const n of [2, 3]) await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(n)))!)
  const reader = await createHostHarness({ persistenceRoot: root })
  reader.session(TARGET, { cwd: A })
  const { url } = await reader.mount()
  // The index lists once at start; every listing after that is counted.
  expect((await post(url, 'candidates', { citingSessionId: TARGET })).status).toBe(200)
  const persistence = reader.ctx.sessionPersistence
  const list = vi.spyOn(persistence, 'list')
  const inspect = vi.spyOn(persistence, 'inspect')
  const queryListings = reader.faults.calls.get('listSessions') ?? 0
  return {
    writer,
    reader,
    url,
    listings: () => list.mock.calls.length + (reader.faults.calls.get('listSessions') ?? 0) - queryListings,
    inspected: () => inspect.mock.calls.map(([sessionId]) => sessionId),
  }
}

type Since = { sources: { sessionId: string; newMessages: number; firstNewSeq?: number }[] }

describe('per-id cost of the routes', () => {
  it('answers since for ids the index does not hold with nothing new, reading and listing nothing', async () => {
    const { url, listings, inspected } = await coldHost()
    const sources = Array.from({ length: 32 }, (_, n) => ({ sessionId: unknownId(n), capturedThroughSeq: 0 }))
    const answer = await (await post(url, 'since', { sources })).json() as Since
    expect(answer.sources.map(source => source.newMessages)).toEqual(Array.from({ length: 32 }, () => 0))
    expect(inspected()).toEqual([])
    expect(listings()).toBe(0)
  })

  it('answers preflights, candidates and tool calls naming ids the index does not hold without a read or a listing, however many', async () => {
    const { url, listings, inspected } = await coldHost()
    // 32 made-up ids in one preflight text, then 32 candidates calls whose citing session is made up.
    const text = Array.from({ length: 32 }, (_, n) => unknownId(n)).join(' ')
    const preflight = await post(url, 'preflight', { citingSessionId: TARGET, text })
    expect(preflight.status).toBe(200)
    for (let n = 0; n < 32; n += 1) expect((await post(url, 'candidates', { citingSessionId: unknownId(100 + n) })).status).toBe(404)
    expect((await post(url, 'messages', { citingSessionId: TARGET, sourceId: unknownId(200) })).status).toBe(404)
    expect(inspected()).toEqual([])
    expect(listings()).toBe(0)
  })

  it('answers since for stored sources from their own log files, without a listing or a recovery of the session', async () => {
    const { url, listings, inspected } = await coldHost()
    const sources = [...Array.from({ length: 20 }, () => ({ sessionId: id(2), capturedThroughSeq: null })), { sessionId: id(3), capturedThroughSeq: null }]
    const answer = await (await post(url, 'since', { sources })).json() as Since
    expect(new Set(answer.sources.slice(0, 20).map(source => source.newMessages))).toEqual(new Set([3]))
    expect(answer.sources[20]).toMatchObject({ sessionId: id(3), newMessages: 3 })
    expect(inspected()).toEqual([])
    expect(listings()).toBe(0)
  })

  it('reads a source named many times once, and again only when its log changed', async () => {
    const { reader, writer } = await coldHost()
    const index = new SessionCatalog(reader.ctx)
    await index.ready()
    const seqs = new MessageSeqs(reader.ctx, new SessionLogLocator(reader.ctx))
    const messages = new SourceMessages({ cache: new SurfaceCache(reader.ctx, index), catalog: index }, seqs)
    const sources = [...Array.from({ length: 20 }, () => ({ sessionId: id(2), capturedThroughSeq: null })), { sessionId: id(3), capturedThroughSeq: null }]
    const first = await messages.since(sources)
    expect(first.map(source => source.newMessages)).toEqual(Array.from({ length: 21 }, () => 3))
    expect(Object.fromEntries(seqs.reads)).toEqual({ [id(2)]: 1, [id(3)]: 1 })
    // Asked again, an unchanged log is not read again.
    const last = first[0]!
    await messages.since(sources)
    expect(Object.fromEntries(seqs.reads)).toEqual({ [id(2)]: 1, [id(3)]: 1 })
    // The source gains a message in another process: its log is read again, and the answer counts it.
    writer.turn(id(2), 'a later question', 'a later answer')
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(2)))!)
    const later = await messages.since([{ sessionId: id(2), capturedThroughSeq: null }])
    expect(later[0]!.newMessages).toBe(last.newMessages + 2)
    expect(seqs.reads.get(id(2))).toBe(2)
  })

  it('refuses a message reference and a mention of an id the index does not hold without reading', async () => {
    const { url, listings, inspected } = await coldHost()
    expect((await post(url, 'message-reference', { sourceId: unknownId(1), seq: 1 })).status).toBe(404)
    expect((await post(url, 'mention', { sourceId: unknownId(1) })).status).toBe(404)
    expect(inspected()).toEqual([])
    const reference = await (await post(url, 'message-reference', { sourceId: id(2), seq: 0 })).json() as { label: string }
    expect(reference.label).toBe('Kiwi plans · #1')
    // The same mention the `@` menu inserts for that session.
    const mention = await (await post(url, 'mention', { sourceId: id(2) })).json() as { label: string; mention: string }
    const menu = await (await post(url, 'candidates', { citingSessionId: TARGET })).json() as { candidates: { sessionId: string; label: string; mention: string }[] }
    const listed = menu.candidates.find(candidate => candidate.sessionId === id(2))!
    expect(mention).toEqual({ sessionId: id(2), label: listed.label, mention: listed.mention })
    expect(listings()).toBe(0)
  })

  it('finds a stored source whose log was deleted after it was read not found, whatever the persistence service keeps', async () => {
    const { url, reader } = await coldHost()
    const text = `compare ${id(2)}`
    expect(await (await post(url, 'preflight', { citingSessionId: TARGET, text })).json()).toMatchObject({ ok: true })
    // The persistence service may keep what it read for a later resume and hand it out again (rc.8's real host did, after the log was deleted).
    const kept = await reader.ctx.sessionPersistence.inspect(SessionId(id(2)))
    const root = dirname(dirname(dirname(new SessionLogLocator(reader.ctx).path({ id: id(2), cwd: A, createdAt: 0 })!)))
    for (const project of readdirSync(root)) rmSync(join(root, project, id(2)), { recursive: true, force: true })
    vi.spyOn(reader.ctx.sessionPersistence, 'inspect').mockResolvedValue(kept)
    expect(await (await post(url, 'preflight', { citingSessionId: TARGET, text })).json()).toMatchObject({ ok: false, code: 'not-found' })
  })

  it('refuses a picked source deleted on disk as deleted on every later send, once the index has dropped it too, and another workspace\'s deleted session as out of scope', async () => {
    const { url, reader } = await coldHost()
    const mine = `compare ${mention(id(2), 'Kiwi plans')}`
    const theirs = `compare ${mention(id(3), 'Plum plans')}`
    expect(await (await post(url, 'preflight', { citingSessionId: TARGET, text: mine })).json()).toMatchObject({ ok: true })
    expect(await (await post(url, 'preflight', { citingSessionId: TARGET, text: theirs })).json()).toMatchObject({ ok: false, code: 'out-of-scope' })
    const root = dirname(dirname(dirname(new SessionLogLocator(reader.ctx).path({ id: id(2), cwd: A, createdAt: 0 })!)))
    for (const n of [2, 3]) for (const project of readdirSync(root)) rmSync(join(root, project, id(n)), { recursive: true, force: true })
    expect(await (await post(url, 'preflight', { citingSessionId: TARGET, text: mine })).json()).toMatchObject({ ok: false, code: 'not-found' })
    // The failed read made the index read the session again, and drop it.
    await expect.poll(async () => (await (await post(url, 'candidates', { citingSessionId: TARGET })).json() as { candidates: { sessionId: string }[] }).candidates.map(c => c.sessionId)).not.toContain(id(2))
    expect(await (await post(url, 'preflight', { citingSessionId: TARGET, text: mine })).json()).toMatchObject({ ok: false, code: 'not-found' })
    expect(await (await post(url, 'preflight', { citingSessionId: TARGET, text: theirs })).json()).toMatchObject({ ok: false, code: 'out-of-scope' })
    expect(await (await post(url, 'preflight', { citingSessionId: TARGET, text: `compare ${mention(unknownId(7), 'Never')}` })).json()).toMatchObject({ ok: false, code: 'out-of-scope' })
  })

  it('tells a stored log\'s revision and size and a deleted log apart in one look at the file', async () => {
    const { reader } = await coldHost()
    const index = new SessionCatalog(reader.ctx)
    await index.ready()
    const logs = new SessionLogLocator(reader.ctx)
    const header = index.get(id(2))!
    const state = await logs.state(header)
    expect(state).toEqual({ revision: expect.stringMatching(/^\d+:[\d.]+$/), bytes: statSync(logs.path(header)!).size })
    expect(await logs.state({ id: TARGET, cwd: A, createdAt: 0 })).toEqual({ revision: expect.stringMatching(/^live:\d+$/) })
    rmSync(logs.path(header)!)
    expect(await logs.state(header)).toBe('missing')
    expect(await logs.revision(header)).toBeUndefined()
  })

  it('prepares a reference to a stored source without listing the store', async () => {
    const { url, listings } = await coldHost()
    const answer = await (await post(url, 'preflight', { citingSessionId: TARGET, text: `compare ${id(2)}` })).json() as { ok: boolean; sources: { bytes?: number }[] }
    expect(answer.ok).toBe(true)
    expect(answer.sources[0]!.bytes).toBeGreaterThan(0)
    expect(listings()).toBe(0)
  })
})

describe('the first preflight after boot, while the store is still being listed', () => {
  /** The cold host with its first listing held until `release`. */
  async function heldHost(): Promise<{
    reader: HostHarness
    release: () => void
    listings: () => number
    answered: (text: string) => Promise<{ done: boolean; answer: unknown }>
    pending: (text: string) => Promise<{ done: boolean; answer: Promise<unknown> }>
  }> {
    const root = mkdtempSync(join(tmpdir(), 'dsh-sessions-per-id-'))
    roots.push(root)
    const writer = await createHostHarness({ persistenceRoot: root })
    writer.session(id(2), { cwd: A, title: 'Kiwi plans', messages: ['first kiwi note'] })
    writer.session(id(3), { cwd: B, title: 'Plum plans', messages: ['beta only text'] })
    writer.session(id(4), { cwd: A, title: 'Fig plans', messages: ['fig note'] })
    writer.session(id(5), { cwd: A, title: 'Date plans', messages: ['date note'] })
    for (const n of [2, 3, 4, 5]) await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(n)))!)
    const reader = await createHostHarness({ persistenceRoot: root })
    reader.session(TARGET, { cwd: A })
    let release!: () => void
    reader.faults.holdListings = new Promise(resolve => { release = resolve })
    const { url } = await reader.mount()
    // The index's own first listing starts (a candidates request asks for it) and is held; the reads counted come after.
    const list = vi.spyOn(reader.ctx.sessionPersistence, 'list')
    // Its answer is not awaited: the host may be stopped at the test's end before the released listing lets it answer.
    void post(url, 'candidates', { citingSessionId: TARGET }).catch(() => undefined)
    // The store reader lists in its own thread; the harness holds its answer as the query engine's.
    await poll(() => (reader.faults.calls.get('listSessions') ?? 0) > 0, 'the first listing, held')
    const listed = list.mock.calls.length
    /** An answer that does not wait for the held listing resolves; one that waits never does, and the test fails on its time limit. */
    const answered = async (text: string) => ({ done: true, answer: await post(url, 'preflight', { citingSessionId: TARGET, text }).then(res => res.json()) as unknown })
    /**
     * Starts a preflight, then asks one that names no session, which is answered at once, listing or not: once that
     * answer has come, the first would have come too unless it waits for the listing.
     */
    const pending = async (text: string) => {
      let done = false
      const answer = post(url, 'preflight', { citingSessionId: TARGET, text }).then(res => res.json()).finally(() => { done = true })
      await (await post(url, 'preflight', { citingSessionId: TARGET, text: 'a plain question about retries' })).json()
      return { done, answer }
    }
    return { reader, release, listings: () => list.mock.calls.length - listed, answered, pending }
  }

  it('resolves a mention and a bare id from their own logs at once, scope included, without waiting for the listing', async () => {
    const { release, listings, answered } = await heldHost()
    const same = await answered(`compare ${mention(id(2), 'Kiwi')} and ${id(4)}`)
    expect(same.done).toBe(true)
    const answer = await same.answer as { ok: boolean; sources: { sessionId: string; bytes?: number }[] }
    expect(answer.ok).toBe(true)
    expect(answer.sources.map(source => source.sessionId)).toEqual([id(2), id(4)])
    expect(answer.sources[0]!.bytes).toBeGreaterThan(0)
    // Another workspace's session is refused as out of scope, read from its log too, before any listing.
    const other = await answered(`compare ${mention(id(3), 'Plum')}`)
    expect(other.done).toBe(true)
    expect(await other.answer).toMatchObject({ ok: false, code: 'out-of-scope' })
    // An id no log holds is unknown: the mention fails as under a listed index.
    const missing = await answered(`compare ${mention(unknownId(1), 'Nothing')}`)
    expect(missing.done).toBe(true)
    expect(await missing.answer).toMatchObject({ ok: false, code: 'out-of-scope' })
    // Each id cost its one log: no listing of the store, which the query service's own per-id read makes.
    expect(listings()).toBe(0)
    release()
  })

  it('waits for the listing for a text that may hold an @Title, and for one naming more sessions than a text may read', async () => {
    const { release, pending } = await heldHost()
    const titled = await pending(`compare ${mention(id(2), 'Kiwi')} with @Fig plans`)
    const many = await pending(`compare ${id(2)} ${id(4)} ${id(5)}`)
    expect(titled.done).toBe(false)
    expect(many.done).toBe(false)
    release()
    expect(await titled.answer).toMatchObject({ ok: true })
    expect(((await many.answer) as { sources: unknown[] }).sources).toHaveLength(3)
  })
})

describe('one stored log read as the official query service reads it', () => {
  it('gives the same surface and title for every stored session, retitled and multi-turn ones included', async () => {
    const { reader } = await coldHost()
    for (const n of [2, 3]) {
      const sessionId = SessionId(id(n))
      expect(await readStoredSurface(reader.ctx.sessionPersistence, sessionId)).toEqual(await reader.ctx.sessionQuery.readSurface(sessionId))
      expect(await readStoredTitle(reader.ctx.sessionPersistence, sessionId)).toBe((await reader.ctx.sessionQuery.readTitleSnapshot(sessionId)).title?.title)
      const snapshot = await reader.ctx.sessionQuery.readTitleSnapshot(sessionId)
      expect(await readStoredTitleSnapshot(reader.ctx.sessionPersistence, sessionId)).toEqual({ session: snapshot.session, title: snapshot.title?.title })
    }
    expect(await readStoredTitle(reader.ctx.sessionPersistence, SessionId(id(3)))).toBe('Plum plans, renamed')
  })

  it('gives the same surface for every live session, without copying its events', async () => {
    const { writer } = await coldHost()
    writer.turn(id(2), 'a live kiwi question', 'a live kiwi answer')
    for (const n of [2, 3]) {
      const live = writer.ctx.sessions.get(SessionId(id(n)))!
      const surface = readLiveSurface(live)
      expect(surface).toEqual(await writer.ctx.sessionQuery.readSurface(SessionId(id(n))))
      expect(surface.events.every(event => live.events.includes(event))).toBe(true)
    }
  })
})

describe('the first listing without a request', () => {
  it('begins its delay when the host\'s boot has settled, not when the plugin starts', async () => {
    const h = await createHostHarness()
    let settle!: () => void
    h.ctx.provide('loader', { await: () => new Promise<void>(resolve => { settle = resolve }) })
    const listings = () => h.faults.calls.get('listSessions') ?? 0
    // The index's timers on a clock the test moves: 200 ms pass before the boot settles, then 39 more after it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const index = new SessionCatalog(h.ctx, { startAfterMs: 40, startFrom: bootSettled(h.ctx) })
      await vi.advanceTimersByTimeAsync(200)
      expect([index.isListed, listings()]).toEqual([false, 0])
      settle()
      await vi.advanceTimersByTimeAsync(39)
      expect(listings()).toBe(0)
      await vi.advanceTimersByTimeAsync(1)
      vi.useRealTimers()
      await until(async () => index.isListed, listed => listed)
      expect(listings()).toBe(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('reads the settling of the Loader rc.8 boots with through its public await()', async () => {
    const { Loader } = await import('@deepseek-ai/cordis-plugin-loader')
    expect(typeof Loader.prototype.await).toBe('function')
  })

  it('counts a context without a Loader as settled at once', async () => {
    const h = await createHostHarness()
    const index = new SessionCatalog(h.ctx, { startAfterMs: 10, startFrom: bootSettled(h.ctx) })
    await until(async () => index.isListed, listed => listed)
  })
})
