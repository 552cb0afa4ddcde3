/**
 * Sessions another process writes are found within seconds, without a
 * listing of the store: a new session by its title, its words and its id, a
 * grown log by its new words, a deleted one dropped, and in a store whose
 * folder did not exist when the plugin started. The watches stay bounded, a burst is taken in
 * the order it was noticed with bounded work, and its overflow is left to one
 * listing. In-process hosts on one real JSONL store, the writer standing for
 * a terminal `dsh`.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import { CatalogArrivals, MAX_WAITING } from '../../src/host/sessions/catalog-arrivals.ts'
import { CatalogEntries } from '../../src/host/sessions/catalog-entries.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { SESSION_WATCHES, StoreWatcher, storeRoot } from '../../src/host/sessions/store-watcher.ts'
import { SessionLogLocator } from '../../src/host/search/log-locator.ts'
import { A, afterTest, B, createHostHarness, id, post, TARGET, temporaryFolder } from './harness.ts'
import { until } from '../wait.ts'

interface Candidate {
  readonly sessionId: string
  readonly label: string
  readonly snippet?: { readonly text: string }
}

async function candidates(url: string, query: string): Promise<readonly Candidate[]> {
  const response = await post(url, 'candidates', { citingSessionId: TARGET, query })
  expect(response.status).toBe(200)
  return ((await response.json()) as { candidates: Candidate[] }).candidates
}

/** A reading host mounted on the store, listed once; and a writer on the same store, as another process. */
async function twoProcesses() {
  const root = temporaryFolder('dsh-sessions-watch-')
  const writer = await createHostHarness({ persistenceRoot: root })
  writer.session(id(2), { cwd: A, title: 'Kiwi plans', messages: ['an early note'] })
  await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(2)))!)
  const reader = await createHostHarness({ persistenceRoot: root })
  reader.session(TARGET, { cwd: A })
  const { url } = await reader.mount({ scope: 'all' })
  await until(async () => (await candidates(url, 'kiwi')).length === 1, 'the first listing', 10_000)
  return { root, writer, reader, url }
}

describe('sessions another process writes', () => {
  it('are found by title, words and id within 5 s, and a grown log by its new words, with no further listing', async () => {
    const { writer, reader, url } = await twoProcesses()
    const listings = reader.faults.calls.get('listSessions')
    const started = Date.now()
    // A new workspace's folder too: its session is found though the folder did not exist when the watches began.
    writer.session(id(3), { cwd: B, title: 'Terminal zephyr', messages: ['the quokka rollout'] })
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(3)))!)
    await until(async () => (await candidates(url, 'zephyr')).some(c => c.sessionId === id(3)), 'the title', 5_000)
    await until(async () => (await candidates(url, 'quokka')).some(c => c.sessionId === id(3) && c.snippet !== undefined), 'the words', 5_000)
    expect(Date.now() - started).toBeLessThan(5_000)
    const preflight = await (await post(url, 'preflight', { citingSessionId: TARGET, text: `look at ${id(3)}` })).json() as { ok: boolean }
    expect(preflight.ok).toBe(true)
    writer.turn(id(3), 'now the wombat migration', 'ok')
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(3)))!)
    await until(async () => (await candidates(url, 'wombat')).some(c => c.sessionId === id(3) && c.snippet !== undefined), 'the grown log', 5_000)
    expect(reader.faults.calls.get('listSessions')).toBe(listings)
  })

  it('drop a session whose folder another process deleted, with no listing', async () => {
    const { root, writer, reader, url } = await twoProcesses()
    const listings = reader.faults.calls.get('listSessions')
    writer.session(id(3), { cwd: A, title: 'Doomed plum', messages: ['short lived'] })
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(3)))!)
    await until(async () => (await candidates(url, 'doomed')).length === 1, 'the new session', 5_000)
    const log = new SessionLogLocator(writer.ctx).path({ id: id(3), cwd: A, createdAt: 0 })!
    expect(log.startsWith(root)).toBe(true)
    rmSync(dirname(log), { recursive: true, force: true })
    await until(async () => (await candidates(url, 'doomed')).length === 0, 'the deleted session gone', 5_000)
    expect(reader.faults.calls.get('listSessions')).toBe(listings)
  })

  it('are found in a store that had no folder when the plugin started, once this process has written its first session', async () => {
    const root = join(temporaryFolder('dsh-sessions-new-store-'), 'sessions')
    const reader = await createHostHarness({ persistenceRoot: root })
    reader.session(TARGET, { cwd: A })
    const { url } = await reader.mount({ scope: 'all' })
    await until(async () => (await post(url, 'candidates', { citingSessionId: TARGET, query: '' })).status === 200, 'the first listing', 10_000)
    expect(existsSync(root)).toBe(false)
    reader.turn(TARGET, 'our first words', 'ok')
    await reader.ctx.sessions.flush(reader.ctx.sessions.get(SessionId(TARGET))!)
    expect(existsSync(root)).toBe(true)
    const writer = await createHostHarness({ persistenceRoot: root })
    writer.session(id(3), { cwd: A, title: 'Terminal fig', messages: ['from the terminal'] })
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(3)))!)
    await until(async () => (await candidates(url, 'terminal fig')).some(c => c.sessionId === id(3)), 'the other process\'s session', 5_000)
  })

  it('leaves sessions of its own process to the host\'s events', async () => {
    const root = temporaryFolder('dsh-sessions-own-')
    const writer = await createHostHarness({ persistenceRoot: root })
    const reader = await createHostHarness({ persistenceRoot: root })
    const catalog = new SessionCatalog(reader.ctx, { arrivalMs: 0 })
    await catalog.ready()
    const announced: string[] = []
    catalog.onStoredChange(session => announced.push(session))
    await until(() => catalog.catalogStatus().watched > 0, 'the watches', 5_000)
    reader.session(id(4), { cwd: A, title: 'Own papaya', messages: ['our own words'] })
    await reader.ctx.sessions.flush(reader.ctx.sessions.get(SessionId(id(4)))!)
    reader.turn(id(4), 'more of our own words', 'ok')
    await reader.ctx.sessions.flush(reader.ctx.sessions.get(SessionId(id(4)))!)
    writer.session(id(5), { cwd: A, title: 'Their plum', messages: ['their words'] })
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(5)))!)
    await until(() => announced.includes(id(5)), 'the other process\'s session', 5_000)
    expect(announced).not.toContain(id(4))
  })
})

