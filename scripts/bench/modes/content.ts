/**
 * Content search at scale in the real host, side by side with the bare host
 * in one run. A store of realistic conversations (`realisticCorpus`: real
 * text of the host install, English, Chinese, mixed and some Japanese, 5–80
 * turns with code, lists, and tool calls whose output is in the log) is
 * served by two homes with the same logs: one bare, one with the plugin. Boots alternate, plugin then
 * bare, five rounds: the first plugin boot builds the index cold, the later
 * ones restore it from its file. Reported: boot times of both; cold build
 * time, its processor share and peak memory; the host's own `/api` latency
 * during the build against idle; resident memory of both after the build;
 * the saved index's size; ready-after-restart; and content query latency
 * through the candidates route, with every answer checked against the
 * corpus's own matching rules (every true match answered, or a full answer
 * of 50 where there are more). Every wait has a limit and fails with what it was waiting for.
 */
import { cpSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { benchQueries, CORPORA, type ConversationSpec, type CorpusName, queryMatcher, sessionText } from '../../../dev/corpus.ts'
import type { WebProcess } from '../../../dev/dsh-process.ts'
import { launchBrowser } from '../../../dev/browser.ts'
import { openApp, send, SIDEBAR_ROWS, startSessionWithTurn } from '../../../dev/web-ui.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { dropPageCache } from '../../../dev/page-cache.ts'
import { groupUsage } from '../../../dev/process-usage.ts'
import { corpusSessionStream, type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import type { Stack } from '../../../dev/stack.ts'
import { ms, renderTable, note, pair, type Percentiles, percentiles, type Table, table } from '../figures.ts'
import type { BenchContext, BenchMode } from '../mode.ts'

/** What {@link measureContentSearch} reports. */
export interface ContentFigures {
  readonly corpus: CorpusName
  readonly sessions: number
  readonly workspaces: number
  readonly turns: number
  readonly messages: number
  /** Bytes of the logs on disk (the host compresses them), and of the searchable text in them. */
  readonly storeBytes: number
  readonly textBytes: number
  readonly writeMs: number
  readonly bootMs: { readonly bare: readonly number[]; readonly plugin: readonly number[] }
  /** Whether the page cache was dropped before every boot of either host (see `dev/page-cache.ts`). */
  readonly coldBoots: boolean
  readonly buildMs: number
  /** Boot to the first log the build read: the build waits for the session catalog's first listing of the store. */
  readonly firstReadMs: number
  /** Processor time of the plugin's host during the build over the wall time, and of the bare host over the same span after its boot, both under the same `/api` sampling. */
  readonly buildCores: { readonly plugin: number; readonly bare: number }
  readonly apiIdle: Percentiles
  readonly apiDuringBuild: Percentiles
  /** The bare host's `/api` over the same span after its boot. */
  readonly apiBareSameSpan: Percentiles
  readonly rssMb: { readonly bare: number; readonly pluginAfterBuild: number; readonly pluginPeak: number; readonly barePeak: number }
  readonly indexBytes: number
  /** Each file of the plugin's folder and its bytes, after the build. */
  readonly folderFiles: Readonly<Record<string, number>>
  /** Boot to a restored index, and to the first right answer to a content query, per restart. */
  readonly restart: readonly { readonly readyMs: number; readonly answerMs: number }[]
  /** Per query: through the `@` route (`candidates`) its answer, exactness and latency; through the sidebar's route (`search`) its latency; and how many excerpts of the `@` answer had their first mark past their 20th character. */
  readonly queries: readonly { readonly kind: string; readonly query: string; readonly expected: number; readonly found: number; readonly exact: boolean; readonly latency: Percentiles; readonly sidebar: Percentiles; readonly lateMarks: number }[]
  readonly latency: Percentiles
  readonly sidebarLatency: Percentiles
  /** Per new message sent in a live session: milliseconds from its send to its first appearance in a content answer. */
  readonly findableMs: readonly number[]
  /** The index's bytes on disk (file and write-ahead log) sampled every 100 ms during the cold build: the largest total and the largest write-ahead log seen; and both 5 s after the build. */
  readonly disk: { readonly peakBytes: number; readonly peakWalBytes: number; readonly afterBytes: number; readonly afterWalBytes: number }
  /** Requests naming ids the index does not hold, after the build: a preflight naming 32 made-up ids, and a candidates call whose citing session is made up; per request the wall time and the host's processor time (every thread of `dsh web`). */
  readonly madeUpIds: { readonly preflight: Percentiles; readonly preflightCpuMs: number; readonly candidates: Percentiles; readonly candidatesCpuMs: number }
}

/** Made-up ids one preflight of the made-up-id figure names. */
const MADE_UP_IDS = 32

/** A well-formed session id no store holds. */
const madeUpId = (n: number): string => `session-ffffffff-0000-4000-8000-${String(n).padStart(12, '0')}`

/**
 * Times requests that name ids the index does not hold, with the host's
 * processor time per request: the plugin looks none of them up in storage
 * and lists nothing for them.
 */
async function madeUpIdCost(web: WebProcess, citing: string, runs: number): Promise<ContentFigures['madeUpIds']> {
  const text = Array.from({ length: MADE_UP_IDS }, (_, n) => madeUpId(n)).join(' ')
  const cpuMs = async (call: () => Promise<number>): Promise<{ wall: number[]; cpuMs: number }> => {
    const wall: number[] = []
    const before = groupUsage(web.pid).cpuSeconds
    for (let run = 0; run < runs; run += 1) wall.push(await call())
    return { wall, cpuMs: (groupUsage(web.pid).cpuSeconds - before) * 1000 / runs }
  }
  const preflight = await cpuMs(async () => (await post(`${web.url}/dsh-sessions/preflight`, { citingSessionId: citing, text })).ms)
  let n = 0
  const candidates = await cpuMs(async () => (await post(`${web.url}/dsh-sessions/candidates`, { citingSessionId: madeUpId(1_000 + n++), query: 'plan' })).ms)
  return { preflight: percentiles(preflight.wall), preflightCpuMs: preflight.cpuMs, candidates: percentiles(candidates.wall), candidatesCpuMs: candidates.cpuMs }
}

/** Bytes of the index's file and of its write-ahead log. */
function indexFiles(folder: string): { file: number; wal: number } {
  const size = (name: string): number => {
    try {
      return statSync(join(folder, name)).size
    } catch {
      return 0
    }
  }
  return { file: size('content-index.sqlite'), wal: size('content-index.sqlite-wal') }
}

/** Sessions the bench queries are picked from (their true matches are counted over the whole corpus). */
const QUERY_SESSIONS = 2_000

/** New messages sent to measure how soon each is found. */
const NEW_MESSAGES = 5

/**
 * Sends new messages in a live session of the plugin's host through the web
 * UI, and times each from its send until a content query from another session
 * finds it (scope all).
 */
async function newMessageFindable(web: WebProcess, targetId: string): Promise<number[]> {
  const browser = await launchBrowser()
  try {
    await openApp(browser.page, web.url)
    await startSessionWithTurn(browser.page, 'ws-00', 'A fresh session for the bench.')
    const times: number[] = []
    for (let n = 0; n < NEW_MESSAGES; n += 1) {
      const word = `zyxquetzal${n}bench`
      const sent = performance.now()
      await send(browser.page, `Then we talked about ${word} at length.`)
      await waitUntil(`the new message "${word}" to be found`, 30_000, 20, async () => {
        const { json } = await post(`${web.url}/dsh-sessions/candidates`, { citingSessionId: targetId, query: word })
        return (json.candidates as { snippet?: unknown }[]).some(candidate => candidate.snippet !== undefined)
      })
      times.push(performance.now() - sent)
      await browser.page.getByText(`You said: Then we talked about ${word}`, { exact: false }).first().waitFor({ timeout: 30_000 })
    }
    return times
  } finally {
    await browser.close()
  }
}

interface Status {
  ready: boolean
  start: string
  reads: number
  sessions: number
}

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

/** Longest the cold build may take before the bench fails. */
const BUILD_LIMIT_MS = 30 * 60_000
/** Longest a restart may take to answer a content query right before the bench fails. */
const RESTART_LIMIT_MS = 120_000
/** Longest a boot of either host may take: at 20,000 realistic sessions one boot printed no URL within a minute. */
const BOOT_LIMIT_MS = 600_000
/** Longest the bare host is observed for its side of the build's figures. */
const BARE_SPAN_MS = 180_000
/** The candidates route's cap, `candidateLimit`'s default. */
const CAP = 50

/**
 * Waits until `check` gives true, polling every `everyMs`.
 * @param what - what is waited for, for the failure's message.
 * @param limitMs - longest wait.
 * @throws when the limit passes, saying what was waited for and the last state seen.
 */
async function waitUntil(what: string, limitMs: number, everyMs: number, check: () => Promise<boolean | string>): Promise<void> {
  const until = performance.now() + limitMs
  let last: boolean | string = false
  while ((last = await check()) !== true) {
    if (performance.now() > until) throw new Error(`bench: ${what} did not happen within ${Math.round(limitMs / 1000)} s${typeof last === 'string' ? ` (${last})` : ''}`)
    await sleep(everyMs)
  }
}

/** Whether an answer is right: every session holding the query as typed (the corpus's own rules) answered, when there are at most {@link CAP}; else a full answer. Sessions holding other forms of its words, its Chinese words apart, or only some of them (marked with what they lack) may follow. */
function isExact(found: ReadonlySet<string>, expected: ReadonlySet<string>): boolean {
  return expected.size > CAP ? found.size === CAP : [...expected].every(id => found.has(id))
}

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
  const { ms: elapsed, status } = await post(`${web.url}/api/agentPreset.list`, { type: 'client-request', rpcId: crypto.randomUUID(), method: 'agentPreset.list', payload: {} })
  if (status !== 200) throw new Error(`agentPreset.list answered ${status}`)
  return elapsed
}

async function status(web: WebProcess): Promise<Status> {
  return (await fetch(`${web.url}/dsh-sessions/content-index`)).json() as Promise<Status>
}

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

/** Calls of the idle host's `/api` after the build: its p95 over 100 calls moved by half from run to run (6.2 to 9.8 ms at 2,000 sessions), over more than the build's own figure did. */
const IDLE_CALLS = 400

async function idleApi(web: WebProcess, calls: number): Promise<number[]> {
  const samples: number[] = []
  for (let n = 0; n < calls; n += 1) {
    samples.push(await hostCall(web))
    await sleep(20)
  }
  return samples
}

/** Each entry of a folder and its bytes. */
function filesOf(folder: string): Record<string, number> {
  return Object.fromEntries(readdirSync(folder).map(name => [name, directorySize(join(folder, name))]))
}

function directorySize(path: string): number {
  const info = statSync(path)
  if (!info.isDirectory()) return info.size
  let total = 0
  for (const entry of readdirSync(path)) total += directorySize(join(path, entry))
  return total
}

/**
 * Runs the comparison on two stacks of the bench's set-up: the bare host,
 * whose home gets the store, and the host with the plugin, whose home gets a
 * copy of the same logs; both share one stand-in model and boot in the bare
 * home's first workspace, where the sessions' folders are.
 * @param context - the bench's set-up.
 * @param options - store size and query repetitions.
 * @returns the figures.
 */
export async function measureContentSearch(context: BenchContext, options: { sessions: number; workspaces: number; runs: number; corpus?: CorpusName }): Promise<ContentFigures> {
  // The corpus is generated as it is read, three times (queries, their true matches, the store), never held whole.
  const generate = (): Iterable<ConversationSpec> => CORPORA[options.corpus ?? 'realistic'](hostDir(), { sessions: options.sessions, workspaces: options.workspaces })
  const sample: ConversationSpec[] = []
  for (const spec of generate()) {
    if (sample.length >= QUERY_SESSIONS) break
    sample.push(spec)
  }
  // Queries are picked from the first sessions; their true matches are counted over every session.
  const picked = benchQueries(sample, { perKind: 3 })
  sample.length = 0
  const matcher = queryMatcher(picked.map(query => query.query))
  let turns = 0
  let textBytes = 0
  for (const spec of generate()) {
    turns += spec.turns.length
    textBytes += Buffer.byteLength(sessionText(spec))
    matcher.add(spec)
  }
  const queries = picked.map((query, k) => ({ ...query, expected: matcher.found[k]! }))
  let stored: StoredSession[] = []
  let writeMs = 0
  const bare = await context.stack({
    boot: false,
    bootLimitMs: BOOT_LIMIT_MS,
    beforeBoot: async home => {
      const writing = performance.now()
      stored = await writeSessionStore(hostDir(), home, corpusSessionStream(home, generate(), options.workspaces), { titleCache: false, count: options.sessions })
      writeMs = performance.now() - writing
    },
    cwd: home => join(home.home, 'ws-00'),
  })
  let plugin: Stack | undefined
  try {
    plugin = await context.stack({
      tarball: context.tarball(),
      model: bare.model,
      boot: false,
      bootLimitMs: BOOT_LIMIT_MS,
      beforeBoot: async home => { cpSync(join(bare.home.dshHome, 'sessions'), join(home.dshHome, 'sessions'), { recursive: true }) },
      cwd: () => join(bare.home.home, 'ws-00'),
    })
    // Workspaces go round-robin: the first session is in the first workspace.
    const targetAt = 0
    const boots = { bare: [] as number[], plugin: [] as number[] }
    const restart: { readyMs: number; answerMs: number }[] = []
    let figures: Pick<ContentFigures, 'buildMs' | 'firstReadMs' | 'buildCores' | 'apiIdle' | 'apiDuringBuild' | 'apiBareSameSpan' | 'rssMb' | 'indexBytes' | 'folderFiles' | 'queries' | 'latency' | 'sidebarLatency' | 'findableMs' | 'disk' | 'madeUpIds'> | undefined
    const target = stored[targetAt]!
    const probe = queries.find(query => query.kind === 'rare word') ?? queries[0]!

    // Every boot of either host is cold where the page cache can be dropped: each reads its copy of the logs from disk, whichever read last.
    let coldBoots = true
    for (let round = 0; round < ROUNDS; round += 1) {
      coldBoots = dropPageCache() && coldBoots
      const web = await plugin.start()
      const booted = performance.now()
      boots.plugin.push(web.bootMs)
      try {
        if (round === 0) {
          const before = groupUsage(web.pid)
          let ready = 0
          let firstRead = 0
          const folder = join(plugin.home.dshHome, 'dsh-sessions')
          let peakBytes = 0
          let peakWalBytes = 0
          const built = waitUntil('the cold index build', BUILD_LIMIT_MS, 100, async () => {
            const files = indexFiles(folder)
            peakBytes = Math.max(peakBytes, files.file + files.wal)
            peakWalBytes = Math.max(peakWalBytes, files.wal)
            const now = await status(web)
            if (firstRead === 0 && now.reads > 0) firstRead = performance.now()
            return now.ready || `${now.sessions} sessions indexed, ${now.reads} logs read`
          }).then(() => { ready = performance.now() })
          const during = await observe(web, built)
          const after = groupUsage(web.pid)
          const buildMs = ready - booted
          await sleep(5_000)
          const settled = groupUsage(web.pid).rssBytes
          const afterBuild = indexFiles(folder)
          const idle = await idleApi(web, IDLE_CALLS)
          await post(`${web.url}/dsh-sessions/settings`, { scope: 'all' })
          const results: NonNullable<typeof figures>['queries'][number][] = []
          const all: number[] = []
          const allSidebar: number[] = []
          for (const query of queries) {
            const first = await post(`${web.url}/dsh-sessions/candidates`, { citingSessionId: target.id, query: query.query })
            const candidates = first.json.candidates as { sessionId: string; label: string; cwd?: string; snippet?: { marks: [number, number][] } }[]
            const found = new Set(candidates.map(candidate => candidate.sessionId))
            const lateMarks = candidates.filter(candidate => (candidate.snippet?.marks[0]?.[0] ?? 0) >= 20).length
            const expected = new Set(query.expected.map(n => stored[n]!.id).filter(id => id !== target.id))
            // The @ route lists first the sessions whose id, folder or label holds the typed text (the official rule), without an excerpt: each such answer is checked against that rule and counts as a true one.
            const typed = query.query.toLocaleLowerCase()
            for (const candidate of candidates) {
              if (candidate.snippet === undefined && [candidate.sessionId, candidate.cwd ?? '', candidate.label].some(key => key.toLocaleLowerCase().includes(typed))) expected.add(candidate.sessionId)
            }
            const exact = isExact(found, expected)
            const samples: number[] = []
            const sidebar: number[] = []
            for (let run = 0; run < options.runs; run += 1) {
              samples.push((await post(`${web.url}/dsh-sessions/candidates`, { citingSessionId: target.id, query: query.query })).ms)
              sidebar.push((await post(`${web.url}/dsh-sessions/search`, { query: query.query, limit: SIDEBAR_ROWS })).ms)
            }
            all.push(...samples)
            allSidebar.push(...sidebar)
            results.push({ kind: query.kind, query: query.query, expected: expected.size, found: found.size, exact, latency: percentiles(samples), sidebar: percentiles(sidebar), lateMarks })
          }
          figures = {
            buildMs,
            // A build that read no log (the status said ready first) counts as having read at its end.
            firstReadMs: (firstRead === 0 ? ready : firstRead) - booted,
            buildCores: { plugin: (after.cpuSeconds - before.cpuSeconds) / (buildMs / 1000), bare: 0 },
            apiIdle: percentiles(idle),
            apiDuringBuild: percentiles(during.api),
            apiBareSameSpan: percentiles([]),
            rssMb: { bare: 0, barePeak: 0, pluginAfterBuild: settled / 2 ** 20, pluginPeak: during.peakRss / 2 ** 20 },
            // The plugin's whole folder: the index file and its log, the session catalog and the kept snapshot tails.
            indexBytes: directorySize(join(plugin.home.dshHome, 'dsh-sessions')),
            folderFiles: filesOf(join(plugin.home.dshHome, 'dsh-sessions')),
            queries: results,
            latency: percentiles(all),
            sidebarLatency: percentiles(allSidebar),
            findableMs: await newMessageFindable(web, target.id),
            disk: { peakBytes, peakWalBytes, afterBytes: afterBuild.file + afterBuild.wal, afterWalBytes: afterBuild.wal },
            madeUpIds: await madeUpIdCost(web, target.id, options.runs),
          }
          // Each figure is printed as it is measured, so a later failure does not lose it.
          console.error(`[bench] round 1 with the plugin: ${JSON.stringify(figures)}`)
        } else {
          let readyMs = 0
          let answerMs = 0
          const expected = new Set(probe.expected.map(n => stored[n]!.id).filter(id => id !== target.id))
          await waitUntil(`a right answer to "${probe.query}" after restart ${round}`, RESTART_LIMIT_MS, 50, async () => {
            if (readyMs === 0 && (await status(web)).ready) readyMs = performance.now() - booted
            const { json, status: code } = await post(`${web.url}/dsh-sessions/candidates`, { citingSessionId: target.id, query: probe.query })
            if (code !== 200) return `the route answered ${code}`
            const found = new Set((json.candidates as { sessionId: string }[]).map(candidate => candidate.sessionId))
            if (!isExact(found, expected)) return `${found.size} found, ${expected.size} expected`
            answerMs = performance.now() - booted
            return true
          })
          // A right answer on the first poll comes before the status was seen ready: the status is then read until it is.
          if (readyMs === 0) {
            await waitUntil(`the restored index after restart ${round}`, RESTART_LIMIT_MS, 50, async () => (await status(web)).ready || 'not ready')
            readyMs = performance.now() - booted
          }
          restart.push({ readyMs, answerMs })
          console.error(`[bench] restart ${round}: ${JSON.stringify({ bootMs: web.bootMs, readyMs, answerMs })}`)
        }
      } finally {
        await plugin.halt()
      }

      coldBoots = dropPageCache() && coldBoots
      const bareWeb = await bare.start()
      const bareBooted = performance.now()
      boots.bare.push(bareWeb.bootMs)
      console.error(`[bench] bare boot ${round}: ${bareWeb.bootMs.toFixed(0)} ms`)
      try {
        if (round === 0 && figures !== undefined) {
          // The same span after boot, under the same /api sampling, so both processes serve the same requests.
          const before = groupUsage(bareWeb.pid)
          // The bare host's figures settle within minutes; a long build is sampled over its first {@link BARE_SPAN_MS}.
          const span = Math.min(figures.buildMs, BARE_SPAN_MS)
          const during = await observe(bareWeb, sleep(Math.max(0, span - (performance.now() - bareBooted))))
          const peak = during.peakRss
          const after = groupUsage(bareWeb.pid)
          await sleep(5_000)
          figures = {
            ...figures,
            apiBareSameSpan: percentiles(during.api),
            buildCores: { ...figures.buildCores, bare: (after.cpuSeconds - before.cpuSeconds) / (span / 1000) },
            rssMb: { ...figures.rssMb, bare: groupUsage(bareWeb.pid).rssBytes / 2 ** 20, barePeak: peak / 2 ** 20 },
          }
        }
      } finally {
        await bare.halt()
      }
    }
    if (figures === undefined) throw new Error('no figures')
    return {
      corpus: options.corpus ?? 'realistic',
      sessions: options.sessions,
      workspaces: options.workspaces,
      turns,
      messages: turns * 2,
      storeBytes: directorySize(join(bare.home.dshHome, 'sessions')),
      textBytes,
      writeMs,
      bootMs: boots,
      coldBoots,
      restart,
      ...figures,
    }
  } finally {
    await plugin?.stop()
    await bare.stop()
  }
}

/**
 * The figures as printed lines.
 * @param figures - the measured figures.
 * @returns markdown lines.
 */
export function contentReport(figures: ContentFigures): string[] {
  const median = (values: readonly number[]) => percentiles(values).p50
  const lines = [
    `content search at ${figures.sessions} ${figures.corpus} sessions, ${figures.workspaces} workspaces, ${figures.turns} turns, ${figures.messages} messages; logs on disk ${(figures.storeBytes / 2 ** 20).toFixed(1)} MB (compressed by the host), searchable text in them ${(figures.textBytes / 2 ** 20).toFixed(1)} MB; written in ${ms(figures.writeMs)}`,
    `dsh web boot, bare / with the plugin, ${figures.bootMs.bare.length} rounds (${figures.coldBoots ? 'every boot cold: the page cache dropped before each' : 'round 1 cold'}): ${figures.bootMs.bare.map(value => ms(value)).join(', ')} / ${figures.bootMs.plugin.map(value => ms(value)).join(', ')}; median added ${((median(figures.bootMs.plugin) / median(figures.bootMs.bare) - 1) * 100).toFixed(1)} % (target ≤ 10 %)`,
    `cold index build, boot to ready: ${ms(figures.buildMs)}, of which boot to the first log read (the session catalog's first listing) ${ms(figures.firstReadMs)} (targets: ≤ 10 min at 20,000 realistic sessions; at 2,000 no worse than the README); processor use over that span: with the plugin ${(figures.buildCores.plugin * 100).toFixed(0)} % of one core, bare host ${(figures.buildCores.bare * 100).toFixed(0)} %, added ${((figures.buildCores.plugin - figures.buildCores.bare) * 100).toFixed(0)} % (target ≤ 50 %)`,
    `host /api (agentPreset.list) p50 / p95: idle ${pair(figures.apiIdle)}; during the build ${pair(figures.apiDuringBuild)}; p95 added ${((figures.apiDuringBuild.p95 / figures.apiIdle.p95 - 1) * 100).toFixed(0)} % (target ≤ 20 %); the bare host over the same span after its boot ${pair(figures.apiBareSameSpan)}`,
    `resident memory: bare ${figures.rssMb.bare.toFixed(0)} MB (peak over the same span ${figures.rssMb.barePeak.toFixed(0)} MB); with the plugin after the build ${figures.rssMb.pluginAfterBuild.toFixed(0)} MB, peak during it ${figures.rssMb.pluginPeak.toFixed(0)} MB; added after ${(figures.rssMb.pluginAfterBuild - figures.rssMb.bare).toFixed(0)} MB, at peak ${(figures.rssMb.pluginPeak - figures.rssMb.barePeak).toFixed(0)} MB (target ≤ 200 at every moment)`,
    `the plugin's folder on disk (index, catalog, snapshot tails): ${(figures.indexBytes / 2 ** 20).toFixed(1)} MB, ${(figures.indexBytes / figures.storeBytes).toFixed(2)}× the logs, ${(figures.indexBytes / figures.textBytes).toFixed(2)}× the searchable text (target ≤ 1.0× the text); ${Object.entries(figures.folderFiles).map(([name, bytes]) => `${name} ${(bytes / 2 ** 20).toFixed(1)} MB`).join(', ')}`,
    `after a restart, boot to restored index / to the first right content answer: ${figures.restart.map(run => `${ms(run.readyMs)} / ${ms(run.answerMs)}`).join('; ')} (target ≤ 5 s)`,
    `content queries, all kinds p50 / p95 (target p95 ≤ 20 ms): through the @ route (candidates, scope all) ${pair(figures.latency)}; through the sidebar's route (search, limit 50) ${pair(figures.sidebarLatency)}`,
    `a new message in a live session, from its send to its first content answer: ${figures.findableMs.map(value => ms(value)).join(', ')} (target ≤ 2 s)`,
    `index on disk during the cold build (sampled every 100 ms): at most ${(figures.disk.peakBytes / 2 ** 20).toFixed(1)} MB, of which write-ahead log at most ${(figures.disk.peakWalBytes / 2 ** 20).toFixed(1)} MB; 5 s after it ${(figures.disk.afterBytes / 2 ** 20).toFixed(1)} MB, write-ahead log ${(figures.disk.afterWalBytes / 2 ** 20).toFixed(1)} MB`,
    `ids the index does not hold, after the build (targets: ≤ 50 ms of host processor time per request, no listing): a preflight naming ${MADE_UP_IDS} made-up ids ${pair(figures.madeUpIds.preflight)} p50 / p95, ${figures.madeUpIds.preflightCpuMs.toFixed(1)} ms of host processor time per request; candidates with a made-up citing session ${pair(figures.madeUpIds.candidates)}, ${figures.madeUpIds.candidatesCpuMs.toFixed(1)} ms per request`,
  ]
  return lines
}

/** The name of each run's column: its corpus and size, and its run where the same corpus and size were measured again (`--corpus realistic,realistic`). */
export function columnNames(figures: readonly Pick<ContentFigures, 'corpus' | 'sessions'>[]): string[] {
  const key = (one: Pick<ContentFigures, 'corpus' | 'sessions'>) => `${one.corpus} ${one.sessions}`
  const times = new Map<string, number>()
  for (const one of figures) times.set(key(one), (times.get(key(one)) ?? 0) + 1)
  const runs = new Map<string, number>()
  return figures.map(one => {
    const run = (runs.get(key(one)) ?? 0) + 1
    runs.set(key(one), run)
    return `${one.corpus}, ${one.sessions.toLocaleString('en')} sessions${(times.get(key(one)) ?? 0) > 1 ? `, run ${run}` : ''}`
  })
}

/**
 * The targets on every corpus and store size measured, side by side.
 * @param figures - one corpus at one size each.
 * @returns a table, a column each.
 */
export function corporaTable(figures: readonly ContentFigures[]): Table {
  const row = (label: string, value: (one: ContentFigures) => string, target: string) => [label, ...figures.map(value), target]
  const slowest = (one: ContentFigures) => one.queries.reduce((worst, query) => (Math.max(query.latency.p95, query.sidebar.p95) > Math.max(worst.latency.p95, worst.sidebar.p95) ? query : worst))
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`
  const median = (values: readonly number[]) => percentiles(values).p50
  const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(0)}`
  return {
    title: 'The content index through the real host, each corpus and size in homes of its own (p50 / p95 where two figures)',
    columns: ['', ...columnNames(figures), 'target'],
    rows: [
      row('messages, average size', one => `${one.messages.toLocaleString('en')}, ${Math.round(one.textBytes / one.messages)} B`, '—'),
      row('searchable text / logs on disk', one => `${mb(one.textBytes)} / ${mb(one.storeBytes)}`, '—'),
      row('the plugin\'s folder: size, against the text', one => `${mb(one.indexBytes)}, ${(one.indexBytes / one.textBytes).toFixed(2)}×`, '≤ 1.0× the text'),
      row('queries through the @ route', one => pair(one.latency), 'p95 ≤ 20 ms'),
      row('queries through the sidebar\'s route', one => pair(one.sidebarLatency), 'p95 ≤ 20 ms'),
      row('the slowest query, @ / sidebar p95', one => `${slowest(one).query}: ${ms(slowest(one).latency.p95)} / ${ms(slowest(one).sidebar.p95)}`, '≤ 20 ms'),
      row('answers exact', one => `${one.queries.filter(query => query.exact).length} of ${one.queries.length}`, 'all'),
      row('cold build, boot to ready', one => ms(one.buildMs), '≤ 10 min at 20,000'),
      row('share of a core added during the build', one => `${((one.buildCores.plugin - one.buildCores.bare) * 100).toFixed(0)} %`, '≤ 50 %'),
      row('memory added, at the peak', one => `${(one.rssMb.pluginPeak - one.rssMb.barePeak).toFixed(0)} MB`, '≤ 200 MB'),
      row('host /api p95 during the build, against idle', one => `${ms(one.apiDuringBuild.p95)} against ${ms(one.apiIdle.p95)}, ${signed((one.apiDuringBuild.p95 / one.apiIdle.p95 - 1) * 100)} %`, '≤ +20 %'),
      row('dsh web boot, median with the plugin against bare', one => `${ms(median(one.bootMs.plugin))} against ${ms(median(one.bootMs.bare))}, ${signed((median(one.bootMs.plugin) / median(one.bootMs.bare) - 1) * 100)} %`, '≤ +10 %'),
      row('a restart: boot to the first right answer, slowest', one => ms(Math.max(...one.restart.map(run => run.answerMs))), '≤ 5 s'),
      row('a new message: send to found, slowest', one => ms(Math.max(...one.findableMs)), '≤ 2 s'),
      row('on disk during the build, at most: index / write-ahead log', one => `${mb(one.disk.peakBytes)} / ${mb(one.disk.peakWalBytes)}`, 'log small, empty after'),
      row('write-ahead log after the build', one => mb(one.disk.afterWalBytes), 'empty'),
      row('made-up ids, p95 and host CPU a request: preflight of 32 / candidates', one => `${ms(one.madeUpIds.preflight.p95)}, ${ms(one.madeUpIds.preflightCpuMs)} / ${ms(one.madeUpIds.candidates.p95)}, ${ms(one.madeUpIds.candidatesCpuMs)}`, '≤ 50 ms CPU, no listing'),
    ],
  }
}

/**
 * One corpus's queries, each with its matches and latency.
 * @param figures - one corpus at one size.
 * @returns a table, a row per query.
 */
export function queriesTable(figures: ContentFigures): Table {
  return {
    title: `Each query, ${figures.corpus} corpus, ${figures.sessions.toLocaleString('en')} sessions (p50 / p95)`,
    columns: ['kind', 'query', 'sessions that match', 'answered', 'exact', 'excerpts marked past their 20th character', '@ route', 'sidebar route'],
    rows: figures.queries.map(query => [query.kind, query.query, query.expected.toLocaleString('en'), String(query.found), query.exact ? 'yes' : 'NO', String(query.lateMarks), pair(query.latency), pair(query.sidebar)]),
  }
}

/** `--only content`: content search at scale through the real host, side by side with the bare host. */
export const content: BenchMode = {
  name: 'content',
  summary: 'content search at scale in the real host, boots, build, memory and queries beside the bare host',
  async run(context) {
    const options = { workspaces: context.settings.workspaces, runs: 30 }
    // Each size and corpus one after the other, each in homes of its own.
    const figures: ContentFigures[] = []
    for (const sessions of context.settings.sessions) {
      for (const corpus of context.settings.corpora) figures.push(await measureContentSearch(context, { ...options, sessions, corpus }))
    }
    return {
      mode: 'content',
      settings: { ...options, sessions: context.settings.sessions, corpora: context.settings.corpora },
      figures,
      units: {
        sessions: 'count', workspaces: 'count', turns: 'count', messages: 'count', storeBytes: 'bytes', textBytes: 'bytes', writeMs: 'ms', bootMs: 'ms', buildMs: 'ms', firstReadMs: 'ms',
        buildCores: 'share of one core', rssMb: 'MiB', indexBytes: 'bytes', readyMs: 'ms', answerMs: 'ms', expected: 'count', found: 'count', findableMs: 'ms',
        disk: 'bytes', preflight: 'ms', candidates: 'ms', preflightCpuMs: 'ms', candidatesCpuMs: 'ms',
      },
      // Each corpus's queries print, one line each, but are not a table the docs take: the side-by-side table is the current figure.
      blocks: [table(corporaTable(figures)), ...figures.flatMap(one => [...contentReport(one).map(note), ...renderTable(queriesTable(one)).map(note)])],
    }
  },
}
