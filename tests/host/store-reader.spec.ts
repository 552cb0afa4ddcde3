/**
 * The store reader, on the host's JSONL backend: its thread lists what the
 * host's own persistence service lists, and reads a long log's tail as the
 * host's thread would (the same tail, byte for byte); the session catalog
 * lists through it without the host listing, and a kept tail is made by it;
 * reads of one revision are shared; an idle thread stops and starts again;
 * where the host persists nothing, or the thread cannot start, it answers
 * `undefined` and the host's thread serves.
 */
import { randomBytes } from 'node:crypto'
import { SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it, vi } from 'vitest'
import { readStoredSurface } from '../../src/host/official/session-query.ts'
import { StoreReader } from '../../src/host/reader/store-reader.ts'
import { tailOf } from '../../src/host/references/retention.ts'
import { SnapshotTails } from '../../src/host/references/snapshot-tails.ts'
import { SessionLogLocator } from '../../src/host/search/log-locator.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { WorkerThread } from '../../src/host/worker-thread.ts'
import { A, B, createHostHarness, type HostHarness, id, TARGET, temporaryFolder } from './harness.ts'
import { until } from '../wait.ts'

const LONG = id(2)
const OTHER = id(3)

const noise = (n: number): string => `${n} 笔记 ${randomBytes(300).toString('base64')} <x>`

/** Sessions written by one host, then a second host on the same folder, where they are cold (one live there too). */
async function coldHost(): Promise<{ reader: HostHarness; root: string }> {
  const root = temporaryFolder('dsh-sessions-reader-')
  const writer = await createHostHarness({ persistenceRoot: root })
  writer.session(LONG, { cwd: A, title: 'Long kiwi notes', messages: ['the first kiwi note'] })
  for (let n = 0; n < 60; n += 1) writer.turn(LONG, `question ${noise(n)}`, `answer ${noise(n)}`)
  writer.session(OTHER, { cwd: B, title: 'Plum notes', messages: ['one plum note'] })
  for (const session of [LONG, OTHER]) await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(session))!)
  const reader = await createHostHarness({ persistenceRoot: root })
  reader.session(TARGET, { cwd: A })
  return { reader, root }
}

describe('the store reader', () => {
  it('lists in its thread what the host\'s persistence service lists, and reads a tail the host\'s thread would read, byte for byte', { timeout: 60_000 }, async () => {
    const { reader } = await coldHost()
    const store = new StoreReader(reader.ctx)
    const listed = await store.list()
    const expected = await reader.ctx.sessionPersistence.list()
    expect(listed?.map(header => header.id).sort()).toEqual([LONG, OTHER])
    expect([...listed!].sort((a, b) => a.id.localeCompare(b.id))).toEqual([...expected].sort((a, b) => a.id.localeCompare(b.id)))

    const revision = await new SessionLogLocator(reader.ctx).revision({ id: LONG, cwd: A, createdAt: listed!.find(header => header.id === LONG)!.createdAt })
    const tail = await store.tail(LONG, revision!, 8_000)
    const onHost = tailOf(await readStoredSurface(reader.ctx.sessionPersistence, SessionId(LONG)), 8_000)
    expect(JSON.stringify(tail)).toBe(JSON.stringify(onHost))
    expect(tail!.leftOut.messages).toBeGreaterThan(50)
    expect(store.status()).toEqual({ listings: 1, tails: 1 })
  })

  it('serves the catalog\'s listing and the kept tail off the host\'s thread, and shares reads of one revision', { timeout: 60_000 }, async () => {
    const { reader } = await coldHost()
    const store = new StoreReader(reader.ctx)
    const hostList = vi.spyOn(reader.ctx.sessionPersistence, 'list')
    const hostInspect = vi.spyOn(reader.ctx.sessionPersistence, 'inspect')
    const catalog = new SessionCatalog(reader.ctx, { store })
    await catalog.ready()
    expect(catalog.list().map(session => session.id).sort()).toEqual([TARGET, LONG, OTHER].sort())
    expect(catalog.get(OTHER)).toMatchObject({ cwd: B })
    expect(hostList).not.toHaveBeenCalled()

    const logs = new SessionLogLocator(reader.ctx)
    const tails = new SnapshotTails(reader.ctx, { catalog, logs }, { dir: temporaryFolder('dsh-sessions-reader-tails-'), fromLogBytes: 1, reader: store })
    const state = await logs.state(catalog.get(LONG)!)
    if (typeof state === 'string') throw new Error('no log state')
    const calls = vi.spyOn(WorkerThread.prototype, 'call')
    await Promise.all([tails.keep(catalog.get(LONG)!, state.revision), store.tail(LONG, state.revision, 65_536)])
    expect(calls.mock.calls.filter(([call]) => call === 'tail')).toHaveLength(1)
    expect(await tails.read(LONG, state.revision, 65_536)).toMatchObject({ surface: { session: { id: LONG } } })
    expect(hostInspect).not.toHaveBeenCalled()
    calls.mockRestore()
  })

  it('stops its thread once idle and starts it again at the next call', { timeout: 60_000 }, async () => {
    const { reader } = await coldHost()
    const store = new StoreReader(reader.ctx, { idleStopMs: 20 })
    const stop = vi.spyOn(WorkerThread.prototype, 'stop')
    expect(await store.list()).toHaveLength(2)
    await until(() => stop.mock.calls.length === 1, 'the idle thread stopped', 10_000)
    expect(await store.list()).toHaveLength(2)
    expect(store.status()).toEqual({ listings: 2, tails: 0 })
    stop.mockRestore()
  })

  it('answers undefined where the host persists nothing, or once its thread failed, so the host\'s thread serves', { timeout: 60_000 }, async () => {
    const memory = await createHostHarness()
    memory.session(TARGET, { cwd: A })
    expect(await new StoreReader(memory.ctx).list()).toBeUndefined()

    const { reader } = await coldHost()
    const broken = new StoreReader(reader.ctx, { module: new URL('./fixtures/failing-thread.ts', import.meta.url) })
    expect(await broken.list()).toBeUndefined()
    await until(() => broken.status().failure !== undefined, 'the failure recorded', 10_000)
    expect(await broken.tail(LONG, '1:1', 65_536)).toBeUndefined()
    // The catalog lists through the host then.
    const catalog = new SessionCatalog(reader.ctx, { store: broken })
    await catalog.ready()
    expect(catalog.list().map(session => session.id).sort()).toEqual([TARGET, LONG, OTHER].sort())
  })
})
