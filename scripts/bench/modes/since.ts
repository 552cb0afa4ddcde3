/**
 * The per-id routes through the real dsh 0.1.0-rc.8 web host, at 2,000 and
 * 20,000 stored sessions: `POST /dsh-sessions/since` with 32 made-up ids,
 * with 32 stored ids not read before (cold), and the host processor time of
 * what a page with 20 sent references asks when it opens (one `since` of 20
 * cold sources). Targets: 32 ids ≤ 100 ms; the page's 20 references ≤ 200 ms
 * of host CPU. Past 2,000 sessions the store is 2,000 sessions the host's
 * writer wrote plus copies of them under new ids. Before the per-id routes read only ids the index holds, from
 * their one log, the same `since` with 32 made-up ids took 20–23 s at 2,000
 * sessions (issue 31's measurement).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { zstdCompressSync, zstdDecompressSync } from 'node:zlib'
import { hostDir } from '../../../dev/pinned-host.ts'
import { groupUsage } from '../../../dev/process-usage.ts'
import { type StoredSession, spreadSessions, writeSessionStore } from '../../../dev/session-store.ts'
import { ms, pair, type Percentiles, percentiles, table } from '../figures.ts'
import type { BenchContext, BenchMode } from '../mode.ts'

/** Figures at one store size. */
export interface SinceFigures {
  readonly sessions: number
  readonly storeMs: number
  readonly madeUp: Percentiles
  readonly cold: Percentiles
  /** Host CPU milliseconds of one `since` naming 20 cold sources, each run. */
  readonly pageCpu: Percentiles
}

/** Sessions written with the host's own writer; a larger store is made of copies of them (the host's writer takes about 25 minutes for 20,000 on this machine). */
const WRITTEN = 2000

/**
 * Adds copies of stored sessions until the store holds `size`: each copy is a
 * stored session's log under a new id (the id rewritten inside the log), in
 * the same workspace folder, as the host's writer would have put it.
 */
export function copySessions(dshHome: string, stored: readonly StoredSession[], size: number): StoredSession[] {
  const root = join(dshHome, 'sessions')
  const folderOf = new Map<string, string>()
  for (const project of readdirSync(root)) for (const id of readdirSync(join(root, project))) folderOf.set(id, project)
  const logs = new Map(stored.map(session => [session.id, zstdDecompressSync(readFileSync(join(root, folderOf.get(session.id)!, session.id, 'session.jsonl.zstd'))).toString('utf8')]))
  const copies: StoredSession[] = []
  for (let n = stored.length; n < size; n += 1) {
    const template = stored[n % stored.length]!
    const id = `session-${crypto.randomUUID()}`
    const dir = join(root, folderOf.get(template.id)!, id)
    mkdirSync(dir)
    writeFileSync(join(dir, 'session.jsonl.zstd'), zstdCompressSync(Buffer.from(logs.get(template.id)!.replaceAll(template.id, id))))
    copies.push({ ...template, id })
  }
  return [...stored, ...copies]
}

