/** Bounded work per text, loopback-only settings writes, and an index that survives storage faults, on a real cordis context. */
import { request } from 'node:http'
import { SessionQueryError } from '@deepseek-ai/dsh-session-query'
import { formatSessionReferenceMention } from '@deepseek-ai/dsh-session-reference'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it, vi } from 'vitest'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { ContentSearch } from '../../src/host/search/content-search.ts'
import { SessionLogLocator } from '../../src/host/search/log-locator.ts'
import { hostileTexts, QUADRATIC_KINDS } from '../../dev/hostile-texts.ts'
import { A, createHostHarness, type HostHarness, id, PATHOLOGICAL, post, TARGET, texts, unknownId } from './harness.ts'
import { until } from '../wait.ts'

async function setup(config: Record<string, unknown> = {}, before?: (h: HostHarness) => void): Promise<{ h: HostHarness; url: string }> {
  const h = await createHostHarness()
  h.session(TARGET, { cwd: A })
  h.session(id(2), { cwd: A, title: 'Alpha notes', messages: ['alpha text'] })
  before?.(h)
  const { url } = await h.mount(config)
  return { h, url }
}

async function candidateIds(url: string): Promise<string[]> {
  const res = await post(url, 'candidates', { citingSessionId: TARGET })
  return ((await res.json()) as { candidates: { sessionId: string }[] }).candidates.map(c => c.sessionId)
}

function storageReads(h: HostHarness): number {
  return [...h.faults.calls].filter(([key]) => key.startsWith('readTitleSnapshot:')).reduce((sum, [, n]) => sum + n, 0)
}

/** The hostile texts that name unknown sessions (the quadratic kinds have their own test). */
const namingTexts = (): [string, string][] => Object.entries(hostileTexts()).filter(([kind]) => !(QUADRATIC_KINDS as readonly string[]).includes(kind))

const waitFor = (check: () => Promise<boolean>, ms: number): Promise<void> => until(check, `the condition within ${ms} ms`, ms, 50)

describe('bounded work per text', () => {
  it.each(Object.entries(PATHOLOGICAL))('resolves %s in linear time at the route and at the step, the official step included', async (_, text) => {
    const { h, url } = await setup()
    await post(url, 'candidates', { citingSessionId: TARGET })
    const started = performance.now()
    const res = await post(url, 'preflight', { citingSessionId: TARGET, text })
    // A quadratic scan takes seconds on each of these.
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ ok: true })
    const stepStarted = performance.now()
    const decision = await h.preStep(TARGET, [text])
    expect(performance.now() - stepStarted).toBeLessThan(1_000)
    expect(decision.kind).toBe('enter')
    // The model reads the same characters, with at most invisible word joiners between them.
    expect(texts(decision).map(message => message.text.replaceAll('\u2060', ''))).toEqual([text])
  })

  it.each(namingTexts())('resolves a 64 KiB text (%s) without storage reads once the index is listed', async (_, text) => {
    const { h, url } = await setup()
    await post(url, 'candidates', { citingSessionId: TARGET })
    const before = storageReads(h)
    const started = performance.now()
    const res = await post(url, 'preflight', { citingSessionId: TARGET, text })
    const elapsed = performance.now() - started
    expect(res.status).toBe(200)
    expect(storageReads(h)).toBe(before)
    expect(elapsed).toBeLessThan(2_000)
    const body = await res.json() as { ok: boolean; code?: string }
    if (text.includes('(dsh-session:')) {
      expect(body).toMatchObject({ ok: false, code: 'too-many' })
      // The answer lists a bounded number of sources and counts the rest.
      const listed = body as unknown as { sources: unknown[]; omitted: number }
      expect(listed.sources).toHaveLength(32)
      expect(listed.omitted).toBeGreaterThan(500)
    }
    else expect(body.ok).toBe(true)
    const stepStarted = performance.now()
    const decision = await h.preStep(TARGET, [text])
    expect(performance.now() - stepStarted).toBeLessThan(2_000)
    expect(decision.kind).toBe('enter')
    expect(storageReads(h)).toBe(before)
  })

  it('reports a failure once per session however often the text names it', async () => {
    const { url } = await setup()
    const mention = formatSessionReferenceMention({ sessionId: unknownId(1) as never, label: 'gone' })
    const res = await post(url, 'preflight', { citingSessionId: TARGET, text: `${mention} ${mention} ${mention}` })
    expect(await res.json()).toMatchObject({ ok: false, code: 'out-of-scope', sessionId: unknownId(1), sources: [{ sessionId: unknownId(1) }] })
  })

  it('spends at most a few storage reads per text before the first listing, and remembers misses', async () => {
    const { h, url } = await setup({}, harness => { harness.faults.failListings = 1_000 })
    const text = Array.from({ length: 200 }, (_, n) => unknownId(n)).join(' ')
    await post(url, 'preflight', { citingSessionId: TARGET, text })
    expect(storageReads(h)).toBeLessThanOrEqual(2)
    expect(storageReads(h)).toBeGreaterThan(0)
    const after = storageReads(h)
    await post(url, 'preflight', { citingSessionId: TARGET, text: `${unknownId(0)} ${unknownId(1)}` })
    expect(storageReads(h)).toBe(after)
  })
})

