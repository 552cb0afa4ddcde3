/**
 * `npm run bench -- --only engines`: the two content-index engines side by
 * side on the realistic corpus (`realisticCorpus`), each in a child process
 * of its own (with `--expose-gc`) so their memory starts from the same
 * baseline: the memory engine (MiniSearch, saved as one JSON file) and the
 * SQLite engine (FTS5 on disk). Each child indexes every session as the log
 * pass would (one session at a time, the corpus generated as it goes so the
 * child never holds it), then saves, reopens its file in a fresh keeper,
 * answers the bench queries of every kind, and appends 100 new messages to
 * 100 sessions as live sessions do. Reported per engine: build time, peak
 * and settled resident memory over the baseline, file size, reopen time and
 * memory, query p50/p95 per kind with every answer checked against the
 * corpus's own matching rules, and the bytes written for the 100 messages.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BenchQuery, benchQueries, realisticCorpus, realisticSessions, sessionText } from '../../../dev/corpus.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { IndexKeeper, sqliteFileOf } from '../../../src/host/search/index-keeper.ts'
import { queryTerms } from '../../../src/host/search/text.ts'
import type { IndexEngine } from '../../../src/host/search/worker-protocol.ts'
import { ms, pair, type Percentiles, percentiles, table } from '../figures.ts'
import type { BenchMode } from '../mode.ts'

/** What one engine's child reports. */
export interface EngineFigures {
  readonly engine: IndexEngine
  readonly buildMs: number
  readonly saveMs: number
  readonly baselineMb: number
  readonly peakMb: number
  readonly settledMb: number
  readonly fileBytes: number
  readonly reopenMs: number
  readonly reopenedMb: number
  readonly queries: readonly ({ readonly kind: string; readonly query: string; readonly expected: number; readonly found: number; readonly exact: boolean } & Percentiles)[]
  readonly all: Percentiles
  /** Bytes written to disk for 100 new messages (the memory engine: its next save). */
  readonly appendBytes: number
  readonly appendMs: number
}

/** What the parent hands a child. */
interface ChildInput {
  readonly engine: IndexEngine
  readonly sessions: number
  readonly workspaces: number
  readonly runs: number
  readonly folder: string
  readonly queries: readonly BenchQuery[]
  /** The queries' matches were counted on the first sessions only: an answer must hold them (or be capped). */
  readonly partial?: boolean
}

const LIMIT = 50
const rss = (): number => process.memoryUsage().rss / 2 ** 20
const gc = (): void => (globalThis as { gc?: () => void }).gc?.()

/** Bytes this process has written to storage so far (Linux), or `undefined`. */
function writtenBytes(): number | undefined {
  try {
    return Number(/write_bytes:\s*(\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1])
  } catch {
    return undefined
  }
}

const entryOf = (n: number, turns: readonly { user: string; reply: string }[], title: string) => ({
  revision: `bench:${n}`,
  title,
  messages: turns.flatMap(turn => [turn.user, turn.reply]),
})

