/**
 * `npm run bench`: the candidates route against the official candidates call,
 * through the real dsh 0.1.0-rc.8 web host, on a store of 2,000 persisted
 * titled sessions over 20 workspaces; and the pre-step cost of resolving one
 * `@Title` mention against `prepare()` alone; content search on a store of
 * generated conversations, against the bare host in the same run (see
 * `bench-content.ts`); the sidebar's search against the official provider
 * enabled through a patch layer, on one store (see `bench-sidebar.ts`); part
 * references against whole-session ones (see `bench-parts.ts`).
 * Prints p50/p95 and ratios.
 *
 * The per-id routes at 2,000 and 20,000 sessions: `--only since` (see `bench-since.ts`).
 *
 *   npm run bench [-- --sessions 2000 --workspaces 20 --official-runs 5 --runs 100 --only content|layouts|hostile|tools|sidebar|parts|since --corpus realistic|small]
 */
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { type DshOptions, dshPlugin, startWeb, type WebProcess } from '../dev/dsh-process.ts'
import { createHome } from '../dev/home.ts'
import { ensureHost, hostDir } from '../dev/pinned-host.ts'
import { startModel } from '../dev/stand-in-model.ts'
import { packPlugin } from '../dev/plugin-tarball.ts'
import { percentile } from '../dev/percentile.ts'
import { spreadSessions, writeSessionStore } from '../dev/session-store.ts'
import { contentReport, measureContentSearch } from './bench-content.ts'
import { measureSidebar, sidebarReport } from './bench-sidebar.ts'
import { type HostileFigures, measureHostilePreStep, measureHostileRoute, measureOfficialParser } from './bench-hostile.ts'
import { measureParts, partsReport } from './bench-parts.ts'
import { measurePreStep } from './bench-pre-step.ts'
import { measureReadOnce } from './bench-read-once.ts'
import { measureSessionTools, toolsReport } from './bench-tools.ts'
import { measureSince, sinceReport } from './bench-since.ts'
import { measureTti } from './bench-tti.ts'
import { layoutsReport, measureLayouts } from './bench-layouts.ts'

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '2000' },
    workspaces: { type: 'string', default: '20' },
    'official-runs': { type: 'string', default: '5' },
    runs: { type: 'string', default: '100' },
    only: { type: 'string' },
    corpus: { type: 'string', default: 'realistic' },
    layouts: { type: 'string' },
    'query-sessions': { type: 'string' },
  },
})
const SESSIONS = Number(values.sessions)
const WORKSPACES = Number(values.workspaces)
const OFFICIAL_RUNS = Number(values['official-runs'])
const RUNS = Number(values.runs)
const QUERIES = [['empty', ''], ['one letter', 'p'], ['five letters', 'grape']] as const

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`
}

async function timedPost(url: string, body: unknown): Promise<{ ms: number; json: any }> {
  const started = performance.now()
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const json = await res.json()
  const elapsed = performance.now() - started
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(json)}`)
  return { ms: elapsed, json }
}

function official(web: WebProcess, sessionId: string, query: string) {
  return timedPost(`${web.url}/api/sessionReferenceResolver/candidates`, {
    type: 'client-request', rpcId: crypto.randomUUID(), method: 'sessionReferenceResolver/candidates',
    payload: { args: { agentId: sessionId, query } },
  })
}

function ours(web: WebProcess, sessionId: string, query: string) {
  return timedPost(`${web.url}/dsh-sessions/candidates`, { sessionId, query })
}

