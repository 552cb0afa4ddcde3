/**
 * Content search at scale in the real host, side by side with the bare host
 * in one run. A store of generated conversations (real README sentences,
 * English and Chinese, several turns each) is served by two homes with the
 * same logs: one bare, one with the plugin. Boots alternate, plugin then
 * bare, five rounds: the first plugin boot builds the index cold, the later
 * ones restore it from its file. Reported: boot times of both; cold build
 * time, its processor share and peak memory; the host's own `/api` latency
 * during the build against idle; resident memory of both after the build;
 * the saved index's size; ready-after-restart; and content query latency
 * through the candidates route, with every answer checked against the
 * corpus's own matching rules.
 */
import { cpSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { benchQueries, conversationCorpus } from '../dev/corpus.ts'
import { type DshOptions, dshPlugin, startWeb, type WebProcess } from '../dev/dsh-process.ts'
import { createHome, type Home } from '../dev/home.ts'
import { percentile } from '../dev/percentile.ts'
import { hostDir } from '../dev/pinned-host.ts'
import { groupUsage } from '../dev/process-usage.ts'
import { corpusSessions, writeSessionStore } from '../dev/session-store.ts'
import { startModel } from '../dev/stand-in-model.ts'

/** p50 and p95 of a sample, in milliseconds. */
export interface Spread {
  readonly p50: number
  readonly p95: number
}

/** What {@link measureContentSearch} reports. */
export interface ContentFigures {
  readonly sessions: number
  readonly workspaces: number
  readonly turns: number
  readonly storeBytes: number
  readonly bootMs: { readonly bare: readonly number[]; readonly plugin: readonly number[] }
  readonly buildMs: number
  /** Processor time of the plugin's host during the build over the wall time, and of the bare host over the same span after its boot, both under the same `/api` sampling. */
  readonly buildCores: { readonly plugin: number; readonly bare: number }
  readonly apiIdle: Spread
  readonly apiDuringBuild: Spread
  /** The bare host's `/api` over the same span after its boot. */
  readonly apiBareSameSpan: Spread
  readonly rssMb: { readonly bare: number; readonly pluginAfterBuild: number; readonly pluginPeak: number; readonly barePeak: number }
  readonly indexBytes: number
  /** Boot to a restored index, and to the first right answer to a content query, per restart. */
  readonly restart: readonly { readonly readyMs: number; readonly answerMs: number }[]
  readonly queries: readonly { readonly kind: string; readonly query: string; readonly expected: number; readonly found: number; readonly exact: boolean; readonly latency: Spread }[]
  readonly latency: Spread
}

interface Status {
  ready: boolean
  start: string
  reads: number
  sessions: number
}

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

/** Boots of each host, alternating: the first builds the index cold, the others restore it. */
const ROUNDS = 5

async function post(url: string, body: unknown): Promise<{ ms: number; status: number; json: any }> {
  const started = performance.now()
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const json = await res.json()
  return { ms: performance.now() - started, status: res.status, json }
}

/** One call of the host's own RPC surface: list the agent presets. */
async function hostCall(web: WebProcess): Promise<number> {
  const { ms, status } = await post(`${web.url}/api/agentPreset.list`, { type: 'client-request', rpcId: crypto.randomUUID(), method: 'agentPreset.list', payload: {} })
  if (status !== 200) throw new Error(`agentPreset.list answered ${status}`)
  return ms
}

async function status(web: WebProcess): Promise<Status> {
  return (await fetch(`${web.url}/dsh-sessions/content-index`)).json() as Promise<Status>
}

const spread = (samples: readonly number[]): Spread => ({ p50: percentile([...samples], 0.5), p95: percentile([...samples], 0.95) })

/** Samples the host's `/api` every 20 ms and the group's memory every 250 ms until `done` resolves. */
async function observe(web: WebProcess, done: Promise<unknown>): Promise<{ api: number[]; peakRss: number }> {
  let finished = false
  void done.finally(() => { finished = true })
  const api: number[] = []
  let peakRss = 0
  const memory = (async () => {
    while (!finished) {
      peakRss = Math.max(peakRss, groupUsage(web.pid).rssBytes)
      await sleep(250)
    }
  })()
  while (!finished) {
    api.push(await hostCall(web))
    await sleep(20)
  }
  await memory
  return { api, peakRss }
}

async function idleApi(web: WebProcess, calls: number): Promise<number[]> {
  const samples: number[] = []
  for (let n = 0; n < calls; n += 1) {
    samples.push(await hostCall(web))
    await sleep(20)
  }
  return samples
}

function directorySize(path: string): number {
  const info = statSync(path)
  if (!info.isDirectory()) return info.size
  let total = 0
  for (const entry of readdirSync(path)) total += directorySize(join(path, entry))
  return total
}

/**
 * Runs the comparison.
 * @param hostBin - the pinned host's bin folder.
 * @param tarball - the packed plugin.
 * @param options - store size and query repetitions.
 * @returns the figures.
 */
export async function measureContentSearch(hostBin: string, tarball: string, options: { sessions: number; workspaces: number; runs: number }): Promise<ContentFigures> {
  const corpus = conversationCorpus(hostDir(), { sessions: options.sessions, workspaces: options.workspaces })
  const queries = benchQueries(corpus, { perKind: 3 })
  const model = await startModel()
  const homes: Home[] = []
  try {
    const bareHome = createHome()
    homes.push(bareHome)
    const pluginHome = createHome()
    homes.push(pluginHome)
    const stored = await writeSessionStore(hostDir(), bareHome, corpusSessions(bareHome, corpus), { titleCache: false })
    cpSync(join(bareHome.dshHome, 'sessions'), join(pluginHome.dshHome, 'sessions'), { recursive: true })
    const bare: DshOptions = { home: bareHome, hostBin, modelUrl: model.url, apiKey: 'sk-stand-in' }
    const plugin: DshOptions = { home: pluginHome, hostBin, modelUrl: model.url, apiKey: 'sk-stand-in' }
    dshPlugin(plugin, ['add', tarball])
    const cwd = join(bareHome.home, 'ws-00')
    const boots = { bare: [] as number[], plugin: [] as number[] }
    const restart: { readyMs: number; answerMs: number }[] = []
    let figures: Pick<ContentFigures, 'buildMs' | 'buildCores' | 'apiIdle' | 'apiDuringBuild' | 'apiBareSameSpan' | 'rssMb' | 'indexBytes' | 'queries' | 'latency'> | undefined
    const target = stored[corpus.findIndex(spec => spec.workspace === 0)]!
    const probe = queries.find(query => query.kind === 'rare word') ?? queries[0]!

    for (let round = 0; round < ROUNDS; round += 1) {
      const web = await startWeb(plugin, { cwd })
      const booted = performance.now()
      boots.plugin.push(web.bootMs)
      try {
        if (round === 0) {
          const before = groupUsage(web.pid)
          let ready = 0
          const built = (async () => {
            while (!(await status(web)).ready) await sleep(100)
            ready = performance.now()
          })()
          const during = await observe(web, built)
          const after = groupUsage(web.pid)
          const buildMs = ready - booted
          await sleep(5_000)
          const settled = groupUsage(web.pid).rssBytes
          const idle = await idleApi(web, 100)
          await post(`${web.url}/dsh-sessions/settings`, { scope: 'all' })
          const results: NonNullable<typeof figures>['queries'][number][] = []
          const all: number[] = []
          for (const query of queries) {
            const first = await post(`${web.url}/dsh-sessions/candidates`, { sessionId: target.id, query: query.query })
            const found = new Set((first.json.candidates as { sessionId: string }[]).map(candidate => candidate.sessionId))
            const expected = new Set(query.expected.map(n => stored[n]!.id).filter(id => id !== target.id))
            const exact = expected.size > 50 ? found.size === 50 && [...found].every(id => expected.has(id)) : found.size === expected.size && [...expected].every(id => found.has(id))
            const samples: number[] = []
            for (let run = 0; run < options.runs; run += 1) samples.push((await post(`${web.url}/dsh-sessions/candidates`, { sessionId: target.id, query: query.query })).ms)
            all.push(...samples)
            results.push({ kind: query.kind, query: query.query, expected: expected.size, found: found.size, exact, latency: spread(samples) })
          }
          figures = {
            buildMs,
            buildCores: { plugin: (after.cpuSeconds - before.cpuSeconds) / (buildMs / 1000), bare: 0 },
            apiIdle: spread(idle),
            apiDuringBuild: spread(during.api),
            apiBareSameSpan: { p50: 0, p95: 0 },
            rssMb: { bare: 0, barePeak: 0, pluginAfterBuild: settled / 2 ** 20, pluginPeak: during.peakRss / 2 ** 20 },
            indexBytes: statSync(join(pluginHome.dshHome, 'dsh-sessions', 'content-index.json')).size,
            queries: results,
            latency: spread(all),
          }
        } else {
          let readyMs = 0
          let answerMs = 0
          while (answerMs === 0) {
            if (readyMs === 0 && (await status(web)).ready) readyMs = performance.now() - booted
            const { json } = await post(`${web.url}/dsh-sessions/candidates`, { sessionId: target.id, query: probe.query })
            const found = (json.candidates as { sessionId: string }[]).map(candidate => candidate.sessionId)
            if (probe.expected.every(n => stored[n]!.id === target.id || found.includes(stored[n]!.id))) answerMs = performance.now() - booted
            else await sleep(50)
          }
          restart.push({ readyMs, answerMs })
        }
      } finally {
        await web.stop()
      }

      const bareWeb = await startWeb(bare, { cwd })
      const bareBooted = performance.now()
      boots.bare.push(bareWeb.bootMs)
      try {
        if (round === 0 && figures !== undefined) {
          // The same span after boot, under the same /api sampling, so both processes serve the same requests.
          const before = groupUsage(bareWeb.pid)
          const span = figures.buildMs
          const during = await observe(bareWeb, sleep(Math.max(0, span - (performance.now() - bareBooted))))
          const peak = during.peakRss
          const after = groupUsage(bareWeb.pid)
          await sleep(5_000)
          figures = {
            ...figures,
            apiBareSameSpan: spread(during.api),
            buildCores: { ...figures.buildCores, bare: (after.cpuSeconds - before.cpuSeconds) / (figures.buildMs / 1000) },
            rssMb: { ...figures.rssMb, bare: groupUsage(bareWeb.pid).rssBytes / 2 ** 20, barePeak: peak / 2 ** 20 },
          }
        }
      } finally {
        await bareWeb.stop()
      }
    }
    if (figures === undefined) throw new Error('no figures')
    return {
      sessions: options.sessions,
      workspaces: options.workspaces,
      turns: corpus.reduce((sum, spec) => sum + spec.turns.length, 0),
      storeBytes: directorySize(join(bareHome.dshHome, 'sessions')),
      bootMs: boots,
      restart,
      ...figures,
    }
  } finally {
    await model.stop()
    for (const home of homes) home.remove()
  }
}

/**
 * The figures as printed lines.
 * @param figures - the measured figures.
 * @returns markdown lines.
 */
export function contentReport(figures: ContentFigures): string[] {
  const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`)
  const pair = (value: Spread) => `${ms(value.p50)} / ${ms(value.p95)}`
  const median = (values: readonly number[]) => percentile([...values], 0.5)
  const lines = [
    `content search at ${figures.sessions} sessions, ${figures.workspaces} workspaces, ${figures.turns} turns (logs: ${(figures.storeBytes / 2 ** 20).toFixed(1)} MB)`,
    `dsh web boot, bare / with the plugin, ${figures.bootMs.bare.length} rounds (round 1 cold): ${figures.bootMs.bare.map(ms).join(', ')} / ${figures.bootMs.plugin.map(ms).join(', ')}; median added ${((median(figures.bootMs.plugin) / median(figures.bootMs.bare) - 1) * 100).toFixed(1)} % (target ≤ 10 %)`,
    `cold index build, boot to ready: ${ms(figures.buildMs)} (target ≤ 60 s); processor use over that span: with the plugin ${(figures.buildCores.plugin * 100).toFixed(0)} % of one core, bare host ${(figures.buildCores.bare * 100).toFixed(0)} %, added ${((figures.buildCores.plugin - figures.buildCores.bare) * 100).toFixed(0)} % (target ≤ 50 %)`,
    `host /api (agentPreset.list) p50 / p95: idle ${pair(figures.apiIdle)}; during the build ${pair(figures.apiDuringBuild)}; p95 added ${((figures.apiDuringBuild.p95 / figures.apiIdle.p95 - 1) * 100).toFixed(0)} % (target ≤ 20 %); the bare host over the same span after its boot ${pair(figures.apiBareSameSpan)}`,
    `resident memory: bare ${figures.rssMb.bare.toFixed(0)} MB (peak over the same span ${figures.rssMb.barePeak.toFixed(0)} MB); with the plugin after the build ${figures.rssMb.pluginAfterBuild.toFixed(0)} MB, peak during it ${figures.rssMb.pluginPeak.toFixed(0)} MB; added after ${(figures.rssMb.pluginAfterBuild - figures.rssMb.bare).toFixed(0)} MB (target ≤ 150), at peak ${(figures.rssMb.pluginPeak - figures.rssMb.barePeak).toFixed(0)} MB (target ≤ 250)`,
    `saved index: ${(figures.indexBytes / 2 ** 20).toFixed(1)} MB`,
    `after a restart, boot to restored index / to the first right content answer: ${figures.restart.map(run => `${ms(run.readyMs)} / ${ms(run.answerMs)}`).join('; ')} (target ≤ 5 s)`,
    `content queries through the candidates route (scope all), all kinds p50 / p95: ${pair(figures.latency)} (target p95 ≤ 50 ms)`,
    '| kind | query | sessions that match | answered | exact | p50 / p95 |',
    '| --- | --- | --- | --- | --- | --- |',
    ...figures.queries.map(query => `| ${query.kind} | ${query.query} | ${query.expected} | ${query.found} | ${query.exact ? 'yes' : 'NO'} | ${pair(query.latency)} |`),
  ]
  return lines
}
