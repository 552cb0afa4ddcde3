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
import { type DshOptions, dshPlugin, startWeb } from '../dev/dsh-process.ts'
import { createHome } from '../dev/home.ts'
import { hostDir } from '../dev/pinned-host.ts'
import { percentile } from '../dev/percentile.ts'
import { groupUsage } from '../dev/process-usage.ts'
import { type StoredSession, spreadSessions, writeSessionStore } from '../dev/session-store.ts'
import { startModel } from '../dev/stand-in-model.ts'

/** Figures at one store size. */
export interface SinceFigures {
  readonly sessions: number
  readonly storeMs: number
  readonly madeUp: { p50: number; p95: number }
  readonly cold: { p50: number; p95: number }
  /** Host CPU milliseconds of one `since` naming 20 cold sources, each run. */
  readonly pageCpu: { p50: number; p95: number }
}

const spread = (samples: number[]) => ({ p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) })

/** Sessions written with the host's own writer; a larger store is made of copies of them (the host's writer takes about 25 minutes for 20,000 on this machine). */
const WRITTEN = 2000

/**
 * Adds copies of stored sessions until the store holds `size`: each copy is a
 * stored session's log under a new id (the id rewritten inside the log), in
 * the same workspace folder, as the host's writer would have put it.
 */
function copySessions(dshHome: string, stored: readonly StoredSession[], size: number): StoredSession[] {
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
 * @param hostBin - the pinned host's `dsh`.
 * @param tarball - the packed plugin.
 * @param sizes - store sizes.
 * @param runs - requests per figure.
 * @param measured - called with each size's figures as soon as they are taken.
 * @returns the figures per size.
 */
export async function measureSince(hostBin: string, tarball: string, sizes: readonly number[], runs: number, measured: (figures: SinceFigures) => void = () => {}): Promise<SinceFigures[]> {
  const figures: SinceFigures[] = []
  for (const size of sizes) {
    const home = createHome()
    const model = await startModel()
    try {
      const options: DshOptions = { home, hostBin, modelUrl: model.url, apiKey: 'sk-stand-in' }
      const started = performance.now()
      const written = await writeSessionStore(hostDir(), home, spreadSessions(home, Math.min(size, WRITTEN), 20), { titleCache: true })
      const store = size > written.length ? copySessions(home.dshHome, written, size) : written
      const storeMs = performance.now() - started
      dshPlugin(options, ['add', tarball])
      const web = await startWeb(options, { cwd: dirname(store[0]!.cwd) })
      console.error(`[since] ${size} sessions written in ${(storeMs / 1000).toFixed(0)} s; dsh web booted in ${(web.bootMs / 1000).toFixed(1)} s`)
      try {
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
        figures.push({ sessions: size, storeMs, madeUp: spread(madeUp), cold: spread(cold), pageCpu: spread(pageCpu) })
        measured(figures.at(-1)!)
      } finally {
        await web.stop()
      }
    } finally {
      await model.stop()
      home.remove()
    }
  }
  return figures
}

/**
 * The table of the figures.
 * @param figures - per store size.
 * @returns printable lines.
 */
export function sinceReport(figures: readonly SinceFigures[]): string[] {
  const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`)
  return [
    '`since` through the real host, p50 / p95 (targets: 32 ids ≤ 100 ms; 20 references ≤ 200 ms of host CPU; before: 32 made-up ids 20–23 s at 2,000 sessions)',
    '| sessions | 32 made-up ids | 32 cold stored ids | host CPU for 20 cold references |',
    '| --- | --- | --- | --- |',
    ...figures.map(f => `| ${f.sessions.toLocaleString('en')} | ${ms(f.madeUp.p50)} / ${ms(f.madeUp.p95)} | ${ms(f.cold.p50)} / ${ms(f.cold.p95)} | ${ms(f.pageCpu.p50)} / ${ms(f.pageCpu.p95)} |`),
  ]
}
