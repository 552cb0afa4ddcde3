/**
 * `npm run bench -- --only scoped`: content queries through the route
 * functions in process, with nothing changed between queries, so what a
 * query costs beyond its own matches shows. An index file of the realistic
 * corpus (`realisticSessions`) is built once per size and kept in the
 * system's temporary folder (`dsh-sessions-scoped/`, reused by later runs,
 * so runs of different code measure the same file); the session catalog lists
 * the same sessions as stored ones, over `--workspaces` workspaces, and the
 * content search opens a copy of the file. Each bench query (3 per kind,
 * drawn from the first 2,000 sessions) is timed `--runs` times (at most 30)
 * through the `@` menu's candidates (scope `workspace`, then `all`), the
 * sidebar's search and the host's `session.search`; every candidate found
 * by its text is checked to be in the target's workspace. Then the first
 * query after a change: before each of 3 runs per query, a new (live)
 * session enters the target's workspace, and the `@` menu (scope
 * `workspace`) and the sidebar are timed again. With
 * `DSH_BENCH_BUILD_SECONDS` set, a run builds the file for at most that
 * long and says how far it came; the next run goes on from there.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hostSearch, IndexKeeper, listCandidates, type SearchSessions, searchParts, searchSidebar, sqliteFileOf } from '../plugin-parts.ts'
import { benchQueries, type BenchQuery, realisticSessions, type RealisticSpec } from '../../../dev/corpus.ts'
import { createHostHarness } from '../../../dev/in-process-host.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { note, pair, type Percentiles, percentiles } from '../figures.ts'
import type { BenchMode } from '../mode.ts'

/** What one stored session of the measured store is. */
interface StoredMeta {
  readonly id: string
  readonly cwd: string
  readonly createdAt: number
  readonly title: string
}

/** The built file and what the session catalog lists. */
interface Store {
  readonly file: string
  readonly sessions: readonly StoredMeta[]
  readonly queries: readonly BenchQuery[]
  readonly buildMs: number
}

/** Sessions the queries are drawn from. */
const QUERY_SESSIONS = 2_000

/** Runs per query of the first query after a change. */
const CHANGED_RUNS = 3

/** The routes' caps: the `@` menu's default `candidateLimit`, the sidebar's page. */
const CAP = 50

const workspaceOf = (n: number): string => `/bench/ws-${String(n).padStart(2, '0')}`

/** Seconds one run may spend building the index file (`DSH_BENCH_BUILD_SECONDS`); a build cut short goes on at the next run. */
const buildSeconds = (): number => Number(process.env.DSH_BENCH_BUILD_SECONDS ?? Infinity)

/**
 * Builds the index file of `sessions` realistic sessions, or finds the one
 * an earlier run built; a build past its time is saved as far as it came.
 * @returns the store, or how far its build has come.
 */
