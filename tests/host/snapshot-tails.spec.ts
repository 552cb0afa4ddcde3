/**
 * Kept tails of long sessions, on stored (cold) sessions of the host's JSONL
 * backend: the log pass keeps the tail of each long log (one the content
 * index already held included) and none of a short one; a whole-session
 * snapshot of a session with a current tail is prepared from it without
 * reading the log, and is the snapshot prepared from the log, byte for byte,
 * under any label; a tail of another revision or budget, or a damaged one,
 * is read around; a session gone loses its tail.
 */
import { randomBytes } from 'node:crypto'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it, vi } from 'vitest'
import type { CitedSource } from '../../src/host/references/cited-source.ts'
import { SnapshotPreparer } from '../../src/host/references/snapshot-preparer.ts'
import { SnapshotTails } from '../../src/host/references/snapshot-tails.ts'
import { StoredReads } from '../../src/host/references/stored-reads.ts'
import { SurfaceCache } from '../../src/host/references/surface-cache.ts'
import { ContentSearch } from '../../src/host/search/content-search.ts'
import { SessionLogLocator } from '../../src/host/search/log-locator.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { A, createHostHarness, type HostHarness, id, TARGET, temporaryFolder, until } from './harness.ts'
import { until as poll } from '../wait.ts'

const LONG = id(2)
const SHORT = id(3)

/** Text that does not compress away: the long log must be long on disk. */
const noise = (n: number): string => `${n} 笔记 ${randomBytes(600).toString('base64')} <x> 🍐`

/** A long and a short session written by one host, then a second host on the same folder, where they are cold. */
async function coldHost(turns = 150): Promise<{ writer: HostHarness; reader: HostHarness; dir: string }> {
  const root = temporaryFolder('dsh-sessions-tails-')
  const writer = await createHostHarness({ persistenceRoot: root })
  writer.session(LONG, { cwd: A, title: 'Long kiwi notes', messages: ['the first kiwi note'] })
  for (let n = 0; n < turns; n += 1) writer.turn(LONG, `question ${noise(n)}`, `answer ${noise(n)}`)
  writer.session(SHORT, { cwd: A, title: 'Short plum notes', messages: ['one plum note'] })
  for (const session of [LONG, SHORT]) await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(session))!)
  const reader = await createHostHarness({ persistenceRoot: root })
  reader.session(TARGET, { cwd: A })
  return { writer, reader, dir: temporaryFolder('dsh-sessions-tails-dir-') }
}

/** The reading side over a host: its index, tails kept from logs of `fromLogBytes` bytes, and a preparer that reads through them. */
async function readers(h: HostHarness, dir: string, fromLogBytes: number): Promise<{ index: SessionCatalog; logs: SessionLogLocator; tails: SnapshotTails; fresh: () => { cache: SurfaceCache; preparer: SnapshotPreparer } }> {
  const index = new SessionCatalog(h.ctx)
  await index.ready()
  const logs = new SessionLogLocator(h.ctx)
  const tails = new SnapshotTails(h.ctx, { catalog: index, logs: logs }, { dir, fromLogBytes })
  const fresh = () => {
    const cache = new SurfaceCache(h.ctx, index, { tails })
    return { cache, preparer: new SnapshotPreparer(h.ctx, { cache: cache, catalog: index }) }
  }
  return { index, logs, tails, fresh }
}

/** The snapshot message text and statistics of one whole-session source. */
async function snapshotOf(preparer: SnapshotPreparer, reference: CitedSource): Promise<{ text: string; source: unknown }> {
  const attachment = await preparer.attach({ id: TARGET, cwd: A }, { content: [], references: [reference] })
  const context = attachment.prepared!.additionalContext!
  const block = context.content[0]!
  return { text: block.type === 'text' ? block.text : '', source: context.source }
}

