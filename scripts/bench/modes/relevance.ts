/**
 * `--only relevance`: whether the session a person means is found, through the real host, on each
 * corpus. The labelled set (`dev/relevance.ts`: 18 conversations written for it, 63 queries of seven
 * kinds in English and Chinese) is planted in a store of the corpus, with short sessions that each hold
 * one word of a query in another context; the plugin's host builds its index; then every query is asked
 * of the three surfaces: the sidebar's route (`search`), the `@` menu's route (`candidates`, scope `all`,
 * as typed after `@"`), and the model's `search_sessions`, called by the stand-in model in a turn of its
 * own. Reported per corpus, surface and kind: recall at 5 and MRR; and each route's latency over the
 * labelled queries (filters and partial matches included), asked up to ten times each before the model's
 * turns begin; and the related-sessions route for 54 drafts, 42 continuing a
 * planted conversation, 12 about nothing in the store. Default corpora:
 * realistic, prose and readme.
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { hostDir } from '../../../dev/pinned-host.ts'
import { newSession, rpc } from '../../../dev/host-rpc.ts'
import { LABELLED, type LabelledQuery, RELATED_DRAFTS, relevanceOf, type RelevanceFigures, relevanceStore } from '../../../dev/relevance.ts'
import { corpusSessionStream, writeSessionStore } from '../../../dev/session-store.ts'
import { SIDEBAR_ROWS } from '../../../dev/web-ui.ts'
import { humanText, startModel, textOf, toolAnswersSinceHuman } from '../../../dev/stand-in-model.ts'
import { type CorpusName, sessionText } from '../../../dev/corpus.ts'
import { type Block, ms, note, pair, type Percentiles, percentiles, table } from '../figures.ts'
import type { BenchContext, BenchMode } from '../mode.ts'

/** The surfaces asked. */
const SURFACES = ['sidebar', '@ menu', 'search_sessions'] as const
type Surface = (typeof SURFACES)[number]

/** One corpus's figures. */
export interface RelevanceCorpusFigures {
  readonly corpus: CorpusName
  readonly sessions: number
  /** Per surface: over every query, and per kind. */
  readonly surfaces: Readonly<Record<Surface, { readonly all: RelevanceFigures; readonly kinds: Readonly<Record<string, RelevanceFigures>> }>>
  /** Per query: the meant session's rank on each surface (0: not answered). */
  readonly ranks: readonly { readonly kind: string; readonly query: string; readonly sidebar: number; readonly menu: number; readonly tool: number }[]
  /** Each route's latency over the labelled queries. */
  readonly latency: { readonly sidebar: Percentiles; readonly menu: Percentiles }
  /** Each route's slowest query: the one whose median over its asks is the highest. */
  readonly slowest: { readonly sidebar: SlowestQuery; readonly menu: SlowestQuery }
  /** Related sessions for the drafts: how many drafts that continue a planted conversation are offered it among at most three, how many drafts about nothing are offered nothing, and the route's latency. */
  readonly related: { readonly found: number; readonly continuing: number; readonly missed?: readonly string[]; readonly noise?: readonly string[]; readonly empty: number; readonly unrelated: number; readonly latency: Percentiles; readonly slowest: SlowestQuery }
  /** From the host's boot to the content index's being ready (the cold build). */
  readonly readyMs: number
  /** The searchable text of the store, and the plugin's whole folder once the index is built. */
  readonly textBytes: number
  readonly folderBytes: number
}

/** A query and its median over its asks. */
export interface SlowestQuery {
  readonly query: string
  readonly p50: number
}

/** Of each query's asks, the query whose median is the highest. */
function slowestOf(asks: ReadonlyMap<string, number[]>): SlowestQuery {
  let slowest: SlowestQuery = { query: '', p50: 0 }
  for (const [query, samples] of asks) {
    const { p50 } = percentiles(samples)
    if (p50 > slowest.p50) slowest = { query, p50 }
  }
  return slowest
}

/** A turn that asks the stand-in to call `search_sessions` with a query (base64url of its JSON). */
const CALL = /^SEARCH-QUERY (\S+)$/