const hostBin = await ensureHost()
if (values.only === 'tools') {
  const figures = await measureSessionTools(SESSIONS, WORKSPACES, 20)
  console.log('')
  for (const line of toolsReport(figures)) console.log(line)
  process.exit(0)
}
if (values.only === 'layouts') {
  const figures = await measureLayouts({
    sessions: SESSIONS,
    workspaces: WORKSPACES,
    runs: 30,
    ...(values.layouts === undefined ? {} : { layouts: values.layouts.split(',').map(Number) }),
    ...(values['query-sessions'] === undefined ? {} : { querySessions: Number(values['query-sessions']) }),
  })
  console.log('')
  for (const line of layoutsReport(figures)) console.log(line)
  process.exit(0)
}
if (values.only === 'sidebar') {
  const tarball = packPlugin()
  const figures = await measureSidebar(hostBin, tarball, { sessions: SESSIONS, workspaces: WORKSPACES, runs: 20, officialRuns: 3 })
  rmSync(dirname(tarball), { recursive: true, force: true })
  console.log('')
  for (const line of sidebarReport(figures)) console.log(line)
  process.exit(0)
}
if (values.only === 'parts') {
  const tarball = packPlugin()
  const figures = await measureParts(hostBin, tarball, Math.min(RUNS, 30))
  rmSync(dirname(tarball), { recursive: true, force: true })
  console.log('')
  for (const line of partsReport(figures)) console.log(line)
  process.exit(0)
}
if (values.only === 'since') {
  const tarball = packPlugin()
  // `--sessions` may list sizes, `2000,20000`; each size's row is printed as soon as it is measured.
  const sizes = values.sessions.split(',').map(Number)
  const figures = await measureSince(hostBin, tarball, sizes, Math.min(RUNS, 10), row => { console.log(sinceReport([row]).at(-1)) })
  rmSync(dirname(tarball), { recursive: true, force: true })
  console.log('')
  for (const line of sinceReport(figures)) console.log(line)
  process.exit(0)
}
if (values.only === 'content') {
  const tarball = packPlugin()
  const figures = await measureContentSearch(hostBin, tarball, { sessions: SESSIONS, workspaces: WORKSPACES, runs: 30, corpus: values.corpus === 'small' ? 'small' : 'realistic' })
  rmSync(dirname(tarball), { recursive: true, force: true })
  console.log('')
  for (const line of contentReport(figures)) console.log(line)
  process.exit(0)
}
/** The hostile-text table: the route in a real host, the pre-step in process, and the official parser alone on the same text. */
function hostileReport(route: readonly HostileFigures[], step: readonly HostileFigures[], parser: readonly HostileFigures[]): string[] {
  return [
    `64 KiB texts naming unknown sessions (target p95 ≤ 100 ms): preflight route in the real host / pre-step at ${SESSIONS} sessions (the official step included) / the official parser alone, p50 / p95`,
    '| text | preflight route | pre-step | official parser alone |',
    '| --- | --- | --- | --- |',
    ...route.map((figures, n) => `| ${figures.kind} | ${ms(figures.p50)} / ${ms(figures.p95)} | ${ms(step[n]!.p50)} / ${ms(step[n]!.p95)} | ${ms(parser[n]!.p50)} / ${ms(parser[n]!.p95)} |`),
  ]
}

