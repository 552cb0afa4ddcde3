/** Read-once snapshots: cold sources are read from storage once and served again while their log is unchanged; outcomes wait and wake. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SessionId } from '@deepseek-ai/dsh-session'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { afterEach, describe, expect, it } from 'vitest'
import { OutcomeLog } from '../../src/host/references/outcome-log.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { SnapshotPreparer } from '../../src/host/references/snapshot-preparer.ts'
import { SurfaceCache } from '../../src/host/references/surface-cache.ts'
import { A, createHostHarness, type HostHarness, id } from './harness.ts'

const roots: string[] = []

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** Writes sessions through the host's JSONL backend, then opens a second host on the same folder, where they are cold. */
async function coldStore(count: number): Promise<{ writer: HostHarness; reader: HostHarness; index: SessionCatalog; cache: SurfaceCache; preparer: SnapshotPreparer }> {
  const root = mkdtempSync(join(tmpdir(), 'dsh-sessions-read-once-'))
  roots.push(root)
  const writer = await createHostHarness({ persistenceRoot: root })
  for (let n = 2; n < 2 + count; n += 1) {
    writer.session(id(n), { cwd: A, title: `Source ${n}`, messages: [`body of source ${n}`] })
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(n)))!)
  }
  const reader = await createHostHarness({ persistenceRoot: root })
  reader.session(id(1), { cwd: A })
  const index = new SessionCatalog(reader.ctx)
  await index.ready()
  const cache = new SurfaceCache(reader.ctx, index)
  return { writer, reader, index, cache, preparer: new SnapshotPreparer(reader.ctx, { cache: cache, catalog: index }) }
}

describe('read-once snapshots', () => {
  it('reads each cold source once for measuring and attaching the same message', async () => {
    const { cache, preparer } = await coldStore(3)
    const target = { id: id(1), cwd: A }
    const references = [2, 3, 4].map(n => ({ sessionId: SessionId(id(n)), label: `Source ${n}` }))
    const measured = await Promise.all(references.map(reference => preparer.measure(target, reference)))
    expect(measured.map(measure => measure.bytes! > 0 && measure.failure === undefined)).toEqual([true, true, true])
    const attached = await preparer.attach(target, { content: [{ type: 'text', text: 'compare' }], references: references })
    expect(attached.attached).toHaveLength(3)
    for (const n of [2, 3, 4]) expect(attached.prepared!.additionalContext!.content[0]).toMatchObject({ text: expect.stringContaining(`body of source ${n}`) })
    expect([...cache.reads.values()]).toEqual([1, 1, 1])
  })

  it('attaches a kept snapshot under a new message identity every send, reading the source once', async () => {
    const { cache, preparer } = await coldStore(1)
    const target = { id: id(1), cwd: A }
    const reference = { sessionId: SessionId(id(2)), label: 'Source 2' }
    const first = await preparer.attach(target, { content: [{ type: 'text', text: 'one' }], references: [reference] })
    const second = await preparer.attach(target, { content: [{ type: 'text', text: 'two' }], references: [reference] })
    const [a, b] = [first.prepared!.additionalContext!, second.prepared!.additionalContext!]
    expect(a.id).not.toBe(b.id)
    expect(b.content).toEqual(a.content)
    expect(b.source).toEqual(a.source)
    expect(cache.reads.get(id(2))).toBe(1)
  })

  it('reads a source again once its log changed', async () => {
    const { writer, cache, preparer } = await coldStore(1)
    const target = { id: id(1), cwd: A }
    const reference = { sessionId: SessionId(id(2)), label: 'Source 2' }
    await preparer.measure(target, reference)
    await preparer.measure(target, reference)
    expect(cache.reads.get(id(2))).toBe(1)
    const live = writer.ctx.sessions.get(SessionId(id(2)))!
    live.append('user/message', createUserMessage({ content: [{ type: 'text', text: 'a later message' }], source: { kind: 'user' } }), { surfaceOp: 'append' })
    await writer.ctx.sessions.flush(live)
    const after = await preparer.attach(target, { content: [{ type: 'text', text: 'x' }], references: [reference] })
    expect(cache.reads.get(id(2))).toBe(2)
    expect(after.prepared!.additionalContext!.content[0]).toMatchObject({ text: expect.stringContaining('a later message') })
  })

  it('lets one caller cancel its wait without failing another caller of the same measure', async () => {
    const { cache, preparer } = await coldStore(1)
    const target = { id: id(1), cwd: A }
    const reference = { sessionId: SessionId(id(2)), label: 'Source 2' }
    const abort = new AbortController()
    const cancelled = preparer.measure(target, reference, abort.signal)
    const other = preparer.measure(target, reference)
    abort.abort()
    await expect(cancelled).rejects.toMatchObject({ code: 'SESSION_REFERENCE_CANCELLED' })
    expect((await other).bytes).toBeGreaterThan(0)
    expect(cache.reads.get(id(2))).toBe(1)
  })

  it('reads every time once the entry expired', async () => {
    const { reader, index } = await coldStore(1)
    const cache = new SurfaceCache(reader.ctx, index, { ttlMs: 0 })
    await cache.readSurface(SessionId(id(2)))
    await cache.readSurface(SessionId(id(2)))
    expect(cache.reads.get(id(2))).toBe(2)
  })
})

describe('the outcome log', () => {
  it('answers newer outcomes at once, waits for the next one, and stops waiting when told', async () => {
    const log = new OutcomeLog()
    log.record('s', { kind: 'not-attached', references: [{ label: 'A', code: 'not-found', message: 'm' }] })
    expect((await log.read({ sessionId: 's', after: 0, waitMs: 1_000 }, new AbortController().signal)).map(outcome => outcome.id)).toEqual([1])
    const waiting = log.read({ sessionId: 's', after: 1, waitMs: 5_000 }, new AbortController().signal)
    setTimeout(() => log.record('s', { kind: 'rejected', references: [], text: 'hello' }), 20)
    expect(await waiting).toMatchObject([{ id: 2, kind: 'rejected', text: 'hello' }])
    expect(await log.read({ sessionId: 'other', after: 0, waitMs: 30 }, new AbortController().signal)).toEqual([])
    const abort = new AbortController()
    const started = performance.now()
    const ended = log.read({ sessionId: 's', after: 2, waitMs: 5_000 }, abort.signal)
    abort.abort()
    expect(await ended).toEqual([])
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})