async function post(url: string, body: unknown): Promise<{ ms: number; json: any }> {
  const started = performance.now()
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const json = await res.json()
  const elapsed = performance.now() - started
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`)
  return { ms: elapsed, json }
}

/** The rank (from 1) of a session in an answer; 0 where it is not there. */
const rankOf = (ids: readonly string[], id: string): number => ids.indexOf(id) + 1

/**
 * Measures one corpus at one size.
 * @param context - the bench's set-up.
 * @param corpus - the corpus the labelled set is planted in.
 * @param sessions - the sessions of its store.
 */
async function measureCorpus(context: BenchContext, corpus: CorpusName, sessions: number): Promise<RelevanceCorpusFigures> {
  const workspaces = context.settings.workspaces
  const { specs: stored, planted } = relevanceStore(hostDir(), corpus, { sessions, workspaces })
  let textBytes = 0
  const specs = (function* () {
    for (const spec of stored) {
      textBytes += Buffer.byteLength(sessionText(spec))
      yield spec
    }
  })()
  const answers: string[] = []
  const model = await startModel({
    toolCall: messages => {
      const match = CALL.exec(humanText(messages))
      if (match === null || toolAnswersSinceHuman(messages) > 0) return undefined
      return { name: 'search_sessions', arguments: JSON.stringify({ query: JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8')) as string, limit: 20 }) }
    },
    toolReply: messages => {
      answers.push(textOf(messages.at(-1)!))
      return 'noted'
    },
  })
  const ids = new Map<string, string>()
  let cwd = ''
  const stack = await context.stack({
    tarball: context.tarball(),
    model,
    beforeBoot: async home => {
      cwd = home.project('relevance-citing')
      const written = await writeSessionStore(hostDir(), home, corpusSessionStream(home, specs, workspaces), { titleCache: false, count: sessions })
      for (const [at, key] of planted) ids.set(key, written[at]!.id)
    },
  })
  try {
    const url = stack.web.url
    const started = performance.now()
    for (;;) {
      if ((await (await fetch(`${url}/dsh-sessions/content-index`)).json() as { ready: boolean }).ready) break
      if (performance.now() - started > 1_200_000) throw new Error('the content index was not built in 20 minutes')
      await new Promise(resolve => setTimeout(resolve, 500))
    }
    const readyMs = performance.now() - started
    context.progress(`${corpus}: content index ready ${ms(readyMs)} after the boot`)
    // The folder as the build leaves it (its write-ahead log folded into the file), before the turns below add sessions.
    const folder = join(stack.home.dshHome, 'dsh-sessions')
    const folderBytes = readdirSync(folder).reduce((sum, name) => sum + statSync(join(folder, name)).size, 0)
    await post(`${url}/dsh-sessions/settings`, { scope: 'all' })
    // The @ route is asked from a new draft, as a person types in one.
    const citing = await newSession(url, cwd)
    const ranks: { kind: string; query: string; sidebar: number; menu: number; tool: number }[] = []
    const asks = { sidebar: new Map<string, number[]>(), menu: new Map<string, number[]>() }
    // The routes first, each query asked several times for its latency; then the model's turns, which add sessions (and so change the scopes the routes' answers are kept for).
    const runs = Math.max(1, Math.min(context.settings.runs, 10))
    const routes = new Map<string, { sidebar: number; menu: number }>()
    for (const query of LABELLED) {
      const meant = ids.get(query.meant)
      if (meant === undefined) throw new Error(`the store holds no ${query.meant}`)
      for (let run = 0; run < runs; run += 1) {
        const sidebar = await post(`${url}/dsh-sessions/search`, { query: query.query, limit: SIDEBAR_ROWS })
        const menu = await post(`${url}/dsh-sessions/candidates`, { citingSessionId: citing, query: query.query })
        asks.sidebar.set(query.query, [...(asks.sidebar.get(query.query) ?? []), sidebar.ms])
        asks.menu.set(query.query, [...(asks.menu.get(query.query) ?? []), menu.ms])
        if (run === 0) routes.set(query.query, {
          sidebar: rankOf((sidebar.json.results as { sessionId: string }[]).map(row => row.sessionId), meant),
          menu: rankOf((menu.json.candidates as { sessionId: string }[]).map(row => row.sessionId), meant),
        })
      }
    }
    // The related route, asked from the same new draft for each draft text, as the row asks once typing pauses.
    const relatedAsks = new Map<string, number[]>()
    let found = 0
    let empty = 0
    const missed: string[] = []
    const noise: string[] = []
    for (const draft of RELATED_DRAFTS) {
      for (let run = 0; run < runs; run += 1) {
        const answer = await post(`${url}/dsh-sessions/related`, { citingSessionId: citing, text: draft.draft })
        relatedAsks.set(draft.draft, [...(relatedAsks.get(draft.draft) ?? []), answer.ms])
        if (run > 0) continue
        const offered = (answer.json.sessions as { sessionId: string }[]).map(row => row.sessionId)
        // Each draft's outcome is kept, so a run names the drafts it missed and those about nothing that were offered something.
        if (draft.meant === null) {
          if (offered.length === 0) empty += 1
          else noise.push(draft.draft)
        } else if (offered.includes(ids.get(draft.meant)!)) found += 1
        else missed.push(draft.draft)
      }
    }
    const related = {
      found,
      continuing: RELATED_DRAFTS.filter(draft => draft.meant !== null).length,
      empty,
      unrelated: RELATED_DRAFTS.filter(draft => draft.meant === null).length,
      latency: percentiles([...relatedAsks.values()].flat()),
      slowest: slowestOf(relatedAsks),
      missed,
      noise,
    }
    const ask = async (query: LabelledQuery): Promise<void> => {
      const meant = ids.get(query.meant)!
      const before = answers.length
      const turn = await newSession(url, cwd)
      await rpc(url, 'session.prompt', { sessionId: turn, mode: 'queue', content: [{ type: 'text', text: `SEARCH-QUERY ${Buffer.from(JSON.stringify(query.query)).toString('base64url')}` }] })
      const deadline = performance.now() + 120_000
      while (answers.length === before) {
        if (performance.now() > deadline) throw new Error(`search_sessions did not answer ${query.query} in 2 minutes`)
        await new Promise(resolve => setTimeout(resolve, 5))
      }
      const text = answers.at(-1)!
      const tool = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { sessions: { sessionId: string }[] }
      ranks.push({ kind: query.kind, query: query.query, ...routes.get(query.query)!, tool: rankOf(tool.sessions.map(row => row.sessionId), meant) })
    }
    for (const query of LABELLED) await ask(query)
    const figuresOf = (pick: (rank: (typeof ranks)[number]) => number): { all: RelevanceFigures; kinds: Record<string, RelevanceFigures> } => {
      const kinds: Record<string, RelevanceFigures> = {}
      for (const kind of new Set(ranks.map(rank => rank.kind))) kinds[kind] = relevanceOf(ranks.filter(rank => rank.kind === kind).map(pick))
      return { all: relevanceOf(ranks.map(pick)), kinds }
    }
    return {
      corpus,
      sessions,
      surfaces: { sidebar: figuresOf(rank => rank.sidebar), '@ menu': figuresOf(rank => rank.menu), search_sessions: figuresOf(rank => rank.tool) },
      ranks,
      latency: { sidebar: percentiles([...asks.sidebar.values()].flat()), menu: percentiles([...asks.menu.values()].flat()) },
      slowest: { sidebar: slowestOf(asks.sidebar), menu: slowestOf(asks.menu) },
      related,
      readyMs,
      textBytes,
      folderBytes,
    }
  } finally {
    await stack.stop()
    await model.stop()
  }
}

const share = (value: number): string => `${Math.round(value * 100)} %`
const both = (figures: RelevanceFigures): string => `${share(figures.recallAt5)} / ${figures.mrr.toFixed(2)}`

/** The relevance report's tables and note, from its figures per corpus and size (a run's, or runs' of one commit put together). */
export function relevanceBlocks(figures: readonly RelevanceCorpusFigures[], sizes: readonly number[]): Block[] {
  const kinds = [...new Set(LABELLED.map(query => query.kind))]
  return [
    ...sizes.map(sessions => {
      const at = figures.filter(one => one.sessions === sessions)
      return table({
        title: `Relevance through the real host, ${sessions.toLocaleString('en')} sessions: recall@5 / MRR (targets: ≥ 90 % / ≥ 0.75 on each surface, ≥ 80 % recall@5 for every kind)`,
        columns: ['', ...at.flatMap(one => SURFACES.map(surface => `${one.corpus}, ${surface}`))],
        rows: [
          ['every query', ...at.flatMap(one => SURFACES.map(surface => both(one.surfaces[surface].all)))],
          ...kinds.map(kind => [`${kind} (${LABELLED.filter(query => query.kind === kind).length})`, ...at.flatMap(one => SURFACES.map(surface => both(one.surfaces[surface].kinds[kind]!)))]),
        ],
      })
    }),
    table({
      title: 'The labelled queries\' latency, filters and partial matches included (p50 / p95)',
      columns: ['corpus', 'sessions', 'sidebar route', '@ route', 'slowest query (its median), sidebar / @', 'slowest single ask, sidebar / @', 'cold build', 'the plugin\'s folder against the text'],
      rows: figures.map(one => [one.corpus, one.sessions.toLocaleString('en'), pair(one.latency.sidebar), pair(one.latency.menu), `${one.slowest.sidebar.query}: ${ms(one.slowest.sidebar.p50)} / ${one.slowest.menu.query}: ${ms(one.slowest.menu.p50)}`, `${ms(one.latency.sidebar.max)} / ${ms(one.latency.menu.max)}`, ms(one.readyMs), `${(one.folderBytes / 2 ** 20).toFixed(1)} MB / ${(one.textBytes / 2 ** 20).toFixed(1)} MB, ${(one.folderBytes / one.textBytes).toFixed(2)}×`]),
    }),
    table({
      title: `Related sessions while drafting, through the real host: ${RELATED_DRAFTS.filter(draft => draft.meant !== null).length} drafts that continue a planted conversation, ${RELATED_DRAFTS.filter(draft => draft.meant === null).length} about nothing in the store (targets: ≥ 80 % offered, ≥ 80 % offered nothing, p95 ≤ 30 ms)`,
      columns: ['corpus', 'sessions', 'the earlier session offered', 'nothing offered', 'related route (p50 / p95)', 'slowest draft (its median)'],
      rows: figures.map(one => [one.corpus, one.sessions.toLocaleString('en'), share(one.related.found / one.related.continuing), share(one.related.empty / one.related.unrelated), pair(one.related.latency), ms(one.related.slowest.p50)]),
    }),
    note(`Queries whose meant session is not in the first five on some surface (rank: sidebar / @ / search_sessions; 0 = not answered): ${figures.flatMap(one => one.ranks.filter(rank => [rank.sidebar, rank.menu, rank.tool].some(value => value < 1 || value > 5)).map(rank => `${one.corpus} ${one.sessions.toLocaleString('en')}, ${rank.kind}, ${rank.query}: ${rank.sidebar} / ${rank.menu} / ${rank.tool}`)).join('; ') || 'none'}`),
  ]
}

export const relevance: BenchMode = {
  name: 'relevance',
  summary: 'recall@5 and MRR of 63 labelled queries on three surfaces, and related sessions for 54 drafts, through the real host, per corpus and kind',
  async run(context) {
    const corpora: readonly CorpusName[] = context.settings.given.includes('corpus') ? context.settings.corpora : ['realistic', 'prose', 'readme']
    const sizes = context.settings.sessions
    const figures: RelevanceCorpusFigures[] = []
    for (const sessions of sizes) for (const corpus of corpora) figures.push(await measureCorpus(context, corpus, sessions))
    return {
      mode: 'relevance',
      settings: { sessions: [...sizes], workspaces: context.settings.workspaces, corpora: [...corpora], queries: LABELLED.length },
      figures,
      units: { recallAt5: 'share', mrr: 'mean reciprocal rank', sidebar: 'rank', menu: 'rank', tool: 'rank', queries: 'count', textBytes: 'bytes', folderBytes: 'bytes', readyMs: 'ms', p50: 'ms' },
      blocks: relevanceBlocks(figures, sizes),
    }
  },
}
