/**
 * `--only agent-reads`: references the agent reads on demand, through the
 * real host. Two stored sessions of realistic text, 5,000 and 50,000
 * messages, each with one planted decision; the plugin's host with its
 * content index built. For each: the whole-session snapshot's and the
 * pointer's size and tokens as the dock measures them (the preflight route,
 * the host's token meter), the pointer's preflight time, and `read_session`
 * with a query, timed from the model's request that makes the call to the
 * request that carries its answer, with the planted message's rank; and the
 * find bar's route, `POST /dsh-sessions/find`, for the planted words and for a
 * word said all through the session.
 * @module
 */
import { realisticSessions, type RealisticTurn } from '../../../dev/corpus.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { newSession, rpc } from '../../../dev/host-rpc.ts'
import { writeSessionStore } from '../../../dev/session-store.ts'
import { humanText, startModel, textOf, toolAnswersSinceHuman } from '../../../dev/stand-in-model.ts'
import { formatMessageReference } from '../plugin-parts.ts'
import { ms, pair, type Percentiles, percentiles, table } from '../figures.ts'
import type { BenchMode } from '../mode.ts'

/** The planted decision: one message no other holds. */
const DECISION = 'We decided the quetzal flag stays off until the 灰度 review ends.'

/** Where in the session the decision is planted: within the first 16 M characters `read_session` reads of a session, at 50,000 messages too. */
const PLANTED_AT = 0.3

/** What the model searches for. */
const QUERY = 'quetzal flag'

/** One long session's figures. */
export interface ReadsFigures {
  readonly messages: number
  /** The planted message's number. */
  readonly planted: number
  readonly whole: { readonly bytes: number; readonly tokens: number }
  readonly pointer: { readonly bytes: number; readonly tokens: number }
  readonly pointerPreflight: Percentiles
  /** From the request that calls `read_session` with a query to the request that carries its answer. */
  readonly query: Percentiles
  /** The same loop on a two-message session of the same store: the host's own share of it. */
  readonly loop: Percentiles
  /** The planted message's place among the answer's matches (1: first); 0 when missing. */
  readonly rank: number
  /** The find bar's first answer (`POST /dsh-sessions/find`): for the planted words, and for a word said all through the session. */
  readonly find: { readonly rare: Percentiles; readonly common: Percentiles; readonly total: number; readonly complete: boolean }
}

/** A word said all through a long session of the realistic corpus. */
const COMMON = 'error'

async function find(url: string, sessionId: string, query: string): Promise<{ ms: number; total: number; complete: boolean; numbers: number[] }> {
  const started = performance.now()
  const res = await fetch(`${url}/dsh-sessions/find`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId, query }) })
  const json = await res.json() as { matches: { number: number }[]; total: number; complete: boolean }
  const elapsed = performance.now() - started
  if (res.status !== 200) throw new Error(`find refused: ${res.status} ${JSON.stringify(json).slice(0, 300)}`)
  return { ms: elapsed, total: json.total, complete: json.complete, numbers: json.matches.map(match => match.number) }
}

function longTurns(count: number, seed: number, plantAt: number): RealisticTurn[] {
  const turns: RealisticTurn[] = []
  for (const spec of realisticSessions(hostDir(), { sessions: Number.MAX_SAFE_INTEGER, workspaces: 1, seed })) {
    for (const turn of spec.turns) {
      if (turns.length === count) break
      turns.push(turn)
    }
    if (turns.length === count) break
  }
  turns[plantAt] = { ...turns[plantAt]!, user: DECISION }
  return turns
}

async function preflight(url: string, sessionId: string, text: string): Promise<{ ms: number; bytes: number; tokens: number }> {
  const started = performance.now()
  const res = await fetch(`${url}/dsh-sessions/preflight`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ citingSessionId: sessionId, text }) })
  const json = await res.json() as { ok: boolean; sources: { ok: boolean; bytes?: number; tokens?: number }[] }
  const elapsed = performance.now() - started
  const source = json.sources[0]
  if (res.status !== 200 || source?.ok !== true) throw new Error(`preflight refused: ${res.status} ${JSON.stringify(json).slice(0, 300)}`)
  return { ms: elapsed, bytes: source.bytes ?? 0, tokens: source.tokens ?? 0 }
}

