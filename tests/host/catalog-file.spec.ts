/**
 * A restart answers from the session catalog's file while the host's first
 * listing of the store is still under way: titles, scope and content
 * answers at once, a session deleted since left out of content answers and
 * dropped by the listing, and a damaged file ignored (the answer waits for
 * the listing, as without a file). In-process host, real JSONL persistence.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it, vi } from 'vitest'
import { SessionLogLocator } from '../../src/host/search/log-locator.ts'
import { CatalogFileKeeper, catalogFile, readCatalogFile } from '../../src/host/sessions/catalog-file.ts'
import { CatalogEntries } from '../../src/host/sessions/catalog-entries.ts'
import { A, B, createHostHarness, type HostHarness, id, mention, post, TARGET, temporaryFolder } from './harness.ts'
import { until } from '../wait.ts'

const waitFor = (check: () => Promise<boolean>, ms: number): Promise<void> => until(check, 'the condition', ms)

interface Candidate {
  readonly sessionId: string
  readonly label: string
  readonly snippet?: { readonly text: string }
}

async function candidates(url: string, query = ''): Promise<readonly Candidate[]> {
  const response = await post(url, 'candidates', { citingSessionId: TARGET, query })
  expect(response.status).toBe(200)
  return ((await response.json()) as { candidates: Candidate[] }).candidates
}

/** Three stored sessions: two in the citing session's workspace, one in another. */
async function store(): Promise<{ root: string; writer: HostHarness }> {
  const root = temporaryFolder('dsh-sessions-catalog-')
  const writer = await createHostHarness({ persistenceRoot: root })
  writer.session(id(2), { cwd: A, title: 'Kiwi plans', messages: ['the quetzal migration plan'] })
  writer.session(id(3), { cwd: B, title: 'Plum plans', messages: ['the quetzal rollout elsewhere'] })
  writer.session(id(4), { cwd: A, title: 'Papaya plans', messages: ['the quetzal papaya notes'] })
  for (const n of [2, 3, 4]) await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(id(n)))!)
  return { root, writer }
}

/** A first start of the plugin on the store: it lists, indexes every log and keeps its catalog, then stops. */
async function firstStart(root: string): Promise<void> {
  const first = await createHostHarness({ persistenceRoot: root })
  first.session(TARGET, { cwd: A })
  const { url } = await first.mount()
  await waitFor(async () => (await candidates(url, 'quetzal')).filter(candidate => candidate.snippet !== undefined).length === 2, 10_000)
  await waitFor(async () => (await filed()) === [id(2), id(3), id(4)].join(), 10_000)
  await first.dispose()
}

/** The ids the catalog's file holds (the citing draft, which has no log, is never among them). */
async function filed(): Promise<string> {
  return ((await readCatalogFile(catalogFile())) ?? []).map(record => record.header.id).sort().join()
}

/** Deletes a session's log on disk, as a user or another process does. */
function deleteLog(harness: HostHarness, n: number): void {
  const root = dirname(dirname(dirname(new SessionLogLocator(harness.ctx).path({ id: id(n), cwd: A, createdAt: 0 })!)))
  for (const project of readdirSync(root)) rmSync(join(root, project, id(n)), { recursive: true, force: true })
}

describe('a restart answers from the session catalog\'s file', () => {
  it('lists titles in scope and finds content while the first listing is held, and the listing then drops a session deleted since', async () => {
    const { root, writer } = await store()
    await firstStart(root)
    deleteLog(writer, 4)
    const second = await createHostHarness({ persistenceRoot: root })
    let release!: () => void
    second.faults.holdListings = new Promise(resolve => { release = resolve })
    second.session(TARGET, { cwd: A })
    const { url } = await second.mount()
    // The listing has started and is held: everything below is answered without it.
    const menu = await candidates(url)
    expect(second.faults.calls.get('listSessions')).toBe(1)
    expect(menu.map(candidate => candidate.label)).toEqual(expect.arrayContaining(['Kiwi plans', 'Papaya plans']))
    expect(menu.map(candidate => candidate.sessionId)).not.toContain(id(3))
    // Content: the restored index finds the kept session; the one whose log is gone is left out.
    const found = await candidates(url, 'quetzal')
    expect(found.filter(candidate => candidate.snippet !== undefined).map(candidate => candidate.sessionId)).toEqual([id(2)])
    expect(found.find(candidate => candidate.sessionId === id(2))!.snippet!.text.toLowerCase()).toContain('quetzal')
    // Scope holds on the restored workspace: the other workspace's session is refused.
    expect(await (await post(url, 'preflight', { citingSessionId: TARGET, text: `compare ${mention(id(3), 'Plum plans')}` })).json()).toMatchObject({ ok: false, code: 'out-of-scope' })
    expect(second.faults.calls.get('listSessions')).toBe(1)
    second.faults.holdListings = undefined
    release()
    await waitFor(async () => !(await candidates(url)).some(candidate => candidate.sessionId === id(4)), 5_000)
    // The file is written again from that listing.
    await waitFor(async () => (await filed()) === [id(2), id(3)].join(), 5_000)
  })

  it('asks whether sessions have logs once per write, not once per session, and leaves out a draft with none', async () => {
    const h = await createHostHarness()
    const entries = new CatalogEntries()
    for (let n = 0; n < 1_000; n += 1) entries.stored({ id: id(n + 10), cwd: A, createdAt: n }, `Session ${n}`)
    const logged = vi.fn(() => (session: string) => session !== id(10))
    const file = join(temporaryFolder('dsh-sessions-catalog-file-'), 'session-catalog.json.gz')
    const keeper = new CatalogFileKeeper(h.ctx, { file: file, kept: { entries, isListed: () => true, logged, signal: new AbortController().signal } }, () => undefined)
    await keeper.save()
    expect(logged).toHaveBeenCalledTimes(1)
    const written = (await readCatalogFile(file))!
    expect(written).toHaveLength(999)
    expect(written.some(record => JSON.stringify(record).includes(id(10)))).toBe(false)
  })

  it('ignores a damaged file: the answer waits for the listing, as with none', async () => {
    const { root } = await store()
    await firstStart(root)
    writeFileSync(catalogFile(), 'not a catalog')
    const second = await createHostHarness({ persistenceRoot: root })
    let release!: () => void
    second.faults.holdListings = new Promise(resolve => { release = resolve })
    second.session(TARGET, { cwd: A })
    const { url } = await second.mount()
    const menu = candidates(url)
    await waitFor(async () => (second.faults.calls.get('listSessions') ?? 0) > 0, 5_000)
    second.faults.holdListings = undefined
    release()
    // The damaged file holds no session: an answer that had not waited for the listing would name none of these.
    expect((await menu).map(candidate => candidate.sessionId)).toEqual(expect.arrayContaining([id(2), id(4)]))
    await waitFor(async () => (await filed()) === [id(2), id(3), id(4)].join(), 5_000)
    expect(existsSync(`${catalogFile()}.${process.pid}.tmp`)).toBe(false)
  })

  it('removes a temporary file a killed process left, and keeps one a running process is writing', async () => {
    const { root } = await store()
    await firstStart(root)
    const dead = `${catalogFile()}.2147483646.tmp`
    const alive = `${catalogFile()}.${process.ppid}.tmp`
    writeFileSync(dead, 'half written')
    writeFileSync(alive, 'being written')
    expect(await readCatalogFile(catalogFile())).toHaveLength(3)
    expect(existsSync(dead)).toBe(false)
    expect(existsSync(alive)).toBe(true)
    rmSync(alive)
  })
})
