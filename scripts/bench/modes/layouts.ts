/**
 * `npm run bench -- --only layouts`: layouts of the SQLite content index
 * side by side on each corpus asked for (`CORPORA`), each in a child
 * process of its own (with `--expose-gc`) so their memory starts from the
 * same baseline. A layout is what FTS5 records of each term (`detail`), its
 * prefix indexes, the deflate level and piece size of the stored text,
 * whether `places` names the pieces holding each term, and whether Chinese
 * and Japanese runs of three characters are terms (see `sqlite-index.ts`).
 * Each child indexes every session as the log pass would (one
 * session at a time, the corpus generated as it goes so the child never
 * holds it), then saves, reopens its file in a fresh keeper, answers the
 * bench queries of every kind, and appends 100 new messages to 100 sessions
 * as live sessions do. Reported per layout: build time and processor share,
 * peak and settled resident memory over the baseline, file size against the
 * searchable text, reopen time, query p50/p95 per kind with every answer
 * checked against the corpus's own matching rules, and the bytes written for
 * the 100 messages.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BenchQuery, benchQueries, CORPORA, type ConversationSpec, type CorpusName, sessionText } from '../../../dev/corpus.ts'
import { percentile } from '../../../dev/percentile.ts'
import type { BenchMode } from '../mode.ts'
import { ms, note, type Table, table } from '../figures.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { IndexKeeper, sqliteFileOf } from '../../../src/host/search/index-keeper.ts'
import { queryTerms } from '../../../src/host/search/terms.ts'
import { FTS5_MERGE, LAYOUT, type SqliteLayout } from '../../../src/host/search/index-file.ts'

/** The layouts measured: the one the index uses first. */
export const LAYOUTS: readonly SqliteLayout[] = [
  LAYOUT,
  { ...LAYOUT, placesOfWords: 'first' },
  { ...LAYOUT, level: 6 },
  { ...LAYOUT, threes: false },
  { ...LAYOUT, pieceChars: 8 * 1024 },
  { ...LAYOUT, places: false },
  { ...LAYOUT, detail: 'column' },
  { ...LAYOUT, merge: FTS5_MERGE },
  { ...LAYOUT, pieceChars: 16 * 1024 },
  { ...LAYOUT, pieceChars: 16 * 1024, threes: false },
  { ...LAYOUT, pieceChars: 32 * 1024, threes: false },
  { ...LAYOUT, placesFrom: 4 },
  { ...LAYOUT, placesFrom: 0 },
  { ...LAYOUT, placesOfWords: 'every' },
]

/** A layout's name in the tables. */
export const layoutLabel = (layout: SqliteLayout): string => `detail=${layout.detail}, prefix ${layout.prefix.length === 0 ? 'none' : layout.prefix.join(' ')}, deflate level ${layout.level}, ${layout.pieceChars / 1024} KiB pieces, ${layout.places ? `places (words: ${layout.placesOfWords === 'first' ? 'first piece' : layout.placesOfWords === 'every' ? 'every piece' : 'first piece, later pieces in inside'})` : 'no places'}, ${layout.threes ? 'CJK runs of three' : 'CJK pairs only'}, ${layout.placesFrom > 0 ? `places from ${layout.placesFrom + 1} pieces, ` : ''}FTS5 merging ${layout.merge.automerge} segments at a time`

/** What one engine's child reports. */
export interface EngineFigures {
  readonly layout: SqliteLayout
  readonly buildMs: number
  /** Processor time of the build over its wall time. */
  readonly buildCores: number
  readonly saveMs: number
  readonly baselineMb: number
  readonly peakMb: number
  readonly settledMb: number
  readonly fileBytes: number
  readonly reopenMs: number
  readonly reopenedMb: number
  readonly queries: readonly { readonly kind: string; readonly query: string; readonly expected: number; readonly found: number; readonly exact: boolean; readonly p50: number; readonly p95: number }[]
  readonly all: { readonly p50: number; readonly p95: number }
  /** Bytes written to disk for 100 new messages. */
  readonly appendBytes: number
  readonly appendMs: number
}

/** What the parent hands a child. */
interface ChildInput {
  readonly layout: SqliteLayout
  readonly corpus: CorpusName
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
  const keeper = new IndexKeeper({ sqlite: { layout: input.layout } })
  await keeper.load(file)
  const ids: string[] = []
  const started = performance.now()
  const cpu = process.cpuUsage()
  let n = 0
  for (const spec of CORPORA[input.corpus](hostDir(), { sessions: input.sessions, workspaces: input.workspaces })) {
    const id = `session-${String(n).padStart(6, '0')}`
    ids.push(id)
    keeper.apply(id, entryOf(n, spec.turns, spec.title))
    n += 1
    if (n % 100 === 0) peakMb = Math.max(peakMb, rss())
  }
  const buildMs = performance.now() - started
  const used = process.cpuUsage(cpu)
  const buildCores = (used.user + used.system) / 1000 / buildMs
  const saving = performance.now()
  const sampler = setInterval(() => { peakMb = Math.max(peakMb, rss()) }, 50)
  await keeper.save(file, true)
  clearInterval(sampler)
  const saveMs = performance.now() - saving
  peakMb = Math.max(peakMb, rss())
  gc()
  const settledMb = rss()
  keeper.close()
  const fileBytes = ['', '-wal'].reduce((sum, end) => { try { return sum + statSync(`${sqliteFileOf(file)}${end}`).size } catch { return sum } }, 0)