const home = createHome()
const model = await startModel()
if (values.only === 'hostile') {
  const options: DshOptions = { home, hostBin, modelUrl: model.url, apiKey: 'sk-stand-in' }
  const store = await writeSessionStore(hostDir(), home, spreadSessions(home, SESSIONS, WORKSPACES), { titleCache: true })
  const tarball = packPlugin()
  dshPlugin(options, ['add', tarball])
  const target = store.find(session => session.cwd.endsWith('ws-00'))!
  const web = await startWeb(options, { cwd: dirname(target.cwd) })
  const route = await measureHostileRoute(web.url, target.id, 30)
  await web.stop()
  const step = await measureHostilePreStep(SESSIONS, WORKSPACES, 30)
  const parser = measureOfficialParser(5)
  rmSync(dirname(tarball), { recursive: true, force: true })
  await model.stop()
  home.remove()
  console.log('')
  for (const line of hostileReport(route, step, parser)) console.log(line)
  process.exit(0)
}
const options: DshOptions = { home, hostBin, modelUrl: model.url, apiKey: 'sk-stand-in' }
try {
  let started = performance.now()
  const store = await writeSessionStore(hostDir(), home, spreadSessions(home, SESSIONS, WORKSPACES), { titleCache: false })
  console.log(`store: ${SESSIONS} sessions over ${WORKSPACES} workspaces written in ${ms(performance.now() - started)}`)
  const tarball = packPlugin()
  dshPlugin(options, ['add', tarball])
  const inFirstWorkspace = store.filter(session => session.cwd.endsWith('ws-00'))
  const target = inFirstWorkspace[Math.floor(inFirstWorkspace.length / 2)]!
  const oldest = store[0]!

  let web = await startWeb(options, { cwd: dirname(target.cwd) })
  console.log(`dsh web boot (cold projection cache): ${ms(web.bootMs)}`)
  const first = await ours(web, target.id, '')
  console.log(`first candidates request after boot (cold cache): ${ms(first.ms)}`)
  await timedPost(`${web.url}/dsh-sessions/settings`, { scope: 'all' })
  console.log('scope set to all: both calls rank every session, so their results must be equal')
  started = performance.now()
  for (;;) {
    const { json } = await ours(web, target.id, oldest.title)
    if (json.candidates.some((candidate: { sessionId: string }) => candidate.sessionId === oldest.id)) break
    await new Promise(resolve => setTimeout(resolve, 250))
  }
  console.log(`background title repair of the cold cache finished after ${ms(performance.now() - started)}`)

  const rows: string[] = []
  for (const [name, query] of QUERIES) {
    const officialSamples: number[] = []
    let officialIds: string[] = []
    for (let run = 0; run < OFFICIAL_RUNS; run += 1) {
      const result = await official(web, target.id, query)
      officialSamples.push(result.ms)
      officialIds = result.json.result.value.map((candidate: { sessionId: string }) => candidate.sessionId)
    }
    const oursIds = (await ours(web, target.id, query)).json.candidates.map((candidate: { sessionId: string }) => candidate.sessionId)
    if (JSON.stringify(oursIds) !== JSON.stringify(officialIds)) throw new Error(`results differ for ${JSON.stringify(query)}`)
    const oursSamples: number[] = []
    for (let run = 0; run < 5; run += 1) await ours(web, target.id, query)
    for (let run = 0; run < RUNS; run += 1) oursSamples.push((await ours(web, target.id, query)).ms)
    const o50 = percentile(officialSamples, 0.5)
    const o95 = percentile(officialSamples, 0.95)
    const p50 = percentile(oursSamples, 0.5)
    const p95 = percentile(oursSamples, 0.95)
    rows.push(`| ${name} (${JSON.stringify(query)}) | ${ms(o50)} / ${ms(o95)} | ${ms(p50)} / ${ms(p95)} | ${(o50 / p50).toFixed(0)}× / ${(o95 / p95).toFixed(0)}× |`)
  }
  const hostileRoute = await measureHostileRoute(web.url, target.id, 30)
  // Whole-draft preflight with 3 session chips: the first check of 10 different drafts (sources read from
  // storage), then the same draft again (sources unchanged, served from the read-once cache).
  const others = inFirstWorkspace.filter(session => session.id !== target.id)
  const draftOf = (sources: typeof others) => ({
    sessionId: target.id,
    text: `compare ${sources.map(source => `@[${source.title}](dsh-session:${Buffer.from(JSON.stringify(source.id)).toString('base64url')})`).join(' ')}`,
    chips: sources.map(source => source.id),
  })
  const coldPreflight: number[] = []
  for (let n = 0; n < 10; n += 1) {
    const { ms: elapsed, json } = await timedPost(`${web.url}/dsh-sessions/preflight`, draftOf(others.slice(3 * n, 3 * n + 3)))
    if (json.ok !== true) throw new Error(`preflight refused: ${JSON.stringify(json)}`)
    coldPreflight.push(elapsed)
  }
  const warmPreflight: number[] = []
  for (let n = 0; n < RUNS; n += 1) warmPreflight.push((await timedPost(`${web.url}/dsh-sessions/preflight`, draftOf(others.slice(0, 3)))).ms)
  await web.stop()
  web = await startWeb(options, { cwd: dirname(target.cwd) })
  const warmFirst = await ours(web, target.id, 'p')
  const labelled = warmFirst.json.candidates.every((candidate: { label: string }) => candidate.label.startsWith('Topic '))
  await web.stop()

  const preStep = await measurePreStep(SESSIONS, WORKSPACES, RUNS)
  const hostileStep = await measureHostilePreStep(SESSIONS, WORKSPACES, 30)
  const readOnce = await measureReadOnce(SESSIONS, 30)
  const tti = await measureTti(hostBin, tarball, 15)
  const content = await measureContentSearch(hostBin, tarball, { sessions: SESSIONS, workspaces: WORKSPACES, runs: 30 })
  const sidebar = await measureSidebar(hostBin, tarball, { sessions: SESSIONS, workspaces: WORKSPACES, runs: 20, officialRuns: 3 })
  rmSync(dirname(tarball), { recursive: true, force: true })
  console.log('')
  console.log(`candidates at ${SESSIONS} sessions, ${WORKSPACES} workspaces (official runs: ${OFFICIAL_RUNS}, ours: ${RUNS})`)
  console.log('| query | official p50 / p95 | dsh-sessions p50 / p95 | ratio p50 / p95 |')
  console.log('| --- | --- | --- | --- |')
  for (const row of rows) console.log(row)
  console.log(`dsh web boot (warm projection cache): ${ms(web.bootMs)}; first candidates request after boot: ${ms(warmFirst.ms)} (titles ${labelled ? 'all present' : 'missing'})`)
  console.log(`web UI time to interactive (navigation to rendered composer, fresh profile, 15 loads each): bare p50 ${ms(tti.bare.p50)} / p95 ${ms(tti.bare.p95)}; with the plugin p50 ${ms(tti.plugin.p50)} / p95 ${ms(tti.plugin.p95)}; added at p50 ${((tti.plugin.p50 / tti.bare.p50 - 1) * 100).toFixed(1)} %`)
  for (const line of hostileReport(hostileRoute, hostileStep, measureOfficialParser(5))) console.log(line)
  console.log(`whole-draft preflight with 3 session chips in the real host (target p95 ≤ 150 ms): sources read from storage p50 ${ms(percentile(coldPreflight, 0.5))} / p95 ${ms(percentile(coldPreflight, 0.95))} (10 drafts); sources cached p50 ${ms(percentile(warmPreflight, 0.5))} / p95 ${ms(percentile(warmPreflight, 0.95))} (${RUNS} runs)`)
  console.log(`pre-step at ${SESSIONS} cold sessions, host JSONL storage (target: cited adds ≤ 5 ms at p95): no references p50 ${ms(readOnce.stepPlain.p50)} / p95 ${ms(readOnce.stepPlain.p95)}; 3 cached sources p50 ${ms(readOnce.stepCited.p50)} / p95 ${ms(readOnce.stepCited.p95)}; added p95 ${ms(readOnce.stepCited.p95 - readOnce.stepPlain.p95)}`)
  console.log(`host work from Send to the model request, 3 chips of ${(readOnce.sourceBytes / 1e6).toFixed(1)} MB sources (preflight measuring each, then the pre-step): every read from storage p50 ${ms(readOnce.uncached.p50)} / p95 ${ms(readOnce.uncached.p95)}; read once p50 ${ms(readOnce.cached.p50)} / p95 ${ms(readOnce.cached.p95)}`)
  for (const line of contentReport(content)) console.log(line)
  for (const line of sidebarReport(sidebar)) console.log(line)
  console.log(`pre-step with one @Title mention: prepare() alone p50 ${ms(preStep.prepare.p50)} / p95 ${ms(preStep.prepare.p95)}; resolution + prepare() p50 ${ms(preStep.resolved.p50)} / p95 ${ms(preStep.resolved.p95)}; added p95 ${ms(preStep.resolved.p95 - preStep.prepare.p95)}`)
} finally {
  await model.stop()
  home.remove()
}
process.exit(0)