/** A turn that asks the stand-in to call `read_session` with the query. */
const CALL = /^READ-QUERY (\S+)$/

/**
 * Measures both sessions.
 * @param runs - queries and preflights per session.
 */
export async function measureAgentReads(context: Parameters<BenchMode['run']>[0], runs: number): Promise<ReadsFigures[]> {
  // Arrival times of the requests that make a call and of those that carry its answer, in order.
  const calls: number[] = []
  const answers: { at: number; text: string }[] = []
  const model = await startModel({
    toolCall: messages => {
      const match = CALL.exec(humanText(messages))
      if (match === null || toolAnswersSinceHuman(messages) > 0) return undefined
      calls.push(performance.now())
      return { name: 'read_session', arguments: JSON.stringify({ sessionId: match[1], query: QUERY }) }
    },
    toolReply: messages => {
      answers.push({ at: performance.now(), text: textOf(messages.at(-1)!) })
      return 'noted'
    },
  })
  const specs = [{ title: 'Long decision notes', turns: 2_500, seed: 41 }, { title: 'Huge decision notes', turns: 25_000, seed: 42 }, { title: 'Short decision notes', turns: 1, seed: 43 }]
  let ids: string[] = []
  let cwd = ''
  const stack = await context.stack({
    tarball: context.tarball(),
    model,
    beforeBoot: async home => {
      cwd = home.project('alpha')
      const written = await writeSessionStore(hostDir(), home, specs.map(spec => {
        const turns = longTurns(spec.turns, spec.seed, Math.floor(spec.turns * PLANTED_AT))
        return { cwd, title: spec.title, text: turns[0]!.user, turns }
      }), { titleCache: false })
      ids = written.map(session => session.id)
    },
  })
  try {
    const url = stack.web.url
    const started = performance.now()
    for (;;) {
      if ((await (await fetch(`${url}/dsh-sessions/content-index`)).json() as { ready: boolean }).ready) break
      if (performance.now() - started > 900_000) throw new Error('the content index was not built in 15 minutes')
      await new Promise(resolve => setTimeout(resolve, 500))
    }
    context.progress(`content index ready ${ms(performance.now() - started)} after the boot`)
    // One call's loop through the host: the request that makes the call to the request that carries its answer.
    const loop = async (id: string): Promise<{ ms: number; text: string }> => {
      const before = answers.length
      const session = await newSession(url, cwd)
      await rpc(url, 'session.prompt', { sessionId: session, mode: 'queue', content: [{ type: 'text', text: `READ-QUERY ${id}` }] })
      const deadline = performance.now() + 120_000
      while (answers.length === before) {
        if (performance.now() > deadline) throw new Error('read_session did not answer in 2 minutes')
        await new Promise(resolve => setTimeout(resolve, 5))
      }
      return { ms: answers.at(-1)!.at - calls.at(-1)!, text: answers.at(-1)!.text }
    }
    const short = ids.at(-1)!
    // Warm the host's loop and the plugin's paths before anything is timed.
    for (let run = 0; run < 3; run += 1) await loop(short)
    const figures: ReadsFigures[] = []
    for (const [n, id] of ids.slice(0, -1).entries()) {
      const spec = specs[n]!
      const draft = await newSession(url, cwd)
      const whole = await preflight(url, draft, `see @[${spec.title}](dsh-session:${Buffer.from(JSON.stringify(id)).toString('base64url')})`)
      const pointerText = `see ${formatMessageReference({ sessionId: id, selection: [], agent: true, label: spec.title })}`
      const pointerRuns: number[] = []
      let pointer = { bytes: 0, tokens: 0 }
      for (let run = 0; run < runs; run += 1) {
        const measured = await preflight(url, await newSession(url, cwd), pointerText)
        pointerRuns.push(measured.ms)
        pointer = { bytes: measured.bytes, tokens: measured.tokens }
      }
      const queryRuns: number[] = []
      const loopRuns: number[] = []
      let rank = 0
      for (let run = 0; run < runs; run += 1) {
        // The long session's call and the short one's alternate, so drift in the machine reaches both alike.
        loopRuns.push((await loop(short)).ms)
        const { ms: elapsed, text } = await loop(id)
        queryRuns.push(elapsed)
        const found = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { matches?: { excerpt: string }[] }
        rank = (found.matches?.findIndex(match => match.excerpt.includes('quetzal flag')) ?? -1) + 1
      }
      const rareRuns: number[] = []
      const commonRuns: number[] = []
      let counted = { total: 0, complete: false }
      for (let run = 0; run < runs; run += 1) {
        const rare = await find(url, id, QUERY)
        if (!rare.numbers.includes(Math.floor(spec.turns * PLANTED_AT) * 2 + 1)) throw new Error(`find did not answer the planted message: ${JSON.stringify(rare)}`)
        rareRuns.push(rare.ms)
        const common = await find(url, id, COMMON)
        commonRuns.push(common.ms)
        counted = { total: common.total, complete: common.complete }
      }
      figures.push({ messages: spec.turns * 2, planted: Math.floor(spec.turns * PLANTED_AT) * 2 + 1, whole: { bytes: whole.bytes, tokens: whole.tokens }, pointer, pointerPreflight: percentiles(pointerRuns), query: percentiles(queryRuns), loop: percentiles(loopRuns), rank, find: { rare: percentiles(rareRuns), common: percentiles(commonRuns), ...counted } })
      context.progress(`${spec.turns * 2} messages: ${JSON.stringify(figures.at(-1))}`)
    }
    return figures
  } finally {
    await stack.stop()
    await model.stop()
  }
}