  // A fresh keeper over the same file, as after a restart.
  const reopening = performance.now()
  const reopened = new IndexKeeper({ sqlite: { layout: input.layout } })
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
    queries.push({ kind: query.kind, query: query.query, expected: expected.size, found: found.size, exact, p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) })
  }

  // 100 new messages, one each to 100 sessions spread over the corpus, as live sessions add them.
  const before = writtenBytes()
  const appending = performance.now()
  let k = 0
  for (const spec of CORPORA[input.corpus](hostDir(), { sessions: input.sessions, workspaces: input.workspaces })) {
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
    layout: input.layout,
    buildMs,
    buildCores,
    saveMs,
    baselineMb,
    peakMb,
    settledMb,
    fileBytes,
    reopenMs,
    reopenedMb,
    queries,
    all: { p50: percentile(all, 0.5), p95: percentile(all, 0.95) },
    appendBytes: before === undefined || after === undefined ? 0 : after - before,
    appendMs,
  }
}

/**
 * Runs every layout, one after the other, on the same corpus and queries.
 * The corpus is generated twice (once for the queries and the text's size,
 * once per child), never held whole.
 * @param options - corpus size, workspaces, query runs, and which layouts (indexes into {@link LAYOUTS}).
 * @returns the figures of each layout, and the corpus's size.
 */