describe('index faults', () => {
  it('retries a failed first listing within seconds instead of waiting for the reconciliation', async () => {
    const { h, url } = await setup({}, harness => { harness.faults.failListings = 2 })
    expect(await candidateIds(url)).toEqual([])
    await waitFor(async () => (await candidateIds(url)).includes(id(2)), 5_000)
    expect(h.faults.calls.get('listSessions')).toBe(3)
  })

  it('keeps a session after a read error and drops it when the host says it is gone', async () => {
    const { h, url } = await setup()
    expect(await candidateIds(url)).toEqual([id(2)])
    const index = new SessionCatalog(h.ctx)
    await index.ready()
    h.faults.readErrors.set(id(2), [new Error('EIO: injected'), new SessionQueryError('gone', 'SESSION_QUERY_SESSION_NOT_FOUND')])
    expect((await index.refresh(id(2)))?.id).toBe(id(2))
    expect(index.get(id(2))?.label).toBe('Alpha notes')
    expect(await index.refresh(id(2))).toBeUndefined()
    expect(index.get(id(2))).toBeUndefined()
  })

  it('keeps every source of a message whose prepare hit a read error', async () => {
    // A stored session whose log cannot be read (a live one is read from memory).
    const { h, url } = await setup({}, harness => { harness.faults.cold.set(id(4), { cwd: A, createdAt: 5, title: 'Cold notes' }) })
    expect(await candidateIds(url)).toContain(id(4))
    h.breakLog(id(4))
    h.faults.readErrors.set(id(4), [new Error('EIO: injected')])
    const res = await post(url, 'preflight', { citingSessionId: TARGET, text: id(4) })
    expect(await res.json()).toMatchObject({ ok: false, code: 'not-found' })
    expect(await candidateIds(url)).toEqual(expect.arrayContaining([id(2), id(4)]))
  })

  it('keeps a session that went live during a listing, after the listing ends', async () => {
    const h = await createHostHarness()
    h.session(TARGET, { cwd: A })
    let release!: () => void
    const held = new Promise<void>(resolve => { release = resolve })
    const index = new SessionCatalog(h.ctx, { reconcileMs: 200 })
    await index.ready()
    h.faults.holdListings = held
    const listings = h.faults.calls.get('listSessions') ?? 0
    // The periodic listing starts, lists, then waits.
    await waitFor(async () => (h.faults.calls.get('listSessions') ?? 0) > listings, 2_000)
    // Meanwhile a session is created, gets a message and is detached, as a finished headless run is.
    const session = h.ctx.sessions.prepare(SessionId(id(9)), { meta: { cwd: A, createdAt: 50 } })
    const detach = h.ctx.sessions.enter(session)
    h.ctx.sessions.announce(session)
    session.append('user/message', createUserMessage({ content: [{ type: 'text', text: 'born during the listing' }], source: { kind: 'user' } }), { surfaceOp: 'append' })
    detach()
    expect(h.ctx.sessions.get(SessionId(id(9)))).toBeUndefined()
    expect(index.get(id(9))?.id).toBe(id(9))
    // The held listing has merged once the index tells its listeners so.
    const merged = new Promise<void>(resolve => { const off = index.onListed(() => { off(); resolve() }) })
    h.faults.holdListings = undefined
    release()
    await merged
    expect(index.get(id(9))?.id).toBe(id(9))
    expect(await index.lookup(id(9))).toBeDefined()
  })

  it('starts no second listing from the timer while one is in flight, so an older listing never finishes last', async () => {
    const h = await createHostHarness()
    h.session(TARGET, { cwd: A })
    // The index's periodic timer runs on a clock the test moves, a period at a time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const index = new SessionCatalog(h.ctx, { reconcileMs: 20 })
      await index.ready()
      let release!: () => void
      h.faults.holdListings = new Promise(resolve => { release = resolve })
      const before = h.faults.calls.get('listSessions') ?? 0
      await vi.advanceTimersByTimeAsync(20)
      await waitFor(async () => (h.faults.calls.get('listSessions') ?? 0) > before, 2_000)
      // Ten timer periods pass while the listing waits: none starts another.
      await vi.advanceTimersByTimeAsync(200)
      expect(h.faults.calls.get('listSessions')).toBe(before + 1)
      // Released, it finishes, and the timer's listings follow it one at a time.
      h.faults.holdListings = undefined
      release()
      await waitFor(async () => {
        await vi.advanceTimersByTimeAsync(20)
        return (h.faults.calls.get('listSessions') ?? 0) >= before + 3
      }, 2_000)
      expect(index.get(TARGET)?.id).toBe(TARGET)
    } finally {
      vi.useRealTimers()
    }
  })

  it('keeps a live session that is not on disk yet across listings that do not include it', async () => {
    const h = await createHostHarness()
    h.session(TARGET, { cwd: A })
    const index = new SessionCatalog(h.ctx, { reconcileMs: 20 })
    await index.ready()
    const listSessions = h.ctx.sessionQuery.listSessions.bind(h.ctx.sessionQuery)
    // The store's listing does not know the session yet; only the host's live sessions do.
    h.ctx.sessionQuery.listSessions = async signal => (await listSessions(signal)).filter(record => record.header.id !== id(7))
    h.session(id(7), { cwd: A, title: 'Not written yet', messages: ['fresh'] })
    const before = h.faults.calls.get('listSessions') ?? 0
    await waitFor(async () => (h.faults.calls.get('listSessions') ?? 0) >= before + 3, 2_000)
    expect(index.get(id(7))?.label).toBe('Not written yet')
  })

  it('leaves no abort listener behind per failed listing while it retries', async () => {
    const live = new Map<EventTarget, number>()
    const add = EventTarget.prototype.addEventListener
    const remove = EventTarget.prototype.removeEventListener
    EventTarget.prototype.addEventListener = function (this: EventTarget, ...args: Parameters<typeof add>) {
      if (args[0] === 'abort' && this instanceof AbortSignal) live.set(this, (live.get(this) ?? 0) + 1)
      return add.apply(this, args)
    }
    EventTarget.prototype.removeEventListener = function (this: EventTarget, ...args: Parameters<typeof remove>) {
      if (args[0] === 'abort' && this instanceof AbortSignal) live.set(this, (live.get(this) ?? 0) - 1)
      return remove.apply(this, args)
    }
    try {
      const h = await createHostHarness()
      h.session(TARGET, { cwd: A })
      h.faults.failListings = 1_000
      const index = new SessionCatalog(h.ctx, { retryMs: 1, reconcileMs: 3_600_000 })
      await index.ready()
      // Doubling from 1 ms: 1 + 2 + 4 + … reaches 8 attempts in about a quarter of a second.
      await waitFor(async () => (h.faults.calls.get('listSessions') ?? 0) >= 8, 5_000)
      const most = Math.max(...live.values())
      expect(most).toBeLessThanOrEqual(2)
    } finally {
      EventTarget.prototype.addEventListener = add
      EventTarget.prototype.removeEventListener = remove
    }
  })

  it('reads an untitled cold log for its title once, not at every reconciliation', async () => {
    const h = await createHostHarness()
    h.session(TARGET, { cwd: A })
    h.faults.cold.set(id(8), { cwd: A, createdAt: 5 })
    h.faults.cold.set(id(9), { cwd: A, createdAt: 6, title: 'Cold title' })
    const index = new SessionCatalog(h.ctx, { reconcileMs: 40 })
    new ContentSearch(h.ctx, { catalog: index, logs: new SessionLogLocator(h.ctx) })
    await index.ready()
    // The pass starts once the worker has opened its index; then four more reconciliations must read no title again.
    await waitFor(async () => h.faults.calls.has(`readTitle:${id(8)}`) && h.faults.calls.has(`readTitle:${id(9)}`), 3_000)
    const listed = h.faults.calls.get('listSessions') ?? 0
    await waitFor(async () => (h.faults.calls.get('listSessions') ?? 0) >= listed + 4, 3_000)
    expect(h.faults.calls.get(`readTitle:${id(8)}`)).toBe(1)
    expect(h.faults.calls.get(`readTitle:${id(9)}`)).toBe(1)
    expect(index.get(id(9))?.label).toBe('Cold title')
    expect(index.get(id(8))?.label).toBe(id(8))
  })
})

