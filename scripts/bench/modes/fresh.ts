/**
 * Sessions another process writes while the real dsh 0.1.0-rc.8 web host
 * runs with this plugin, at each `--sessions` size (past 2,000 the store is
 * 2,000 sessions the host's writer wrote plus copies, as in `since`). The
 * bench process stands for a terminal `dsh`: it writes with the host's own
 * session writer into the same store. Measured from the end of each write:
 * until the plugin's `search` route finds the session by a title word and by a
 * word of its message, and until the per-id `since` route knows its id; then a
 * burst of 1,000 sessions written at once, until the last of them is found,
 * with the host's processor time over the burst; and the listings of the
 * whole store the plugin made meanwhile (none is needed). Target: each
 * session found within 5 s, with no full-store listing. rc.8 itself has no
 * watch: its `@` menu lists the whole store on every request (the `candidates`
 * mode measures what that costs), and its sidebar shows a session written
 * elsewhere only after the page is loaded again.
 */
import { dirname } from 'node:path'
import { hostDir } from '../../../dev/pinned-host.ts'
import { groupUsage } from '../../../dev/process-usage.ts'
import { type StoredSession, spreadSessions, writeSessionStore } from '../../../dev/session-store.ts'
import { ms, pair, type Percentiles, percentiles, table } from '../figures.ts'
import type { BenchMode } from '../mode.ts'
import { copySessions } from './since.ts'

/** Figures at one store size. */
export interface FreshFigures {
  readonly sessions: number
  readonly title: Percentiles
  readonly words: Percentiles
  readonly id: Percentiles
  /** From the end of the burst's write until its last session is found by a word. */
  readonly burstMs: number
  readonly burst: number
  /** Host processor milliseconds from the start of the burst's write until its last session is found. */
  readonly burstCpuMs: number
  /** Listings of the whole store the plugin made while the new sessions were found. */
  readonly listings: number
}

const WRITTEN = 2000
const SINGLES = 10
const BURST = 1000
/** Longest wait for one session to be found before the bench gives up on it. */
const LIMIT_MS = 120_000

/** A word no other session holds: letters only, so it is one term in every tokenizer. */
function word(n: number): string {
  let out = ''
  for (let rest = n + 26 * 26; rest > 0; rest = Math.floor(rest / 26)) out += String.fromCharCode(97 + (rest % 26))
  return `qz${out}`
}

async function postJson(url: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${url}/dsh-sessions/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`)
  return res.json()
}

async function found(url: string, query: string, id: string): Promise<boolean> {
  const answer = await postJson(url, 'search', { query, limit: 5 }) as { results: { sessionId: string }[] }
  return answer.results.some(result => result.sessionId === id)
}

async function known(url: string, id: string): Promise<boolean> {
  const answer = await postJson(url, 'since', { sources: [{ sessionId: id, capturedThroughSeq: null }] }) as { sources: { newMessages: number }[] }
  return (answer.sources[0]?.newMessages ?? 0) > 0
}

/** Milliseconds from `since` until `check` holds, polled every 10 ms. */
async function until(since: number, check: () => Promise<boolean>, what: string): Promise<number> {
  while (!(await check())) {
    if (performance.now() - since > LIMIT_MS) throw new Error(`${what} not found after ${LIMIT_MS} ms`)
    await new Promise(resolve => setTimeout(resolve, 10))
  }
  return performance.now() - since
}

async function status(url: string): Promise<{ ready: boolean; catalog: { listings: number } }> {
  return (await (await fetch(`${url}/dsh-sessions/content-index`)).json()) as { ready: boolean; catalog: { listings: number } }
}

/** The table of the figures. */
export function freshTable(figures: readonly FreshFigures[]) {
  return table({
    title: 'Sessions another process writes, found through the real host from the end of their write, p50 / p95 of 10 (target: within 5 s, with no listing of the whole store)',
    columns: ['sessions', 'by a title word', 'by a word said', 'by its id', `a burst of ${BURST.toLocaleString('en')}: last found`, 'host CPU over the burst', 'listings meanwhile'],
    rows: figures.map(f => [f.sessions.toLocaleString('en'), pair(f.title), pair(f.words), pair(f.id), ms(f.burstMs), ms(f.burstCpuMs), String(f.listings)]),
  })
}

/** `--only fresh`: sessions another process writes, at each `--sessions` size. */
export const fresh: BenchMode = {
  name: 'fresh',
  summary: 'sessions another process writes while the real host runs, found by title, words and id, and a burst of 1,000',
  async run(context) {
    const sizes = context.settings.sessions
    const figures: FreshFigures[] = []
    for (const size of sizes) {
      let store: StoredSession[] = []
      const stack = await context.stack({
        tarball: context.tarball(),
        beforeBoot: async home => {
          const written = await writeSessionStore(hostDir(), home, spreadSessions(home, Math.min(size, WRITTEN), 20), { titleCache: true })
          store = size > written.length ? copySessions(home.dshHome, written, size) : written
        },
        cwd: () => dirname(store[0]!.cwd),
      })
      try {
        const url = stack.web.url
        await until(performance.now(), async () => (await status(url)).ready, 'the built index')
        const listings = (await status(url)).catalog.listings
        const cwd = store[0]!.cwd
        const title: number[] = []
        const words: number[] = []
        const id: number[] = []
        for (let n = 0; n < SINGLES; n += 1) {
          const [session] = await writeSessionStore(hostDir(), stack.home, [{ cwd, title: `Terminal ${word(n)}x notes`, text: `We measured the ${word(n)} cache from the terminal` }], { titleCache: false })
          const done = performance.now()
          id.push(await until(done, () => known(url, session!.id), 'the id'))
          title.push(await until(done, () => found(url, `${word(n)}x`, session!.id), 'the title'))
          words.push(await until(done, () => found(url, word(n), session!.id), 'the words'))
        }
        const specs = Array.from({ length: BURST }, (_, n) => ({ cwd, title: `Burst ${n}`, text: `The ${word(SINGLES + n)} note of the burst` }))
        const cpuBefore = groupUsage(stack.web.pid).cpuSeconds
        const burst = await writeSessionStore(hostDir(), stack.home, specs, { titleCache: false })
        const done = performance.now()
        const burstMs = await until(done, () => found(url, word(SINGLES + BURST - 1), burst.at(-1)!.id), 'the burst\'s last session')
        const burstCpuMs = (groupUsage(stack.web.pid).cpuSeconds - cpuBefore) * 1000
        const row: FreshFigures = { sessions: size, title: percentiles(title), words: percentiles(words), id: percentiles(id), burstMs, burst: BURST, burstCpuMs, listings: (await status(url)).catalog.listings - listings }
        figures.push(row)
        context.progress(`${size} sessions: title ${pair(row.title)}; words ${pair(row.words)}; id ${pair(row.id)}; burst's last ${ms(burstMs)}, host CPU ${ms(burstCpuMs)}; listings ${row.listings}`)
      } finally {
        await stack.stop()
      }
    }
    return {
      mode: 'fresh',
      settings: { sessions: sizes, singles: SINGLES, burst: BURST, written: WRITTEN },
      figures,
      units: { sessions: 'count', burstMs: 'ms', burst: 'count', burstCpuMs: 'ms of host CPU (10 ms ticks)', listings: 'count' },
      blocks: [freshTable(figures)],
    }
  },
}
