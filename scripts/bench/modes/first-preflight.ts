/**
 * The first preflight of a draft right after the host boots, through the
 * real dsh 0.1.0-rc.8 web host with the plugin, at `--sessions` stored
 * sessions (default 2,000): each round restarts `dsh web`, opens a new draft
 * in a stored session's workspace through the host's own `session.create`,
 * and times the draft's first `POST /dsh-sessions/preflight`, one kind of
 * text per round: plain text, a canonical mention of a stored session, its
 * bare id, and an `@Title` of it. The session catalog has not listed the store
 * when that request arrives (its first listing starts with the first request
 * to the plugin); target ≤ 100 ms for each kind the listing is not needed for.
 */
import { dirname } from 'node:path'
import { SessionId } from '@deepseek-ai/dsh-session'
import { formatSessionReferenceMention } from '@deepseek-ai/dsh-session-reference'
import { hostDir } from '../../../dev/pinned-host.ts'
import { type StoredSession, spreadSessions, writeSessionStore } from '../../../dev/session-store.ts'
import { pair, type Percentiles, percentiles, table } from '../figures.ts'
import { newSession } from '../../../dev/host-rpc.ts'
import type { BenchContext, BenchMode } from '../mode.ts'

/** The kinds of text timed, each the first preflight of a round. */
const KINDS = ['plain text', 'canonical mention', 'bare id', '@Title'] as const

/** One kind of text. */
export type FirstPreflightKind = (typeof KINDS)[number]

/** Figures at one store size. */
export interface FirstPreflightFigures {
  readonly sessions: number
  /** Per kind, the first preflight after a boot, over the rounds. */
  readonly kinds: Readonly<Record<FirstPreflightKind, Percentiles>>
  /** Boot of `dsh web` per round. */
  readonly boot: Percentiles
}

function textOf(kind: FirstPreflightKind, source: StoredSession): string {
  switch (kind) {
    case 'plain text': return 'what did we decide about the retries?'
    case 'canonical mention': return `compare ${formatSessionReferenceMention({ sessionId: SessionId(source.id), label: source.title })} please`
    case 'bare id': return `compare ${source.id} please`
    case '@Title': return `compare @${source.title} please`
  }
}

async function preflight(url: string, sessionId: string, text: string): Promise<number> {
  const started = performance.now()
  const res = await fetch(`${url}/dsh-sessions/preflight`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ citingSessionId: sessionId, text }) })
  const json = await res.json() as { ok?: boolean }
  const elapsed = performance.now() - started
  if (res.status !== 200 || json.ok !== true) throw new Error(`preflight answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`)
  return elapsed
}

/**
 * Measures the first preflight after each boot.
 * @param context - the bench's set-up.
 * @param size - stored sessions.
 * @param runs - rounds per kind.
 * @returns the figures.
 */
export async function measureFirstPreflight(context: BenchContext, size: number, runs: number): Promise<FirstPreflightFigures> {
  let store: StoredSession[] = []
  const stack = await context.stack({
    tarball: context.tarball(),
    beforeBoot: async home => {
      store = await writeSessionStore(hostDir(), home, spreadSessions(home, size, 20), { titleCache: true })
    },
    cwd: () => dirname(store[0]!.cwd),
    boot: false,
  })
  const samples = Object.fromEntries(KINDS.map(kind => [kind, [] as number[]])) as Record<FirstPreflightKind, number[]>
  const boots: number[] = []
  try {
    for (let round = 0; round < runs * KINDS.length; round += 1) {
      const kind = KINDS[round % KINDS.length]!
      // A source the plugin has not read in this boot, in the draft's workspace.
      const source = store[store.length - 1 - round]!
      const web = await stack.restart()
      boots.push(web.bootMs)
      const draft = await newSession(web.url, source.cwd)
      samples[kind].push(await preflight(web.url, draft, textOf(kind, source)))
      context.progress(`round ${round + 1}: ${kind} ${samples[kind].at(-1)!.toFixed(1)} ms after a boot of ${(web.bootMs / 1000).toFixed(1)} s`)
    }
  } finally {
    await stack.stop()
  }
  return {
    sessions: size,
    kinds: Object.fromEntries(KINDS.map(kind => [kind, percentiles(samples[kind])])) as Record<FirstPreflightKind, Percentiles>,
    boot: percentiles(boots),
  }
}

/** `--only first-preflight`: the first preflight of a draft after each boot, per kind of text. */
export const firstPreflight: BenchMode = {
  name: 'first-preflight',
  summary: 'the first preflight of a draft right after the host boots, per kind of text, through the real host',
  async run(context) {
    const size = context.sessions()
    const runs = Math.min(context.settings.runs, 5)
    const figures = await measureFirstPreflight(context, size, runs)
    return {
      mode: 'first-preflight',
      settings: { sessions: size, workspaces: 20, runs },
      figures,
      units: { sessions: 'count' },
      blocks: [table({
        title: `The first preflight of a new draft right after \`dsh web\` boots, ${size.toLocaleString('en')} stored sessions, ${runs} boots per kind, p50 / p95 (target ≤ 100 ms where the first listing is not needed; boot ${pair(figures.boot)})`,
        columns: ['text', 'first preflight'],
        rows: KINDS.map(kind => [kind, pair(figures.kinds[kind])]),
      })],
    }
  },
}