describe('settings write authority', () => {
  function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<number> {
    const { port } = new URL(url)
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/dsh-sessions/settings', method, headers }, res => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end(body)
    })
  }

  it('serves reads to a trusted host but writes to loopback only, and refuses *.localhost', async () => {
    const { h, url } = await setup()
    h.ctx.provide('webRuntime', { lanAddresses: [], trustedHosts: ['box.lan'] } as never)
    const port = new URL(url).port
    const json = { 'content-type': 'application/json' }
    expect(await raw(url, 'GET', { host: `box.lan:${port}` })).toBe(200)
    expect(await raw(url, 'POST', { ...json, host: `box.lan:${port}` }, '{"scope":"all"}')).toBe(403)
    expect(await raw(url, 'POST', { ...json, host: `127.0.0.1:${port}` }, '{"scope":"all"}')).toBe(200)
    expect(await raw(url, 'GET', { host: `app.localhost:${port}` })).toBe(403)
    expect(await raw(url, 'POST', { ...json, host: `app.localhost:${port}` }, '{}')).toBe(403)
    expect(h.persisted()).toHaveLength(1)
  })
})

describe('the first preflight after boot', () => {
  it('lists candidates and a source\'s messages right after boot, a live draft asking, from the first listing', async () => {
    let release!: () => void
    const { h, url } = await setup({}, harness => {
      harness.faults.cold.set(id(4), { cwd: A, createdAt: 5, title: 'Cold notes' })
      harness.faults.holdListings = new Promise(resolve => { release = resolve })
    })
    const messages = post(url, 'messages', { citingSessionId: TARGET, sourceId: id(2) })
    const candidates = candidateIds(url)
    // The requests started the first listing, so both are waiting on it when it is released.
    await waitFor(async () => (h.faults.calls.get('listSessions') ?? 0) > 0, 2_000)
    h.faults.holdListings = undefined
    release()
    const listed = await messages
    expect(listed.status).toBe(200)
    expect(await listed.json()).toMatchObject({ sessionId: id(2), total: 1 })
    expect(await candidates).toEqual(expect.arrayContaining([id(2), id(4)]))
  })

  it('answers a live draft whose text names no session while the first listing of the store is still under way, and waits for it only for a text that may name one', async () => {
    let release!: () => void
    const { h, url } = await setup({}, harness => {
      harness.faults.holdListings = new Promise(resolve => { release = resolve })
    })
    let titled: unknown
    // An `@Title` needs the titles in scope, which only the listing gives: this one starts the listing and waits for it.
    const pending = post(url, 'preflight', { citingSessionId: TARGET, text: 'compare @Alpha notes please' }).then(async res => { titled = await res.json() })
    await waitFor(async () => (h.faults.calls.get('listSessions') ?? 0) > 0, 2_000)
    const plain = await post(url, 'preflight', { citingSessionId: TARGET, text: 'just a question about retries' })
    expect(plain.status).toBe(200)
    expect(await plain.json()).toMatchObject({ ok: true })
    expect(titled).toBeUndefined()
    h.faults.holdListings = undefined
    release()
    await pending
    expect(titled).toMatchObject({ ok: true })
  })
})