/** `--only agent-reads`: pointer references against whole snapshots, and `read_session` searching inside long sessions, through the real host. */
export const agentReads: BenchMode = {
  name: 'agent-reads',
  summary: 'pointer references against whole snapshots, and read_session searching inside 5,000- and 50,000-message sessions, through the real host',
  async run(context) {
    const runs = Math.min(context.settings.runs, 20)
    const figures = await measureAgentReads(context, runs)
    const row = (label: string, value: (one: ReadsFigures) => string, target: string) => [label, ...figures.map(value), target]
    return {
      mode: 'agent-reads',
      settings: { runs },
      figures,
      units: { messages: 'count', planted: 'number', bytes: 'bytes', tokens: 'count', pointerPreflight: 'ms', query: 'ms', loop: 'ms', rank: 'place', rare: 'ms', common: 'ms', total: 'count' },
      blocks: [table({
        title: `References the agent reads, through the real host (dsh 0.1.0-rc.8), ${runs} runs each, p50 / p95`,
        columns: ['', ...figures.map(one => `${one.messages.toLocaleString('en')} messages`), 'target'],
        rows: [
          row('whole-session snapshot: bytes, tokens (the dock\'s estimate)', one => `${one.whole.bytes.toLocaleString('en')} B, ≈${one.whole.tokens.toLocaleString('en')}`, '—'),
          row('pointer: bytes, tokens', one => `${one.pointer.bytes.toLocaleString('en')} B, ≈${one.pointer.tokens.toLocaleString('en')}`, '—'),
          row('pointer tokens against the whole snapshot\'s', one => `${((one.pointer.tokens / one.whole.tokens) * 100).toFixed(1)} %`, '≤ 1 %'),
          row('pointer preflight', one => pair(one.pointerPreflight), 'p95 ≤ 50 ms'),
          row('read_session with a query: the call\'s request to the answer\'s', one => pair(one.query), 'p95 ≤ 50 ms'),
          row('the same call on a two-message session (the host\'s own share)', one => pair(one.loop), '—'),
          row('the planted message\'s place in the answer', one => (one.rank === 0 ? 'missing' : `#${one.rank} (message ${one.planted.toLocaleString('en')})`), 'first'),
          row(`find in session, first answer: the planted words ("${QUERY}")`, one => pair(one.find.rare), 'p95 ≤ 50 ms'),
          row(`find in session, first answer: a word said all through ("${COMMON}"; matches counted)`, one => `${pair(one.find.common)} (${one.find.total.toLocaleString('en')}${one.find.complete ? '' : '+'})`, 'p95 ≤ 50 ms'),
        ],
      })],
    }
  },
}
