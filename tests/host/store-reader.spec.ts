/**
 * The store reader, on the host's JSONL backend: its thread lists what the
 * host's own persistence service lists, and reads a long log's tail as the
 * host's thread would (the same tail, byte for byte); the session catalog
 * lists through it without the host listing, and a kept tail is made by it;
 * a whole-session snapshot of a long log whose tail is not kept is read in it;
 * its service takes the host's check of the store's encoding instead of
 * looking over every session folder again;
 * reads of one revision are shared; an idle thread stops, and a thread that
 * listed stops at once, and starts again; nothing read is kept between calls;
 * where the host persists nothing, or the thread cannot start, it answers
 * `undefined` and the host's thread serves.
 */
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it, vi } from 'vitest'
import { readStoredSurface } from '../../src/host/official/session-query.ts'
import { encodingChecked } from '../../src/host/official/store-encoding.ts'
import { StoreReader } from '../../src/host/reader/store-reader.ts'
import { tailOf } from '../../src/host/references/retention.ts'
import { SnapshotPreparer } from '../../src/host/references/snapshot-preparer.ts'
import { SnapshotTails } from '../../src/host/references/snapshot-tails.ts'
import { SurfaceCache } from '../../src/host/references/surface-cache.ts'
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

  it('reads a long log\'s tail for a whole-session snapshot in its thread when none is kept: the snapshot the host\'s thread makes from the log, under any label; a short log is read on the host\'s thread', { timeout: 60_000 }, async () => {
    const { reader } = await coldHost()
    const store = new StoreReader(reader.ctx)
    const catalog = new SessionCatalog(reader.ctx)
    await catalog.ready()
    const logs = new SessionLogLocator(reader.ctx)
    // The log counts as long from 1 byte: the reader reads its tail. Then from past its size: the host's thread reads it, sooner than a thread starts.
    let long = 1
    const snapshotWith = async (withReader: boolean, label: string | undefined) => {
      const tails = new SnapshotTails(reader.ctx, { catalog, logs }, { dir: temporaryFolder('dsh-sessions-reader-tails-'), fromLogBytes: long, ...(withReader ? { reader: store } : {}) })
      const cache = new SurfaceCache(reader.ctx, catalog, { tails, ...(withReader ? { reader: store } : {}) })
      const preparer = new SnapshotPreparer(reader.ctx, { cache, catalog })
      const attachment = await preparer.attach({ id: TARGET, cwd: A }, { content: [], references: [{ sessionId: SessionId(LONG), ...(label === undefined ? {} : { label }) }] })
      const context = attachment.prepared!.additionalContext!
      const block = context.content[0]!
      return { text: block.type === 'text' ? block.text : '', source: context.source }
    }
    const inspect = vi.spyOn(reader.ctx.sessionPersistence, 'inspect')
    for (const label of [undefined, 'Kiwi', '界'.repeat(300)]) {
      const onHost = await snapshotWith(false, label)
      inspect.mockClear()
      const inThread = await snapshotWith(true, label)
      expect(inThread.text).toBe(onHost.text)
      expect(inThread.source).toEqual(onHost.source)
      expect(inspect).not.toHaveBeenCalled()
    }
    // One read in the thread: the tail of that revision serves the snapshots after it.
    expect(store.status().tails).toBe(1)
    long = 2 ** 40
    const short = await snapshotWith(true, 'Kiwi')
    expect(inspect).toHaveBeenCalled()
    expect(short.text).toBe((await snapshotWith(false, 'Kiwi')).text)
    expect(store.status().tails).toBe(1)
  })

  it('takes the host\'s check of the store\'s encoding, which rc.8\'s service makes once, instead of looking over every session folder again', { timeout: 60_000 }, async () => {
    const { reader, root } = await coldHost()
    const host = reader.ctx.sessionPersistence
    if (!(host instanceof JsonlSessionPersistence)) throw new Error('not the JSONL backend')
    await host.list()
    expect(await encodingChecked(host)).toBe(true)
    // A log of the other encoding appears in another session's folder after the host's check.
    const log = host.locate(await host.list().then(headers => headers.find(header => header.id === OTHER)!)).path
    writeFileSync(join(dirname(log), basename(log).endsWith('.zstd') ? 'session.jsonl' : 'session.jsonl.zstd'), '')
    // A service of its own checks once, at its first read, and refuses the store.
    const ctx = new Context()
    await ctx.plugin(SessionStore)
    await ctx.plugin(JsonlSessionPersistence, { root, ...(host.config.compression === undefined ? {} : { compression: host.config.compression }) })
    await expect(ctx.get('sessionPersistence')!.inspect(SessionId(LONG))).rejects.toThrow(/compression/)
    // The host's own service does not look again; nor does the reader's, which took its check.
    const revision = await new SessionLogLocator(reader.ctx).revision({ id: LONG, cwd: A, createdAt: Date.now() })
    const onHost = tailOf(await readStoredSurface(host, SessionId(LONG)), 8_000)
    expect(JSON.stringify(await new StoreReader(reader.ctx).tail(LONG, revision!, 8_000))).toBe(JSON.stringify(onHost))
  })

  it('stops its thread once idle after a tail, at once after a listing, and starts it again at the next call', { timeout: 60_000 }, async () => {
    const { reader } = await coldHost()
    const store = new StoreReader(reader.ctx, { idleStopMs: 60_000 })
    const stop = vi.spyOn(WorkerThread.prototype, 'stop')
    expect(await store.list()).toHaveLength(2)
    expect(stop).toHaveBeenCalledTimes(1)
    const revision = await new SessionLogLocator(reader.ctx).revision({ id: LONG, cwd: A, createdAt: Date.now() })
    expect(await store.tail(LONG, revision!, 8_000)).toBeDefined()
    expect(stop).toHaveBeenCalledTimes(1)
    const quick = new StoreReader(reader.ctx, { idleStopMs: 20 })
    expect(await quick.tail(LONG, revision!, 8_000)).toBeDefined()
    await until(() => stop.mock.calls.length === 2, 'the idle thread stopped', 10_000)
    expect(await quick.tail(LONG, revision!, 9_000)).toBeDefined()
    expect(await store.list()).toHaveLength(2)
    expect(store.status()).toEqual({ listings: 2, tails: 1 })
    expect(quick.status()).toEqual({ listings: 0, tails: 2 })
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
