/**
 * The sidebar's Search sessions box, side by side with the official provider
 * in one run, on one store of realistic conversations written without the
 * host's projection cache (the plugin reads titles from the logs; the
 * official sidebar's own title matches are computed over the true titles, as
 * if the cache held them, which it does for sessions the host wrote itself).
 * Two homes share the same
 * logs: the bare host with the official `@deepseek-ai/dsh-session-query-sqlite`
 * enabled through a patch layer (`openAt: first-search`, in memory as the web
 * profile configures it), and the host with this plugin.
 *
 * What each side answers is what its sidebar shows: for the official one, the
 * browser's own title matches (a title holding the query, lower-cased, newest
 * first) and then the host's `session.search`; for the
 * plugin, its `search` route. Each answer is checked against the corpus's own
 * matching rules (`queryOracle`) and the titles: recall is the share of the
 * true matches found, counting at most as many as the answer can hold.
 * Reported for both: recall per query, query p50/p95, time from boot to the
 * first content answer, resident memory, and the index on disk; for the
 * plugin also its host's `session.search` (served from the same index), and
 * keystroke to rendered results in Chromium (the browser's own 250 ms
 * debounce included): the first query typed as soon as the page shows its
 * composer, which also waits for the page's own first listing of every
 * session (a result row is drawn only for a session the page's list holds),
 * and then each query three times on the settled page.
 */
import { cpSync, statSync } from 'node:fs'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { launchBrowser } from '../../../dev/browser.ts'
import { benchQueries, queryOracle, realisticCorpus, sessionText, type ConversationSpec } from '../../../dev/corpus.ts'
import type { WebProcess } from '../../../dev/dsh-process.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { groupUsage } from '../../../dev/process-usage.ts'
import { corpusSessions, writeSessionStore } from '../../../dev/session-store.ts'
import { type StoredSession } from '../../../dev/session-store.ts'
import { openApp } from '../../../dev/web-ui.ts'
import { ms, note, pair, type Percentiles, percentiles, renderTable, table } from '../figures.ts'
import type { BenchContext, BenchMode } from '../mode.ts'

/** One query's figures on one side. */
export interface SideQuery {
  readonly found: number
  readonly recall: number
  readonly latency: Percentiles
}

/** What {@link measureSidebar} reports. */
export interface SidebarFigures {
  readonly sessions: number
  readonly queries: readonly { readonly kind: string; readonly query: string; readonly expected: number; readonly official: SideQuery; readonly plugin: SideQuery }[]
  readonly official: { readonly recall: number; readonly latency: Percentiles; readonly firstAnswerMs: number; readonly rssMb: number; readonly diskBytes: number }
  readonly plugin: { readonly recall: number; readonly latency: Percentiles; readonly hostSearch: Percentiles; readonly firstAnswerMs: number; readonly rssMb: number; readonly diskBytes: number; readonly keystroke: Percentiles; readonly firstKeystrokeMs: number }
}

/** The official browser's page size of content results (`searchResultLimit`) and this plugin's route default. */
const CAP = 50

/** Longest wait for a first content answer (the plugin's cold build of 2,000 realistic sessions takes minutes). */
const FIRST_ANSWER_LIMIT_MS = 30 * 60_000

const OVERLAY = `# Enables the official content search, as upstream's web-app patch says a deployment should.
- id: session-query-sqlite
  config:
    path: ':memory:'
    openAt: first-search
`

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

async function post(url: string, body: unknown): Promise<{ ms: number; status: number; json: any }> {
  const started = performance.now()
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const json = await res.json()
  return { ms: performance.now() - started, status: res.status, json }
}

/** The host's own RPC, as the browser calls it. */
async function rpc(web: WebProcess, method: string, payload: unknown): Promise<{ ms: number; value: any }> {
  const { ms, status, json } = await post(`${web.url}/api/${method}`, { type: 'client-request', rpcId: crypto.randomUUID(), method, payload })
  if (status !== 200) throw new Error(`${method} answered ${status}: ${JSON.stringify(json).slice(0, 300)}`)
  return { ms, value: json.result?.ok === true ? json.result.value : { error: json.result?.error } }
}

/** The official sidebar's answer: its title matches over the host's list, newest first, then the host's content hits. */
async function officialAnswer(web: WebProcess, query: string, titles: ReadonlyMap<string, string>): Promise<{ ms: number; ids: string[] }> {
  const { ms, value } = await rpc(web, 'session.search', { query })
  const q = query.trim().toLowerCase()
  const local = [...titles].filter(([, title]) => title.toLowerCase().includes(q)).map(([id]) => id)
  const content = ((value.items ?? []) as { sessionId: string }[]).map(item => item.sessionId)
  return { ms, ids: [...new Set([...local, ...content])] }
}

