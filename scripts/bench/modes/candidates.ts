/**
 * The candidates route against the official candidates call, through the
 * real dsh 0.1.0-rc.8 web host, on a store of 2,000 persisted titled sessions
 * over 20 workspaces (both with every session in scope, their results checked
 * equal): the cold boot and first request, the background title repair, the
 * whole-draft preflight with 3 session chips (sources read from storage, then
 * cached), and the warm boot.
 */
import { dirname } from 'node:path'
import { hostDir } from '../../../dev/pinned-host.ts'
import { spreadSessions, type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import type { WebProcess } from '../../../dev/dsh-process.ts'
import { ms, note, pair, type Percentiles, percentiles, table } from '../figures.ts'
import type { BenchMode } from '../mode.ts'

const QUERIES = [['empty', ''], ['one letter', 'p'], ['five letters', 'grape']] as const

/** What the candidates mode measures. */
export interface CandidatesFigures {
  readonly sessions: number
  readonly workspaces: number
  readonly storeMs: number
  readonly coldBootMs: number
  readonly coldFirstMs: number
  /** From the scope set to all until the oldest session's title is found. */
  readonly titleRepairMs: number
  readonly queries: readonly { readonly name: string; readonly query: string; readonly official: Percentiles; readonly plugin: Percentiles }[]
  /** Whole-draft preflight with 3 session chips: 10 different drafts (sources read from storage), then the same draft again (cached). */
  readonly preflightCold: Percentiles
  readonly preflightWarm: Percentiles
  readonly warmBootMs: number
  readonly warmFirstMs: number
  /** Whether the first request after the warm boot labelled every candidate with its title. */
  readonly labelled: boolean
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
  return timedPost(`${web.url}/dsh-sessions/candidates`, { citingSessionId: sessionId, query })
}

/** `npm run bench`'s first part: the candidates route against the official call in one real host. */
export const candidates: BenchMode = {
  name: 'candidates',
  summary: 'the candidates route against the official call, boots and the whole-draft preflight, in the real host',
  async run(context) {
    const SESSIONS = context.sessions()
    const { workspaces: WORKSPACES, officialRuns: OFFICIAL_RUNS, runs: RUNS } = context.settings
    let store: StoredSession[] = []
    let storeMs = 0
    const inFirstWorkspace = () => store.filter(session => session.cwd.endsWith('ws-00'))
    const target = () => inFirstWorkspace()[Math.floor(inFirstWorkspace().length / 2)]!
    const stack = await context.stack({
      tarball: context.tarball(),
      beforeBoot: async home => {
        const started = performance.now()
        store = await writeSessionStore(hostDir(), home, spreadSessions(home, SESSIONS, WORKSPACES), { titleCache: false })
        storeMs = performance.now() - started
        context.progress(`store: ${SESSIONS} sessions over ${WORKSPACES} workspaces written in ${ms(storeMs)}`)
      },
      cwd: () => dirname(target().cwd),
    })
    try {
      const targetSession = target()
      const oldest = store[0]!
      let web = stack.web
      const coldBootMs = web.bootMs
      context.progress(`dsh web boot (cold projection cache): ${ms(coldBootMs)}`)
      const first = await ours(web, targetSession.id, '')
      context.progress(`first candidates request after boot (cold cache): ${ms(first.ms)}`)
      await timedPost(`${web.url}/dsh-sessions/settings`, { scope: 'all' })
      context.progress('scope set to all: both calls rank every session, so their results must be equal')
      const repairing = performance.now()
      for (;;) {
        const { json } = await ours(web, targetSession.id, oldest.title)
        if (json.candidates.some((candidate: { sessionId: string }) => candidate.sessionId === oldest.id)) break
        await new Promise(resolve => setTimeout(resolve, 250))
      }
      const titleRepairMs = performance.now() - repairing
      context.progress(`background title repair of the cold cache finished after ${ms(titleRepairMs)}`)

      const queries: CandidatesFigures['queries'][number][] = []
      for (const [name, query] of QUERIES) {
        const officialSamples: number[] = []
        let officialIds: string[] = []
        for (let run = 0; run < OFFICIAL_RUNS; run += 1) {
          const result = await official(web, targetSession.id, query)
          officialSamples.push(result.ms)
          officialIds = result.json.result.value.map((candidate: { sessionId: string }) => candidate.sessionId)
        }
        const oursIds = (await ours(web, targetSession.id, query)).json.candidates.map((candidate: { sessionId: string }) => candidate.sessionId)
        if (JSON.stringify(oursIds) !== JSON.stringify(officialIds)) throw new Error(`results differ for ${JSON.stringify(query)}`)
        const oursSamples: number[] = []
        for (let run = 0; run < 5; run += 1) await ours(web, targetSession.id, query)
        for (let run = 0; run < RUNS; run += 1) oursSamples.push((await ours(web, targetSession.id, query)).ms)
        queries.push({ name, query, official: percentiles(officialSamples), plugin: percentiles(oursSamples) })
      }
      // Whole-draft preflight with 3 session chips: the first check of 10 different drafts (sources read from
      // storage), then the same draft again (sources unchanged, served from the read-once cache).
      const others = inFirstWorkspace().filter(session => session.id !== targetSession.id)
      const draftOf = (sources: typeof others) => ({
        citingSessionId: targetSession.id,
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
      web = await stack.restart()
      const warmFirst = await ours(web, targetSession.id, 'p')
      const labelled = warmFirst.json.candidates.every((candidate: { label: string }) => candidate.label.startsWith('Topic '))
      const figures: CandidatesFigures = {
        sessions: SESSIONS,
        workspaces: WORKSPACES,
        storeMs,
        coldBootMs,
        coldFirstMs: first.ms,
        titleRepairMs,
        queries,
        preflightCold: percentiles(coldPreflight),
        preflightWarm: percentiles(warmPreflight),
        warmBootMs: web.bootMs,
        warmFirstMs: warmFirst.ms,
        labelled,
      }
      return {
        mode: 'candidates',
        settings: { sessions: SESSIONS, workspaces: WORKSPACES, officialRuns: OFFICIAL_RUNS, runs: RUNS, preflightDrafts: 10 },
        figures,
        units: { storeMs: 'ms', coldBootMs: 'ms', coldFirstMs: 'ms', titleRepairMs: 'ms', official: 'ms', plugin: 'ms', preflightCold: 'ms', preflightWarm: 'ms', warmBootMs: 'ms', warmFirstMs: 'ms' },
        blocks: [
          note(`store: ${SESSIONS} sessions over ${WORKSPACES} workspaces written in ${ms(storeMs)}; dsh web boot (cold projection cache): ${ms(coldBootMs)}; first candidates request after boot (cold cache): ${ms(first.ms)}; background title repair finished after ${ms(titleRepairMs)}`),
          table({
            title: `candidates at ${SESSIONS} sessions, ${WORKSPACES} workspaces (official runs: ${OFFICIAL_RUNS}, ours: ${RUNS})`,
            columns: ['query', 'official p50 / p95', 'dsh-sessions p50 / p95', 'ratio p50 / p95'],
            rows: queries.map(q => [`${q.name} (${JSON.stringify(q.query)})`, pair(q.official), pair(q.plugin), `${(q.official.p50 / q.plugin.p50).toFixed(0)}× / ${(q.official.p95 / q.plugin.p95).toFixed(0)}×`]),
          }),
          note(`dsh web boot (warm projection cache): ${ms(web.bootMs)}; first candidates request after boot: ${ms(warmFirst.ms)} (titles ${labelled ? 'all present' : 'missing'})`),
          note(`whole-draft preflight with 3 session chips in the real host (target p95 ≤ 150 ms): sources read from storage p50 ${ms(figures.preflightCold.p50)} / p95 ${ms(figures.preflightCold.p95)} (10 drafts); sources cached p50 ${ms(figures.preflightWarm.p50)} / p95 ${ms(figures.preflightWarm.p95)} (${RUNS} runs)`),
        ],
      }
    } finally {
      await stack.stop()
    }
  },
}