async function child(input: ChildInput): Promise<EngineFigures> {
  gc()
  const baselineMb = rss()
  let peakMb = baselineMb
  const file = join(input.folder, 'content-index.json')
  const keeper = new IndexKeeper({ engine: input.engine })
  await keeper.load(file)
  const ids: string[] = []
  const started = performance.now()
  let n = 0
  for (const spec of realisticSessions(hostDir(), { sessions: input.sessions, workspaces: input.workspaces })) {
    const id = `session-${String(n).padStart(6, '0')}`
    ids.push(id)
    keeper.apply(id, entryOf(n, spec.turns, spec.title))
    n += 1
    if (n % 100 === 0) peakMb = Math.max(peakMb, rss())
  }
  const buildMs = performance.now() - started
  const saving = performance.now()
  const sampler = setInterval(() => { peakMb = Math.max(peakMb, rss()) }, 50)
  await keeper.save(file, true)
  clearInterval(sampler)
  const saveMs = performance.now() - saving
  peakMb = Math.max(peakMb, rss())
  gc()
  const settledMb = rss()
  keeper.close()
  const fileBytes = input.engine === 'sqlite'
    ? ['', '-wal'].reduce((sum, end) => { try { return sum + statSync(`${sqliteFileOf(file)}${end}`).size } catch { return sum } }, 0)
    : statSync(file).size

  // A fresh keeper over the same file, as after a restart.
  const reopening = performance.now()
  const reopened = new IndexKeeper({ engine: input.engine })
  await reopened.load(file)
  const reopenMs = performance.now() - reopening
  gc()
  const reopenedMb = rss()
  const admitted = ids.map((id, k) => [id, k] as const)
  const queries: EngineFigures['queries'][number][] = []
  const all: number[] = []
  for (const query of input.queries) {
    const terms = queryTerms(query.query)
    const expected = new Set(query.expected.map(k => ids[k]!))
    const found = new Set(reopened.search(terms, admitted, LIMIT).map(hit => hit.id))
    const exact = input.partial === true
      ? found.size === LIMIT || [...expected].every(id => found.has(id))
      : expected.size > LIMIT ? found.size === LIMIT && [...found].every(id => expected.has(id)) : found.size === expected.size && [...expected].every(id => found.has(id))
    const samples: number[] = []
    for (let run = 0; run < input.runs; run += 1) {
      const at = performance.now()
      reopened.search(terms, admitted, LIMIT)
      samples.push(performance.now() - at)
    }
    all.push(...samples)
    queries.push({ kind: query.kind, query: query.query, expected: expected.size, found: found.size, exact, ...percentiles(samples) })
  }

  // 100 new messages, one each to 100 sessions spread over the corpus, as live sessions add them.
  const before = writtenBytes()
  const appending = performance.now()
  let k = 0
  for (const spec of realisticSessions(hostDir(), { sessions: input.sessions, workspaces: input.workspaces })) {
    if (k % Math.max(1, Math.floor(input.sessions / 100)) === 0 && k / Math.max(1, Math.floor(input.sessions / 100)) < 100) {
      const entry = entryOf(k, spec.turns, spec.title)
      reopened.apply(ids[k]!, { ...entry, revision: `live:${k}`, messages: [...entry.messages, `A new message about the quetzal rollout, number ${k}.`] })
    }
    k += 1
  }
  await reopened.save(file, true)
  const appendMs = performance.now() - appending
  const after = writtenBytes()
  reopened.close()
  return {
    engine: input.engine,
    buildMs,
    saveMs,
    baselineMb,
    peakMb,
    settledMb,
    fileBytes,
    reopenMs,
    reopenedMb,
    queries,
    all: percentiles(all),
    appendBytes: before === undefined || after === undefined ? (input.engine === 'memory' ? statSync(file).size : 0) : after - before,
    appendMs,
  }
}

/**
 * Runs both engines, one after the other, on the same corpus and queries.
 * @param options - corpus size, workspaces and query runs.
 * @returns the figures of each engine, and the corpus's size.
 */
