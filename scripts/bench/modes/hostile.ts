/**
 * Bounded work per text: the hostile texts of `dev/hostile-texts.ts`
 * through the preflight route of a real host, through the pre-step
 * waterfall on the official rc.8 services, and through the official parser
 * alone.
 */
import { dirname } from 'node:path'
import { parseSessionReferenceText } from '@deepseek-ai/dsh-session-reference'
import { hostileTexts } from '../../../dev/hostile-texts.ts'
import { createHostHarness } from '../../../dev/in-process-host.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { spreadSessions, type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import { pair, type Percentiles, percentiles, table, timed } from '../figures.ts'
import type { BenchMode } from '../mode.ts'

/** p50 and p95 of one text kind. */
export interface HostileFigures extends Percentiles { readonly kind: string }

/**
 * The preflight route of a running host, per text kind.
 * @param url - the host's base URL.
 * @param sessionId - the citing session.
 * @param runs - samples per kind.
 * @returns p50/p95 per kind, in milliseconds.
 */
export async function measureHostileRoute(url: string, sessionId: string, runs: number): Promise<HostileFigures[]> {
  const figures: HostileFigures[] = []
  for (const [kind, text] of Object.entries(hostileTexts())) {
    const samples = await timed(runs, async () => {
      const res = await fetch(`${url}/dsh-sessions/preflight`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ citingSessionId: sessionId, text }) })
      await res.json()
      if (res.status !== 200) throw new Error(`preflight answered ${res.status}`)
    }, 3)
    figures.push({ kind, ...percentiles(samples) })
  }
  return figures
}

/**
 * The pre-step waterfall at N indexed sessions, per text kind.
 * @param sessions - sessions in the store.
 * @param workspaces - workspaces they spread over.
 * @param runs - samples per kind.
 * @returns p50/p95 per kind, in milliseconds.
 */
export async function measureHostilePreStep(sessions: number, workspaces: number, runs: number): Promise<HostileFigures[]> {
  const harness = await createHostHarness()
  harness.session('session-target', { cwd: '/w/ws-00' })
  for (let n = 0; n < sessions; n += 1) {
    harness.session(`session-${n}`, { cwd: `/w/ws-${String(n % workspaces).padStart(2, '0')}`, title: `Topic ${n} notes`, messages: [`text ${n}`] })
  }
  await harness.mount()
  await harness.preStep('session-target', ['warm up'])
  const figures: HostileFigures[] = []
  for (const [kind, text] of Object.entries(hostileTexts())) {
    const samples = await timed(runs, async () => {
      const decision = await harness.preStep('session-target', [text])
      if (decision.kind !== 'enter') throw new Error('the step was rejected')
    }, 3)
    figures.push({ kind, ...percentiles(samples) })
  }
  return figures
}

/**
 * The official parser alone on each text, as the host's own session-reference
 * step runs it on every user message: the official behaviour side by side.
 * @param runs - samples per kind.
 * @returns p50/p95 per kind, in milliseconds.
 */
export function measureOfficialParser(runs: number): HostileFigures[] {
  return Object.entries(hostileTexts()).map(([kind, text]) => {
    const samples: number[] = []
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now()
      try {
        parseSessionReferenceText(text)
      } catch {
        // a refused mention is an answer too
      }
      samples.push(performance.now() - started)
    }
    return { kind, ...percentiles(samples) }
  })
}

/** What the hostile mode measures: each text through the route, the pre-step and the official parser. */
export interface HostileReportFigures {
  readonly sessions: number
  readonly route: readonly HostileFigures[]
  readonly step: readonly HostileFigures[]
  readonly parser: readonly HostileFigures[]
}

/** Bounded work per text: the route in a real host, the pre-step in process, and the official parser alone on the same text. */
export const hostile: BenchMode = {
  name: 'hostile',
  summary: '64 KiB hostile texts through the preflight route (real host), the pre-step and the official parser',
  async run(context) {
    const sessions = context.sessions()
    const { workspaces } = context.settings
    let store: StoredSession[] = []
    const target = () => store.find(session => session.cwd.endsWith('ws-00'))!
    const stack = await context.stack({
      tarball: context.tarball(),
      beforeBoot: async home => { store = await writeSessionStore(hostDir(), home, spreadSessions(home, sessions, workspaces), { titleCache: true }) },
      cwd: () => dirname(target().cwd),
    })
    let route: HostileFigures[]
    try {
      route = await measureHostileRoute(stack.web.url, target().id, 30)
    } finally {
      await stack.stop()
    }
    const step = await measureHostilePreStep(sessions, workspaces, 30)
    const parser = measureOfficialParser(5)
    return {
      mode: 'hostile',
      settings: { sessions, workspaces, runs: 30, warmUp: 3, parserRuns: 5 },
      figures: { sessions, route, step, parser } satisfies HostileReportFigures,
      units: { route: 'ms', step: 'ms', parser: 'ms' },
      blocks: [table({
        title: `64 KiB texts naming unknown sessions (target p95 ≤ 100 ms): preflight route in the real host / pre-step at ${sessions} sessions (the official step included) / the official parser alone, p50 / p95`,
        columns: ['text', 'preflight route', 'pre-step', 'official parser alone'],
        rows: route.map((figures, n) => [figures.kind, pair(figures), pair(step[n]!), pair(parser[n]!)]),
      })],
    }
  },
}