async function post(url: string, body: unknown): Promise<{ ms: number; json: { sources: { newMessages: number }[] } }> {
  const started = performance.now()
  const res = await fetch(`${url}/dsh-sessions/since`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const json = await res.json() as { sources: { newMessages: number }[] }
  const ms = performance.now() - started
  if (res.status !== 200) throw new Error(`since answered ${res.status}: ${JSON.stringify(json)}`)
  return { ms, json }
}

/**
 * Measures the per-id routes at each store size.
 * @param context - the bench's set-up.
 * @param sizes - store sizes.
 * @param runs - requests per figure.
 * @param measured - called with each size's figures as soon as they are taken.
 * @returns the figures per size.
 */
export async function measureSince(context: BenchContext, sizes: readonly number[], runs: number, measured: (figures: SinceFigures) => void = () => {}): Promise<SinceFigures[]> {
  const figures: SinceFigures[] = []
  for (const size of sizes) {
    let store: StoredSession[] = []
    let storeMs = 0
    const stack = await context.stack({
      tarball: context.tarball(),
      beforeBoot: async home => {
        const started = performance.now()
        const written = await writeSessionStore(hostDir(), home, spreadSessions(home, Math.min(size, WRITTEN), 20), { titleCache: true })
        store = size > written.length ? copySessions(home.dshHome, written, size) : written
        storeMs = performance.now() - started
      },
      cwd: () => dirname(store[0]!.cwd),
    })
    try {
      const web = stack.web
      context.progress(`${size} sessions written in ${(storeMs / 1000).toFixed(0)} s; dsh web booted in ${(web.bootMs / 1000).toFixed(1)} s`)
      // The index has listed once a stored session answers with its messages.
      for (;;) {
        const { json } = await post(web.url, { sources: [{ sessionId: store[0]!.id, capturedThroughSeq: null }] })
        if (json.sources[0]!.newMessages > 0) break
        await new Promise(resolve => setTimeout(resolve, 250))
      }
      const madeUp: number[] = []
      for (let run = 0; run < runs; run += 1) {
        const sources = Array.from({ length: 32 }, (_, n) => ({ sessionId: `session-ffffffff-0000-4000-8000-${String(run * 32 + n).padStart(12, '0')}`, capturedThroughSeq: 0 }))
        madeUp.push((await post(web.url, { sources })).ms)
      }
      // Each run names 32 stored sessions no earlier run named, so none is in the plugin's read cache.
      let next = 1
      const fresh = (count: number) => Array.from({ length: count }, () => ({ sessionId: store[next++]!.id, capturedThroughSeq: 0 }))
      const cold: number[] = []
      for (let run = 0; run < runs; run += 1) cold.push((await post(web.url, { sources: fresh(32) })).ms)
      const pageCpu: number[] = []
      for (let run = 0; run < runs; run += 1) {
        const before = groupUsage(web.pid).cpuSeconds
        await post(web.url, { sources: fresh(20) })
        // The kernel's counters move in 10 ms ticks; read them once the request has settled.
        await new Promise(resolve => setTimeout(resolve, 50))
        pageCpu.push((groupUsage(web.pid).cpuSeconds - before) * 1000)
      }
      figures.push({ sessions: size, storeMs, madeUp: percentiles(madeUp), cold: percentiles(cold), pageCpu: percentiles(pageCpu) })
      measured(figures.at(-1)!)
    } finally {
      await stack.stop()
    }
  }
  return figures
}

/**
 * The table of the figures.
 * @param figures - per store size.
 * @returns the table block.
 */
export function sinceTable(figures: readonly SinceFigures[]) {
  return table({
    title: '`since` through the real host, p50 / p95 (targets: 32 ids ≤ 100 ms; 20 references ≤ 200 ms of host CPU; before: 32 made-up ids 20–23 s at 2,000 sessions)',
    columns: ['sessions', '32 made-up ids', '32 cold stored ids', 'host CPU for 20 cold references'],
    rows: figures.map(f => [f.sessions.toLocaleString('en'), pair(f.madeUp), pair(f.cold), pair(f.pageCpu)]),
  })
}

/** `--only since`: the per-id routes at each `--sessions` size (a list: `2000,20000`), at most 10 runs. */
export const since: BenchMode = {
  name: 'since',
  summary: 'the per-id routes (`since`) through the real host at each `--sessions` size',
  async run(context) {
    const sizes = context.settings.sessions
    const runs = Math.min(context.settings.runs, 10)
    const figures = await measureSince(context, sizes, runs, row => context.progress(`${row.sessions} sessions: made-up ${pair(row.madeUp)}; cold ${pair(row.cold)}; host CPU ${pair(row.pageCpu)}; store written in ${ms(row.storeMs)}`))
    return {
      mode: 'since',
      settings: { sessions: sizes, workspaces: 20, runs, written: WRITTEN },
      figures,
      units: { sessions: 'count', storeMs: 'ms', madeUp: 'ms', cold: 'ms', pageCpu: 'ms of host CPU (10 ms ticks)' },
      blocks: [sinceTable(figures)],
    }
  },
}