async function storeOf(sessions: number, workspaces: number, progress: (text: string) => void): Promise<Store | { readonly built: number }> {
  const folder = join(tmpdir(), 'dsh-sessions-scoped', `${sessions}-${workspaces}`)
  const metaFile = join(folder, 'store.json')
  const partFile = join(folder, 'built.json')
  const file = join(folder, 'content-index.json')
  if (existsSync(metaFile)) return { ...JSON.parse(readFileSync(metaFile, 'utf8')) as Omit<Store, 'file'>, file }
  const earlier = existsSync(partFile) ? JSON.parse(readFileSync(partFile, 'utf8')) as { built: number; buildMs: number } : { built: 0, buildMs: 0 }
  if (earlier.built === 0) {
    rmSync(folder, { recursive: true, force: true })
    mkdirSync(folder, { recursive: true })
  }
  const keeper = new IndexKeeper()
  await keeper.load(file)
  const metas: StoredMeta[] = []
  const sample: RealisticSpec[] = []
  const started = performance.now()
  const until = started + buildSeconds() * 1000
  let n = 0
  let built = earlier.built
  for (const spec of realisticSessions(hostDir(), { sessions, workspaces })) {
    const id = `session-00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
    metas.push({ id, cwd: workspaceOf(spec.workspace), createdAt: 1_000_000 + n, title: spec.title })
    if (sample.length < QUERY_SESSIONS) sample.push(spec)
    if (n === built && performance.now() < until) {
      keeper.apply(id, { revision: 'bench', title: spec.title, messages: spec.turns.flatMap(turn => [turn.user, turn.reply]) })
      built += 1
      if (built % 1000 === 0) progress(`indexed ${built} of ${sessions}`)
    }
    n += 1
  }
  keeper.save(file, built === sessions)
  keeper.close()
  const buildMs = earlier.buildMs + performance.now() - started
  if (built < sessions) {
    writeFileSync(partFile, JSON.stringify({ built, buildMs }))
    return { built }
  }
  const queries = benchQueries(sample, { perKind: 3 })
  writeFileSync(metaFile, JSON.stringify({ sessions: metas, queries, buildMs }))
  return { file, sessions: metas, queries, buildMs }
}

/** What the mode measures. */
export interface ScopedFigures {
  readonly sessions: number
  readonly workspaces: number
  readonly buildMs: number
  /** Sessions indexed so far when the build is not complete (then nothing is timed). */
  readonly built?: number
  readonly routes: Readonly<Record<string, Percentiles>>
  readonly queries: readonly { readonly kind: string; readonly query: string; readonly routes: Readonly<Record<string, Percentiles>> }[]
}

/**
 * Times the routes on a store of `sessions` sessions.
 * @returns the figures per route, over every query and per query.
 */
export async function measureScoped(sessions: number, workspaces: number, runs: number, progress: (text: string) => void): Promise<ScopedFigures> {
  const store = await storeOf(sessions, workspaces, progress)
  if (!('file' in store)) return { sessions, workspaces, buildMs: 0, built: store.built, routes: {}, queries: [] }
  const folder = join(tmpdir(), `dsh-sessions-scoped-run-${process.pid}`)
  mkdirSync(folder, { recursive: true })
  const file = join(folder, 'content-index.json')
  copyFileSync(sqliteFileOf(store.file), sqliteFileOf(file))
  const h = await createHostHarness()
  try {
    for (const meta of store.sessions) h.faults.cold.set(meta.id, { cwd: meta.cwd, createdAt: meta.createdAt, title: meta.title })
    const fiber = h.ctx.plugin({ name: 'scoped-bench', inject: ['sessionQuery', 'sessions'], apply: () => undefined })
    await fiber
    const { catalog: index, content } = searchParts(fiber.ctx, { file, duty: 1 })
    await index.ready()
    await content.whenReady()
    await content.idle()
    const target = { id: 'session-ffffffff-0000-4000-8000-000000000000', cwd: workspaceOf(0) }
    const official: SearchSessions = () => Promise.reject(new Error('not asked'))
    const host = hostSearch(fiber.ctx, { catalog: index, content: content }, official)
    const routes: Record<string, (query: string) => Promise<unknown>> = {
      '@ (workspace)': async query => {
        const found = await listCandidates({ catalog: index, content }, { target, query, scope: 'workspace', candidateLimit: CAP })
        for (const candidate of found) if (candidate.snippet !== undefined && candidate.cwd !== target.cwd) throw new Error(`bench: ${candidate.sessionId} is outside the workspace`)
        return found
      },
      '@ (all)': query => listCandidates({ catalog: index, content }, { target, query, scope: 'all', candidateLimit: CAP }),
      sidebar: query => searchSidebar({ catalog: index, content }, { query: query, limit: CAP }),
      'session.search': query => host({ query, limit: 20 } as Parameters<SearchSessions>[0]),
    }
    const all: Record<string, number[]> = Object.fromEntries(Object.keys(routes).map(name => [name, []]))
    const queries: ScopedFigures['queries'][number][] = []
    for (const query of store.queries) {
      const per: Record<string, Percentiles> = {}
      for (const [name, route] of Object.entries(routes)) {
        await route(query.query)
        const samples: number[] = []
        for (let run = 0; run < runs; run += 1) {
          const at = performance.now()
          await route(query.query)
          samples.push(performance.now() - at)
        }
        all[name]!.push(...samples)
        per[name] = percentiles(samples)
      }
      queries.push({ kind: query.kind, query: query.query, routes: per })
    }
    // Then the first query after a change: a new session in the target's workspace before each run.
    const changed: Record<string, number[]> = { '@ (workspace), after a new session': [], 'sidebar, after a new session': [] }
    let added = 0
    for (const query of store.queries) {
      for (let run = 0; run < CHANGED_RUNS; run += 1) {
        for (const [name, route] of [['@ (workspace), after a new session', routes['@ (workspace)']!], ['sidebar, after a new session', routes.sidebar!]] as const) {
          h.session(`session-eeeeeeee-0000-4000-8000-${String(added++).padStart(12, '0')}`, { cwd: target.cwd })
          const at = performance.now()
          await route(query.query)
          changed[name]!.push(performance.now() - at)
        }
      }
    }
    for (const [name, samples] of Object.entries(changed)) all[name] = samples
    return { sessions, workspaces, buildMs: store.buildMs, routes: Object.fromEntries(Object.entries(all).map(([name, samples]) => [name, percentiles(samples)])), queries }
  } finally {
    await h.dispose()
    rmSync(folder, { recursive: true, force: true })
  }
}

/** `--only scoped`: content queries through the route functions in process, on an index file built once per size. */
export const scoped: BenchMode = {
  name: 'scoped',
  summary: 'content queries through the route functions in process (candidates, sidebar, session.search), nothing changed between queries',
  async run(context) {
    const sessions = context.sessions()
    const runs = Math.min(30, context.settings.runs)
    const figures = await measureScoped(sessions, context.settings.workspaces, runs, context.progress)
    const names = Object.keys(figures.routes)
    const perQuery = Object.keys(figures.queries[0]?.routes ?? {})
    if (figures.built !== undefined) return { mode: 'scoped', settings: { sessions, workspaces: context.settings.workspaces, runs }, figures, units: { buildMs: 'ms' }, blocks: [note(`The index file is built to ${figures.built} of ${sessions} sessions; run again to go on.`)] }
    return {
      mode: 'scoped',
      settings: { sessions, workspaces: context.settings.workspaces, runs },
      figures,
      units: { buildMs: 'ms' },
      blocks: [
        { kind: 'table', table: { title: `Routes in process at ${sessions} sessions over ${context.settings.workspaces} workspaces, ${figures.queries.length} queries × ${runs} runs (p50 / p95)`, columns: ['route', 'p50 / p95', 'max'], rows: names.map(name => [name, pair(figures.routes[name]!), `${figures.routes[name]!.max.toFixed(1)} ms`]) } },
        { kind: 'table', table: { title: 'Per query (p50 / p95)', columns: ['kind', 'query', ...perQuery], rows: figures.queries.map(query => [query.kind, query.query, ...perQuery.map(name => pair(query.routes[name]!))]) } },
      ],
    }
  },
}