async function pluginAnswer(web: WebProcess, query: string): Promise<{ ms: number; ids: string[] }> {
  const { ms, status, json } = await post(`${web.url}/dsh-sessions/search`, { query })
  if (status !== 200) throw new Error(`search answered ${status}`)
  return { ms, ids: (json.results as { sessionId: string }[]).map(result => result.sessionId) }
}

/** Share of the true matches found, out of as many as the answer could hold. */
function recallOf(found: readonly string[], expected: ReadonlySet<string>, holds: number): number {
  if (expected.size === 0) return 1
  const hits = found.filter(id => expected.has(id)).length
  return Math.min(1, hits / Math.min(expected.size, holds))
}

/** A Japanese query: three kana or kanji of a message of a session that has kana. */
function japaneseQuery(corpus: readonly ConversationSpec[]): string | undefined {
  for (const spec of corpus) {
    // As written (composed): a kana with its voicing mark is one character.
    const text = sessionText(spec).normalize('NFC')
    const run = /[\p{Script=Hiragana}\p{Script=Katakana}][\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}ー]{2}/u.exec(text)
    if (run !== null) return run[0]
  }
  return undefined
}

async function untilAnswer(what: string, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now()
  while (!(await check())) {
    if (performance.now() - started > FIRST_ANSWER_LIMIT_MS) throw new Error(`bench: ${what} did not answer within ${FIRST_ANSWER_LIMIT_MS / 60_000} min`)
    await sleep(200)
  }
  return performance.now() - started
}