describe('the store\'s watches', () => {
  it('name the rc.8 store\'s folder from the path its persistence locates', async () => {
    const root = temporaryFolder('dsh-sessions-root-')
    const h = await createHostHarness({ persistenceRoot: root })
    const log = new SessionLogLocator(h.ctx).path({ id: id(7), cwd: A, createdAt: 0 })!
    expect(storeRoot(log, id(7))).toBe(root)
    expect(storeRoot(join(root, 'elsewhere', 'session.jsonl.zstd'), id(7))).toBeUndefined()
  })

  it('watch at most the newest session folders, and notice each new one in a burst', async () => {
    const root = temporaryFolder('dsh-sessions-burst-')
    mkdirSync(join(root, 'workspace'), { recursive: true })
    const noticed: string[] = []
    const watcher = new StoreWatcher(root, name => noticed.push(name), error => { throw error })
    afterTest(() => watcher.stop())
    await watcher.start()
    const ids = Array.from({ length: 300 }, (_, n) => id(100 + n))
    for (const session of ids) mkdirSync(join(root, 'workspace', session))
    await until(() => new Set(noticed).size === ids.length, 'every new folder', 5_000)
    expect([...new Set(noticed)]).toEqual(ids)
    expect(watcher.watched).toBe(1 + 1 + SESSION_WATCHES)
    // A log written in a followed folder names its session; one in a folder let go does not.
    noticed.length = 0
    writeFileSync(join(root, 'workspace', ids.at(-1)!, 'session.jsonl.zstd'), 'x')
    writeFileSync(join(root, 'workspace', ids[0]!, 'session.jsonl.zstd'), 'x')
    await until(() => noticed.includes(ids.at(-1)!), 'the followed log', 5_000)
    expect(noticed).not.toContain(ids[0])
  })

  it('take a burst in the order noticed, one log each, and leave an overflow to one listing', async () => {
    const entries = new CatalogEntries()
    const read: string[] = []
    const changed: string[] = []
    let relists = 0
    const persistence = {
      inspect: (session: string) => {
        read.push(session)
        return Promise.resolve({ meta: { id: session, cwd: A, createdAt: read.length }, events: [] })
      },
    }
    const ctx = { sessions: { get: () => undefined }, get: () => persistence } as unknown as Context
    const arrivals = new CatalogArrivals(ctx, { entries, signal: new AbortController().signal, relist: () => { relists += 1 }, remove: () => undefined, changed: session => changed.push(session) }, 0)
    const ids = Array.from({ length: MAX_WAITING + 500 }, (_, n) => id(1_000 + n))
    for (const session of ids) arrivals.noticed(session)
    for (const session of ids.slice(0, 10)) arrivals.noticed(session)
    await until(() => relists === 1, 'the overflow\'s listing', 10_000)
    expect(read).toEqual(ids.slice(0, MAX_WAITING))
    expect(changed).toEqual(ids.slice(0, MAX_WAITING))
    expect(entries.list().length).toBe(MAX_WAITING)
    // A session already cataloged is announced again without a read.
    arrivals.noticed(ids[0]!)
    await until(() => changed.length === MAX_WAITING + 1, 'the second notice', 5_000)
    expect(read).toHaveLength(MAX_WAITING)
  })
})