export async function measureEngines(options: { sessions: number; workspaces: number; runs: number; engines?: readonly IndexEngine[]; querySessions?: number }): Promise<{ sessions: number; messages: number; textBytes: number; engines: EngineFigures[] }> {
  const corpus = realisticCorpus(hostDir(), { sessions: options.sessions, workspaces: options.workspaces })
  // Queries made from the first `querySessions` sessions (the same seed makes the same sessions first) are
  // checked against those only: on the whole corpus an answer then counts as exact when it holds true matches.
  const queries = benchQueries(options.querySessions === undefined ? corpus : corpus.slice(0, options.querySessions), { perKind: 3 })
  const messages = corpus.reduce((sum, spec) => sum + spec.turns.length * 2, 0)
  const textBytes = corpus.reduce((sum, spec) => sum + Buffer.byteLength(sessionText(spec)), 0)
  corpus.length = 0
  const engines: EngineFigures[] = []
  for (const engine of options.engines ?? ['memory', 'sqlite'] as const) {
    const folder = mkdtempSync(join(tmpdir(), `dsh-sessions-engine-${engine}-`))
    try {
      const inputFile = join(folder, 'input.json')
      writeFileSync(inputFile, JSON.stringify({ engine, sessions: options.sessions, workspaces: options.workspaces, runs: options.runs, folder, queries, partial: options.querySessions !== undefined } satisfies ChildInput))
      const script = fileURLToPath(import.meta.url)
      const out = await new Promise<string>((resolve, reject) => {
        const run = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=8192', script, '--child', inputFile], { stdio: ['ignore', 'pipe', 'inherit'] })
        let text = ''
        run.stdout.on('data', chunk => { text += chunk })
        run.on('exit', code => (code === 0 ? resolve(text) : reject(new Error(`the ${engine} engine's run exited with ${code}`))))
      })
      engines.push(JSON.parse(out.trim().split('\n').at(-1)!) as EngineFigures)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }
  return { sessions: options.sessions, messages, textBytes, engines }
}

/**
 * The figures as tables.
 * @param figures - what {@link measureEngines} gave.
 * @returns the engines side by side, and the queries.
 */
export function enginesBlocks(figures: Awaited<ReturnType<typeof measureEngines>>) {
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`
  const engines = figures.engines
  const name = (engine: EngineFigures) => (engine.engine === 'memory' ? 'memory (MiniSearch, one JSON file)' : 'SQLite FTS5 on disk')
  const row = (label: string, value: (engine: EngineFigures) => string) => [label, ...engines.map(value)]
  return [
    table({
      title: `content index engines at ${figures.sessions} realistic sessions, ${figures.messages} messages, ${mb(figures.textBytes)} of searchable text`,
      columns: ['figure', ...engines.map(name)],
      rows: [
        row('build (index every session)', e => ms(e.buildMs)),
        row('save after the build', e => ms(e.saveMs)),
        row('resident memory over the baseline: peak / settled', e => `${(e.peakMb - e.baselineMb).toFixed(0)} MB / ${(e.settledMb - e.baselineMb).toFixed(0)} MB`),
        row('file on disk', e => mb(e.fileBytes)),
        row('reopen (restart): time / memory over the baseline', e => `${ms(e.reopenMs)} / ${(e.reopenedMb - e.baselineMb).toFixed(0)} MB`),
        row('queries, all kinds: p50 / p95', e => pair(e.all)),
        row('answers exact', e => `${e.queries.filter(query => query.exact).length} of ${e.queries.length}`),
        row('100 new messages: bytes written / time', e => `${mb(e.appendBytes)} / ${ms(e.appendMs)}`),
      ],
    }),
    table({
      columns: ['kind', 'query', 'sessions that match', ...engines.map(engine => `${engine.engine}: answered, exact, p50 / p95`)],
      rows: engines[0]!.queries.map((query, n) => [query.kind, query.query, String(query.expected), ...engines.map(engine => {
        const one = engine.queries[n]!
        return `${one.found}, ${one.exact ? 'yes' : 'NO'}, ${pair(one)}`
      })]),
    }),
  ]
}

/** `--only engines`: both content index engines in processes of their own, on the realistic corpus. */
export const engines: BenchMode = {
  name: 'engines',
  summary: 'the content index engines (memory, SQLite) side by side, each in a process of its own',
  async run(context) {
    const { engines: chosen, querySessions } = context.settings
    const options = { sessions: context.sessions(), workspaces: context.settings.workspaces, runs: 30 }
    const figures = await measureEngines({ ...options, ...(chosen === undefined ? {} : { engines: chosen }), ...(querySessions === undefined ? {} : { querySessions }) })
    return {
      mode: 'engines',
      settings: { ...options, engines: figures.engines.map(engine => engine.engine), ...(querySessions === undefined ? {} : { querySessions }) },
      figures,
      units: { textBytes: 'bytes', buildMs: 'ms', saveMs: 'ms', baselineMb: 'MiB', peakMb: 'MiB', settledMb: 'MiB', fileBytes: 'bytes', reopenMs: 'ms', reopenedMb: 'MiB', appendBytes: 'bytes', appendMs: 'ms', expected: 'count', found: 'count' },
      blocks: enginesBlocks(figures),
    }
  },
}

const childAt = process.argv.indexOf('--child')
if (childAt >= 0) {
  const input = JSON.parse(readFileSync(process.argv[childAt + 1]!, 'utf8')) as ChildInput
  const figures = await child(input)
  process.stdout.write(`${JSON.stringify(figures)}\n`)
}