describe('kept snapshot tails', () => {
  it('prepares a long session from its kept tail without reading its log, the snapshot the log gives, under any label', { timeout: 60_000 }, async () => {
    const { reader, dir } = await coldHost()
    const { index, logs, tails, fresh } = await readers(reader, dir, 1)
    const source = index.get(LONG)!
    const state = await logs.state(source)
    if (typeof state === 'string') throw new Error('no log state')
    const labels: (string | undefined)[] = [undefined, 'Kiwi', '界'.repeat(300)]
    const fromLog = fresh()
    const expected = []
    for (const label of labels) expected.push(await snapshotOf(fromLog.preparer, { sessionId: SessionId(LONG), ...(label === undefined ? {} : { label }) }))
    expect(fromLog.cache.reads.get(LONG)).toBe(1)
    // Most of the session is left out: the tail is what the snapshot needs.
    expect(expected[0]!.source).toMatchObject({ references: [{ truncated: true, originalMessages: 301 }] })

    expect(await tails.wants(LONG, state.revision, state.bytes!)).toBe(true)
    await tails.keep(source, state.revision, new AbortController().signal)
    expect(await tails.wants(LONG, state.revision, state.bytes!)).toBe(false)
    expect(readdirSync(dir)).toHaveLength(1)

    const inspect = vi.spyOn(reader.ctx.sessionPersistence, 'inspect')
    const fromTail = fresh()
    for (const [n, label] of labels.entries()) {
      const ours = await snapshotOf(fromTail.preparer, { sessionId: SessionId(LONG), ...(label === undefined ? {} : { label }) })
      expect(ours.text).toBe(expected[n]!.text)
      expect(ours.source).toEqual(expected[n]!.source)
    }
    expect(fromTail.cache.reads.size).toBe(0)
    expect(inspect).not.toHaveBeenCalled()
  })

  it('reads the log again once it changed, or when the budget differs, and reads around a damaged tail', { timeout: 60_000 }, async () => {
    const { writer, reader, dir } = await coldHost(40)
    const { index, logs, tails, fresh } = await readers(reader, dir, 1)
    const source = index.get(LONG)!
    const state = await logs.state(source)
    if (typeof state === 'string') throw new Error('no log state')
    await tails.keep(source, state.revision, new AbortController().signal)
    expect(await tails.read(LONG, state.revision, 65_536)).toBeDefined()
    // Another budget, another revision: nothing kept for them.
    expect(await tails.read(LONG, state.revision, 1_000)).toBeUndefined()
    expect(await tails.read(LONG, `${state.revision}0`, 65_536)).toBeUndefined()

    // A damaged file is removed and the log read instead.
    const [file] = readdirSync(dir)
    writeFileSync(join(dir, file!), 'not a tail')
    const damaged = fresh()
    const text = (await snapshotOf(damaged.preparer, { sessionId: SessionId(LONG) })).text
    expect(damaged.cache.reads.get(LONG)).toBe(1)
    expect(readdirSync(dir)).toHaveLength(0)
    expect(text).toContain('answer 39 ')

    // The log grows: the tail kept before is not served for it.
    await tails.keep(source, state.revision, new AbortController().signal)
    writer.turn(LONG, 'the newest kiwi question', 'the newest kiwi answer')
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(LONG))!)
    const changed = fresh()
    expect((await snapshotOf(changed.preparer, { sessionId: SessionId(LONG) })).text).toContain('the newest kiwi answer')
    expect(changed.cache.reads.get(LONG)).toBe(1)
  })

  it('shares one read of a log between its tail being kept and a snapshot asked for meanwhile, and reads again for another revision', { timeout: 60_000 }, async () => {
    const { writer, reader, dir } = await coldHost(40)
    const index = new SessionCatalog(reader.ctx)
    await index.ready()
    const logs = new SessionLogLocator(reader.ctx)
    const reads = new StoredReads(reader.ctx)
    const tails = new SnapshotTails(reader.ctx, { catalog: index, logs: logs }, { dir, fromLogBytes: 1, reads })
    const cache = new SurfaceCache(reader.ctx, index, { tails, reads })
    const preparer = new SnapshotPreparer(reader.ctx, { cache, catalog: index })
    const source = index.get(LONG)!
    const state = await logs.state(source)
    if (typeof state === 'string') throw new Error('no log state')
    const inspect = vi.spyOn(reader.ctx.sessionPersistence, 'inspect')
    // The tail is being kept (its read under way) when a draft cites the session.
    const keeping = tails.keep(source, state.revision, new AbortController().signal)
    const [snapshot] = await Promise.all([snapshotOf(preparer, { sessionId: SessionId(LONG) }), keeping])
    expect(inspect).toHaveBeenCalledTimes(1)
    expect(snapshot.text).toContain('answer 39 ')
    // The log grows: its new revision is read anew, once more.
    writer.turn(LONG, 'the newest kiwi question', 'the newest kiwi answer')
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(LONG))!)
    const now = await logs.state(source)
    if (typeof now === 'string') throw new Error('no log state')
    await Promise.all([tails.keep(source, now.revision, new AbortController().signal), reads.read(SessionId(LONG), now.revision)])
    expect(inspect).toHaveBeenCalledTimes(2)
  })

  it('is kept by the log pass for long logs only, logs the content index already held included, and dropped with its session', { timeout: 60_000 }, async () => {
    const { reader, dir } = await coldHost(60)
    const { index, logs } = await readers(reader, dir, 1)
    const long = await logs.state(index.get(LONG)!)
    const short = await logs.state(index.get(SHORT)!)
    if (typeof long === 'string' || typeof short === 'string') throw new Error('no log state')
    expect(long.bytes).toBeGreaterThan(short.bytes! * 4)
    const fromLogBytes = Math.floor((long.bytes! + short.bytes!) / 2)
    // A content search without a follower reads every log into the file, and stops.
    const file = join(temporaryFolder('dsh-sessions-tails-index-'), 'content-index.json')
    const first = reader.ctx.plugin({
      inject: ['sessions', 'sessionQuery'],
      apply: async (ctx: typeof reader.ctx) => {
        const content = new ContentSearch(ctx, { catalog: index, logs: logs }, { file })
        await content.whenReady()
        await until(() => Promise.resolve(content.status().reads), reads => reads === 2)
        await content.idle()
      },
    })
    await first
    await first.dispose()
    // A second one over the same file reads no log; its follower still keeps the long session's tail, and only that.
    const tails = new SnapshotTails(reader.ctx, { catalog: index, logs: logs }, { dir, fromLogBytes })
    const keep = vi.spyOn(tails, 'keep')
    const content = new ContentSearch(reader.ctx, { catalog: index, logs: logs }, { file, follower: tails })
    await content.whenReady()
    await until(() => Promise.resolve(readdirSync(dir)), files => files.length === 1)
    await content.idle()
    expect(keep.mock.calls.map(([session]) => session.id)).toEqual([LONG])
    expect(content.status()).toMatchObject({ reads: 0 })
    expect(readdirSync(dir)[0]).toMatch(new RegExp(`^${LONG}\\.`))
    // A session the listing no longer holds loses its tail at the pass's end (the next test's session stays).
    await tails.passed(new Set([SHORT, TARGET]))
    expect(readdirSync(dir)).toHaveLength(0)
  })

  it('is kept a moment after a long session stops being live here, without waiting for a listing', { timeout: 60_000 }, async () => {
    const h = await createHostHarness({ persistenceRoot: temporaryFolder('dsh-sessions-tails-live-') })
    const dir = temporaryFolder('dsh-sessions-tails-dir-')
    h.session(TARGET, { cwd: A })
    const index = new SessionCatalog(h.ctx)
    await index.ready()
    const logs = new SessionLogLocator(h.ctx)
    const tails = new SnapshotTails(h.ctx, { catalog: index, logs: logs }, { dir, fromLogBytes: 1 })
    const content = new ContentSearch(h.ctx, { catalog: index, logs: logs }, { liveDelayMs: 0, follower: tails })
    await content.whenReady()
    await content.idle()
    h.session(LONG, { cwd: A, title: 'Long kiwi notes', messages: ['the first kiwi note'] })
    for (let n = 0; n < 40; n += 1) h.turn(LONG, `question ${noise(n)}`, `answer ${noise(n)}`)
    await h.ctx.sessions.flush(h.ctx.sessions.get(SessionId(LONG))!)
    expect(readdirSync(dir)).toHaveLength(0)
    const list = vi.spyOn(h.ctx.sessionPersistence, 'list')
    h.detach(LONG)
    // The tail of the log as it is once the host has written it (a second look follows the first by 10 s).
    const current = async () => {
      const state = await logs.state(index.get(LONG)!)
      return typeof state === 'string' ? undefined : tails.read(LONG, state.revision, 65_536)
    }
    await poll(async () => await current() !== undefined, 'a tail of the current log', 30_000, 50)
    expect(await current()).toMatchObject({ surface: { session: { id: LONG } } })
    expect(readdirSync(dir)).toHaveLength(1)
    expect(readdirSync(dir)[0]).toMatch(new RegExp(`^${LONG}\\.`))
    expect(list).not.toHaveBeenCalled()
  })
})