export async function measureLayouts(options: { corpus: CorpusName; sessions: number; workspaces: number; runs: number; layouts?: readonly number[]; querySessions?: number }): Promise<{ corpus: CorpusName; sessions: number; messages: number; textBytes: number; layouts: EngineFigures[] }> {
  let messages = 0
  let textBytes = 0
  const sample: ConversationSpec[] = []
  const querySessions = options.querySessions ?? options.sessions
  for (const spec of CORPORA[options.corpus](hostDir(), { sessions: options.sessions, workspaces: options.workspaces })) {
    messages += spec.turns.length * 2
    textBytes += Buffer.byteLength(sessionText(spec))
    if (sample.length < querySessions) sample.push(spec)
  }
  // Queries made from the first `querySessions` sessions are checked against those only: on the whole corpus an answer then counts as exact when it holds them or is capped.
  const queries = benchQueries(sample, { perKind: 3 })
  sample.length = 0
  const figures: EngineFigures[] = []
  for (const layout of (options.layouts ?? LAYOUTS.map((_, n) => n)).map(n => LAYOUTS[n]!)) {
    const folder = mkdtempSync(join(tmpdir(), 'dsh-sessions-layout-'))
    try {
      const inputFile = join(folder, 'input.json')
      writeFileSync(inputFile, JSON.stringify({ layout, corpus: options.corpus, sessions: options.sessions, workspaces: options.workspaces, runs: options.runs, folder, queries, partial: options.querySessions !== undefined } satisfies ChildInput))
      const script = fileURLToPath(import.meta.url)
      const out = await new Promise<string>((resolve, reject) => {
        const run = spawn(process.execPath, ['--expose-gc', script, '--child', inputFile], { stdio: ['ignore', 'pipe', 'inherit'] })
        let text = ''
        run.stdout.on('data', chunk => { text += chunk })
        run.on('exit', code => (code === 0 ? resolve(text) : reject(new Error(`the run of ${layoutLabel(layout)} exited with ${code}`))))
      })
      figures.push(JSON.parse(out.trim().split('\n').at(-1)!) as EngineFigures)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }
  return { corpus: options.corpus, sessions: options.sessions, messages, textBytes, layouts: figures }
}

/**
 * A layout's name in a table: how it differs from the product's, or `chosen`.
 * @param layout - one of {@link LAYOUTS}.
 * @returns a few words.
 */
export function layoutDifference(layout: SqliteLayout): string {
  const differences: string[] = []
  if (layout.detail !== LAYOUT.detail) differences.push(`detail=${layout.detail}`)
  if (layout.level !== LAYOUT.level) differences.push(`deflate level ${layout.level}`)
  if (layout.pieceChars !== LAYOUT.pieceChars) differences.push(`${layout.pieceChars / 1024} KiB pieces`)
  if (layout.places !== LAYOUT.places) differences.push(layout.places ? 'places' : 'no places')
  if (layout.placesOfWords !== LAYOUT.placesOfWords) differences.push(layout.placesOfWords === 'every' ? 'words in every piece' : layout.placesOfWords === 'first' ? 'words in the first piece, none apart' : 'later pieces\' words apart')
  if (layout.threes !== LAYOUT.threes) differences.push(layout.threes ? 'CJK runs of three' : 'CJK pairs only')
  if (layout.places && layout.placesFrom !== LAYOUT.placesFrom) differences.push(layout.placesFrom === 0 ? 'places of every session' : `places from ${layout.placesFrom + 1} pieces`)
  if (layout.merge.automerge !== LAYOUT.merge.automerge) differences.push(`merging ${layout.merge.automerge} at a time`)
  return differences.length === 0 ? 'chosen' : differences.join(', ')
}

/**
 * The layouts of one corpus side by side.
 * @param figures - what {@link measureLayouts} measured.
 * @returns a table, a column per layout.
 */
export function layoutsTable(figures: Awaited<ReturnType<typeof measureLayouts>>): Table {
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`
  const engines = figures.layouts
  const row = (label: string, value: (engine: EngineFigures) => string) => [label, ...engines.map(value)]
  const slowest = (engine: EngineFigures) => engine.queries.reduce((worst, query) => (query.p95 > worst.p95 ? query : worst))
  return {
    title: `Layouts of the content index, in process, ${figures.sessions.toLocaleString('en')} ${figures.corpus} sessions, ${figures.messages.toLocaleString('en')} messages, ${mb(figures.textBytes)} of searchable text`,
    columns: ['', ...engines.map(engine => layoutDifference(engine.layout))],
    rows: [
      row('build: time / share of a core', e => `${ms(e.buildMs)} / ${(100 * e.buildCores).toFixed(0)} %`),
      row('file on disk / searchable text', e => `${mb(e.fileBytes)} / ${(e.fileBytes / figures.textBytes).toFixed(2)}×`),
      row('memory over the baseline: peak / settled', e => `${(e.peakMb - e.baselineMb).toFixed(0)} MB / ${(e.settledMb - e.baselineMb).toFixed(0)} MB`),
      row('queries, all kinds: p50 / p95', e => `${ms(e.all.p50)} / ${ms(e.all.p95)}`),
      row('the slowest query, p95', e => `${slowest(e).query} ${ms(slowest(e).p95)}`),
      row('answers exact', e => `${e.queries.filter(query => query.exact).length} of ${e.queries.length}`),
      row('100 new messages: bytes written / time', e => `${mb(e.appendBytes)} / ${ms(e.appendMs)}`),
    ],
  }
}

/**
 * Each query on each layout, as printed lines.
 * @param figures - what {@link measureLayouts} measured.
 * @returns markdown lines.
 */
export function layoutQueriesReport(figures: Awaited<ReturnType<typeof measureLayouts>>): string[] {
  const engines = figures.layouts
  return [
    `| kind | query | sessions that match | ${engines.map(engine => `${layoutDifference(engine.layout)}: answered, exact, p50 / p95`).join(' | ')} |`,
    `| --- | --- | --- | ${engines.map(() => '---').join(' | ')} |`,
    ...engines[0]!.queries.map((query, n) => `| ${query.kind} | ${query.query} | ${query.expected} | ${engines.map(engine => {
      const one = engine.queries[n]!
      return `${one.found}, ${one.exact ? 'yes' : 'NO'}, ${ms(one.p50)} / ${ms(one.p95)}`
    }).join(' | ')} |`),
  ]
}

const childAt = process.argv.indexOf('--child')
if (childAt >= 0) {
  const input = JSON.parse(readFileSync(process.argv[childAt + 1]!, 'utf8')) as ChildInput
  const figures = await child(input)
  process.stdout.write(`${JSON.stringify(figures)}\n`)
}

/** `--only layouts`: layouts of the content index side by side, each built in a child process of its own from the same corpus. */
export const layouts: BenchMode = {
  name: 'layouts',
  summary: 'layouts of the content index side by side, each built in a child process of its own from the same corpus',
  async run(context) {
    const { layouts: chosen, querySessions } = context.settings
    const options = { sessions: context.sessions(), workspaces: context.settings.workspaces, runs: 30 }
    const figures = []
    for (const corpus of context.settings.corpora) {
      figures.push(await measureLayouts({ ...options, corpus, ...(chosen === undefined ? {} : { layouts: chosen }), ...(querySessions === undefined ? {} : { querySessions }) }))
    }
    return {
      mode: 'layouts',
      settings: { ...options, corpora: context.settings.corpora, ...(chosen === undefined ? {} : { layouts: chosen }), ...(querySessions === undefined ? {} : { querySessions }) },
      figures,
      units: { textBytes: 'bytes', buildMs: 'ms', fileBytes: 'bytes', appendBytes: 'bytes', appendMs: 'ms' },
      blocks: figures.flatMap(one => [table(layoutsTable(one)), note(`chosen: ${layoutLabel(LAYOUT)}`), ...layoutQueriesReport(one).map(note)]),
    }
  },
}