function fileSize(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

/** How long the page is left to settle after its first query: its session list and the rows' titles arrive meanwhile. */
const SETTLE_MS = 5_000

/** Times each query is typed on the settled page. */
const KEYSTROKE_ROUNDS = 3

/**
 * Keystroke to rendered results in Chromium: a query typed into the box, until its first result row shows with its title.
 * @returns the first query's time, typed as soon as the page shows its composer, and the settled page's times.
 */
async function keystrokes(web: WebProcess, queries: readonly { query: string; title: string }[]): Promise<{ first: number; settled: number[] }> {
  const browser = await launchBrowser()
  try {
    const page = browser.page
    await openApp(page, web.url)
    const box = page.getByPlaceholder('Search sessions...')
    await page.getByRole('button', { name: 'Search sessions' }).first().click()
    const typed = async (query: string, title: string): Promise<number> => {
      await box.fill('')
      await page.waitForTimeout(400)
      const started = performance.now()
      await box.fill(query)
      await page.getByRole('tree', { name: 'Search results' }).getByRole('treeitem').filter({ hasText: title }).first().waitFor({ timeout: 30_000 })
      const ms = performance.now() - started
      console.log(`keystroke to results: "${query}" ${ms.toFixed(0)} ms`)
      return ms
    }
    const first = await typed(queries[0]!.query, queries[0]!.title)
    await page.waitForTimeout(SETTLE_MS)
    const settled: number[] = []
    for (let round = 0; round < KEYSTROKE_ROUNDS; round += 1) for (const { query, title } of queries) settled.push(await typed(query, title))
    return { first, settled }
  } finally {
    await browser.close()
  }
}

/**
 * Runs the comparison.
 * @param context - the bench's set-up.
 * @param options - store size, and query repetitions on the plugin's route and on each host's `session.search` (the official one takes seconds a query at 2,000 realistic sessions).
 * @returns the figures.
 */
export async function measureSidebar(context: BenchContext, options: { sessions: number; workspaces: number; runs: number; officialRuns: number }): Promise<SidebarFigures> {
  const corpus = realisticCorpus(hostDir(), { sessions: options.sessions, workspaces: options.workspaces })
  const oracle = queryOracle(corpus)
  const fixed = benchQueries(corpus, { perKind: 2 }).map(({ kind, query }) => ({ kind, query }))
  const japanese = japaneseQuery(corpus)
  if (japanese !== undefined) fixed.push({ kind: 'ja 3 chars', query: japanese })
  const titleWord = corpus.slice(Math.floor(corpus.length / 2)).flatMap(spec => spec.title.split(/\s+/)).find(word => /^[A-Za-z]{5,}$/.test(word))
  if (titleWord !== undefined) fixed.push({ kind: 'title word', query: titleWord })
  let stored: StoredSession[] = []
  let cwd = ''
  // Two homes on one model: the bare host with the official provider through a patch layer, and the plugin's host on a copy of the same logs.
  const bareStack = await context.stack({
    boot: false,
    bootLimitMs: 600_000,
    beforeBoot: async bareHome => {
      const writing = performance.now()
      stored = await writeSessionStore(hostDir(), bareHome, corpusSessions(bareHome, corpus), { titleCache: false })
      console.log(`store: ${stored.length} sessions written in ${((performance.now() - writing) / 1000).toFixed(0)} s`)
      writeFileSync(join(bareHome.home, 'search-overlay.yml'), OVERLAY)
      cwd = join(bareHome.home, 'ws-00')
    },
    patch: bareHome => join(bareHome.home, 'search-overlay.yml'),
    cwd: () => cwd,
  })
  const bareHome = bareStack.home
  let pluginStack: Awaited<ReturnType<BenchContext['stack']>> | undefined
  try {
    pluginStack = await context.stack({
      model: bareStack.model,
      tarball: context.tarball(),
      boot: false,
      bootLimitMs: 600_000,
      beforeBoot: async pluginHome => { cpSync(join(bareHome.dshHome, 'sessions'), join(pluginHome.dshHome, 'sessions'), { recursive: true }) },
      cwd: () => cwd,
    })
    const pluginHome = pluginStack.home
    const idOf = stored.map(session => session.id)
    const titleOf = new Map(stored.map(session => [session.id, session.title]))
    const expectedOf = (query: string): Set<string> => {
      const folded = query.toLowerCase()
      const ids = new Set(oracle(query).map(n => idOf[n]!))
      for (const [id, title] of titleOf) if (title.toLowerCase().includes(folded)) ids.add(id)
      return ids
    }
    const probe = fixed.find(query => query.kind === 'rare word')?.query ?? fixed[0]!.query

    // The official side.
    const officialRuns = new Map<string, { ids: string[]; ms: number[] }>()
    let officialFirst = 0
    let officialRss = 0
    {
      const web = await bareStack.start()
      try {
        officialFirst = web.bootMs + await untilAnswer('the official provider', async () => {
          const { value } = await rpc(web, 'session.search', { query: probe })
          return (value.items ?? []).length > 0
        })
        console.log(`official: first content answer ${(officialFirst / 1000).toFixed(1)} s after the boot began`)
        const titles = new Map([...stored].reverse().map(session => [session.id, session.title] as const))
        for (const { query } of fixed) {
          const ms: number[] = []
          let ids: string[] = []
          for (let run = 0; run < options.officialRuns; run += 1) {
            const answer = await officialAnswer(web, query, titles)
            ms.push(answer.ms)
            ids = answer.ids
          }
          officialRuns.set(query, { ids, ms })
        }
        officialRss = groupUsage(web.pid).rssBytes / 1024 / 1024
      } finally {
        await bareStack.halt()
      }
    }

    // The plugin's side.
    const pluginRuns = new Map<string, { ids: string[]; ms: number[] }>()
    const hostSearch: number[] = []
    let pluginFirst = 0
    let pluginRss = 0
    let keystroke: { first: number; settled: number[] } = { first: 0, settled: [] }
    {
      const web = await pluginStack.start()
      try {
        pluginFirst = web.bootMs + await untilAnswer('the plugin', async () => {
          const { json } = await post(`${web.url}/dsh-sessions/search`, { query: probe })
          return (json.results as { snippet?: unknown }[] | undefined)?.some(result => result.snippet !== undefined) === true
        })
        console.log(`plugin: first content answer ${(pluginFirst / 1000).toFixed(1)} s after the boot began`)
        await untilAnswer('the plugin\'s build', async () => ((await (await fetch(`${web.url}/dsh-sessions/content-index`)).json()) as { ready: boolean }).ready)
        for (const { query } of fixed) {
          const ms: number[] = []
          let ids: string[] = []
          for (let run = 0; run < options.runs; run += 1) {
            const answer = await pluginAnswer(web, query)
            ms.push(answer.ms)
            ids = answer.ids
            if (run < options.officialRuns) hostSearch.push((await rpc(web, 'session.search', { query })).ms)
          }
          pluginRuns.set(query, { ids, ms })
        }
        pluginRss = groupUsage(web.pid).rssBytes / 1024 / 1024
        const typed = fixed.filter(({ query }) => (pluginRuns.get(query)?.ids.length ?? 0) > 0).slice(0, 8)
        keystroke = await keystrokes(web, typed.map(({ query }) => ({ query, title: titleOf.get(pluginRuns.get(query)!.ids[0]!)! })))
      } finally {
        await pluginStack.halt()
      }
    }
    const folder = join(pluginHome.dshHome, 'dsh-sessions')
    const pluginDisk = ['content-index.sqlite', 'content-index.sqlite-wal'].reduce((sum, name) => sum + fileSize(join(folder, name)), 0)
    const queries = fixed.map(({ kind, query }) => {
      const expected = expectedOf(query)
      const side = (runs: { ids: string[]; ms: number[] }, holds: number): SideQuery => ({ found: runs.ids.length, recall: recallOf(runs.ids, expected, holds), latency: percentiles(runs.ms) })
      const official = officialRuns.get(query)!
      return { kind, query, expected: expected.size, official: side(official, Math.max(CAP, official.ids.length)), plugin: side(pluginRuns.get(query)!, CAP) }
    })
    const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
    return {
      sessions: options.sessions,
      queries,
      official: {
        recall: mean(queries.map(query => query.official.recall)),
        latency: percentiles([...officialRuns.values()].flatMap(run => run.ms)),
        firstAnswerMs: officialFirst,
        rssMb: officialRss,
        diskBytes: 0,
      },
      plugin: {
        recall: mean(queries.map(query => query.plugin.recall)),
        latency: percentiles([...pluginRuns.values()].flatMap(run => run.ms)),
        hostSearch: percentiles(hostSearch),
        firstAnswerMs: pluginFirst,
        rssMb: pluginRss,
        diskBytes: pluginDisk,
        keystroke: percentiles(keystroke.settled),
        firstKeystrokeMs: keystroke.first,
      },
    }
  } finally {
    await pluginStack?.stop()
    await bareStack.stop()
  }
}

/**
 * The report: the side-by-side table and the per-query table.
 * @param figures - what {@link measureSidebar} measured.
 * @returns its blocks.
 */
export function sidebarBlocks(figures: SidebarFigures) {
  const pct = (value: number) => `${Math.round(value * 100)} %`
  return [
    table({
      title: `Sidebar search at ${figures.sessions.toLocaleString('en')} realistic sessions, one store, side by side:`,
      columns: ['', 'Official provider (`openAt: first-search`)', 'This plugin'],
      rows: [
        ['Recall over the fixed queries', pct(figures.official.recall), pct(figures.plugin.recall)],
        ['Query p50 / p95', `${pair(figures.official.latency)} (host \`session.search\`)`, `${pair(figures.plugin.latency)} (plugin route); host \`session.search\` from the same index ${pair(figures.plugin.hostSearch)}`],
        ['Boot to first content answer', ms(figures.official.firstAnswerMs), ms(figures.plugin.firstAnswerMs)],
        ['Host RSS after the queries', `${Math.round(figures.official.rssMb)} MB`, `${Math.round(figures.plugin.rssMb)} MB`],
        ['Index on disk', 'none (in memory, `path: \':memory:\'`)', `${(figures.plugin.diskBytes / 1024 / 1024).toFixed(1)} MB`],
        ['Keystroke to rendered results on a settled page, p50 / p95 (250 ms debounce included)', '—', pair(figures.plugin.keystroke)],
        ['The same, the first query typed as the page opens (the page\'s own listing of every session included)', '—', ms(figures.plugin.firstKeystrokeMs)],
      ],
    }),
    // Each query prints, one line each, but is not a table the docs take: the side-by-side table is the current figure.
    ...renderTable({
      columns: ['Query', 'Kind', 'True matches', 'Official: found, recall', 'Plugin: found, recall'],
      rows: figures.queries.map(query => [`\`${query.query}\``, query.kind, String(query.expected), `${query.official.found}, ${pct(query.official.recall)}`, `${query.plugin.found}, ${pct(query.plugin.recall)}`]),
    }).map(note),
  ]
}

/** `--only sidebar`: the sidebar's search against the official provider enabled through a patch layer, on one store. */
export const sidebar: BenchMode = {
  name: 'sidebar',
  summary: 'the sidebar search against the official provider (patch layer) on one realistic store',
  async run(context) {
    const options = { sessions: context.sessions(), workspaces: context.settings.workspaces, runs: 20, officialRuns: 3 }
    const figures = await measureSidebar(context, options)
    return {
      mode: 'sidebar',
      settings: { ...options, keystrokeRounds: KEYSTROKE_ROUNDS },
      figures,
      units: { recall: 'share (0–1)', found: 'count', expected: 'count', firstAnswerMs: 'ms', rssMb: 'MiB', diskBytes: 'bytes', firstKeystrokeMs: 'ms' },
      blocks: sidebarBlocks(figures),
    }
  },
}
