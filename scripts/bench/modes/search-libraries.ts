/**
 * Dev-only comparison of MiniSearch, FlexSearch and Orama as an in-memory
 * body-search index over a generated conversation corpus (`dev/corpus.ts`,
 * one document per session: every user message and reply joined by
 * newlines), each with two tokenisations of Chinese and Japanese: bigrams,
 * or `Intl.Segmenter('zh')` words. Every (library × tokeniser) runs in its
 * own child process (with `--expose-gc`), so its memory figures start from
 * the same baseline. Prints build time, memory, serialized size, load time,
 * re-indexing time, query latency per query kind, and how exactly each
 * returns the true match set. The product does not depend on any of these
 * libraries.
 *
 *   npm run bench -- --only search-libraries [--sessions 2000 --runs 200]
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { create, insert, load as loadOrama, remove, search as searchOrama } from '@orama/orama'
import { persist } from '@orama/plugin-data-persistence'
import { Index } from 'flexsearch'
import MiniSearch from 'minisearch'
import { type BenchQuery, benchQueries, conversationCorpus, letterRuns, normalizeText, sentencePools, sessionText } from '../../../dev/corpus.ts'
import { repoRoot } from '../../../dev/paths.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { ms as duration, note, type Percentiles, percentiles, table } from '../figures.ts'
import type { BenchMode } from '../mode.ts'

/** Samples per query kind and per re-indexing of a built index: the child's `--runs`, the parent's `--runs` or 200. */
let RUNS = 200
const SEED = 1
/** Queries of each kind; a kind's runs cycle through them. */
const PER_KIND = 5
/** Re-indexing samples on a loaded index (FlexSearch's are slow there). */
const LOADED_REINDEX_RUNS = 50
const LOADS = 3

/** Cuts normalised text into index terms, and a normalised query into query terms (in order; the last one may match as a prefix). */
interface Tokeniser {
  index(text: string): string[]
  query(text: string): string[]
}

/** Code points with the marks that follow them. */
function characters(run: string): string[] {
  return run.match(/\P{M}\p{M}*/gu) ?? []
}

/** Overlapping character pairs of a run; a one-character run is itself. */
function bigrams(run: string): string[] {
  const chars = characters(run)
  if (chars.length < 2) return chars
  return chars.slice(1).map((char, n) => chars[n]! + char)
}

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

/**
 * The two tokenisers. Both keep every other run of letters and digits as one
 * word. `bigram` indexes a Chinese or Japanese run as its character pairs plus
 * its last character alone (so that a one-character prefix finds characters at
 * the end of a run too) and queries it as its pairs; `segmenter` indexes and
 * queries the run as the words `Intl.Segmenter('zh')` finds in it.
 */
const TOKENISERS: Record<string, Tokeniser> = {
  bigram: {
    index: text => letterRuns(normalizeText(text)).flatMap(run => {
      if (!run.cjk) return [run.text]
      const chars = characters(run.text)
      return chars.length === 1 ? chars : [...bigrams(run.text), chars.at(-1)!]
    }),
    query: text => letterRuns(normalizeText(text)).flatMap(run => (run.cjk ? bigrams(run.text) : [run.text])),
  },
  segmenter: {
    index: text => letterRuns(normalizeText(text)).flatMap(run => (run.cjk ? Array.from(segmenter.segment(run.text), s => s.segment) : [run.text])),
    query: text => letterRuns(normalizeText(text)).flatMap(run => (run.cjk ? Array.from(segmenter.segment(run.text), s => s.segment) : [run.text])),
  },
}

/**
 * One library's index, used with AND semantics: every query term must match,
 * the last one as a prefix, the others exactly.
 */
interface Engine {
  search(query: string): number[]
  /** Removes a session and adds it again with this text. */
  reindex(id: number, text: string): void
  /** The library's own serialized form and its size in bytes. */
  save(): Promise<{ data: unknown; bytes: number }>
  /** Waits for work the library deferred (none unless said). */
  settle?(): Promise<void>
}

/** How one library builds, and loads from its serialized form. */
interface Library {
  readonly name: string
  readonly version: string
  build(docs: readonly string[], tokeniser: Tokeniser): Engine
  load(data: unknown, tokeniser: Tokeniser, sessions: number): Promise<Engine>
}

function version(name: string): string {
  return JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version
}

/**
 * MiniSearch does AND and a per-term prefix natively (`combineWith`, `prefix`
 * as a function of the term's position). Re-indexing discards (the removal it
 * recommends: `remove` needs the old text) and leaves the index's garbage to
 * a deferred vacuum.
 */
const miniSearch: Library = (() => {
  const options = (tokeniser: Tokeniser) => ({
    fields: ['text'],
    tokenize: (text: string) => tokeniser.index(text),
    processTerm: (term: string) => term,
    searchOptions: {
      tokenize: (text: string) => tokeniser.query(text),
      processTerm: (term: string) => term,
      combineWith: 'AND',
      prefix: (_term: string, n: number, terms: string[]) => n === terms.length - 1,
    },
  })
  const engine = (index: MiniSearch): Engine => ({
    search: query => index.search(query).map(result => result.id as number),
    reindex: (id, text) => {
      index.discard(id)
      index.add({ id, text })
    },
    settle: () => index.vacuum(),
    save: async () => {
      const data = JSON.stringify(index)
      return { data, bytes: Buffer.byteLength(data) }
    },
  })
  return {
    name: 'MiniSearch',
    version: version('minisearch'),
    build: (docs, tokeniser) => {
      const index = new MiniSearch(options(tokeniser) as never)
      index.addAll(docs.map((text, id) => ({ id, text })))
      return engine(index)
    },
    load: async (data, tokeniser) => engine(MiniSearch.loadJSON(data as string, options(tokeniser) as never)),
  }
})()

/**
 * FlexSearch has no per-term prefix switch (its `forward` tokenizer makes
 * every term a prefix), so each term is indexed as itself and, marked, as
 * each of its prefixes; a query asks for its last term's marked form. The
 * same encoder reads documents and queries, so a query arrives pre-encoded
 * behind a sentinel. `fastupdate` keeps removal cheap, but `import` works
 * only into an index without it (into one with it, it throws), so a loaded
 * index removes by scanning every term.
 */
const flexSearch: Library = (() => {
  const PREFIX = '\u0001'
  const QUERY = '\u0002'
  const options = (tokeniser: Tokeniser, fastupdate: boolean) => ({
    tokenize: 'strict' as const,
    fastupdate,
    encode: (text: string) => {
      if (text.startsWith(QUERY)) return text.slice(1).split(QUERY)
      const terms: string[] = []
      for (const term of new Set(tokeniser.index(text))) {
        terms.push(term)
        let prefix = PREFIX
        for (const char of term) terms.push((prefix += char))
      }
      return terms
    },
  })
  const engine = (index: Index, tokeniser: Tokeniser, sessions: number): Engine => ({
    search: query => {
      const terms = tokeniser.query(query)
      if (terms.length === 0) return []
      terms.push(PREFIX + terms.pop()!)
      return index.search(QUERY + terms.join(QUERY), { limit: sessions }) as number[]
    },
    reindex: (id, text) => {
      index.remove(id)
      index.add(id, text)
    },
    save: async () => {
      const chunks: [string, string][] = []
      await index.export((key: string, data: string) => {
        chunks.push([key, data])
      })
      return { data: chunks, bytes: chunks.reduce((sum, [key, data]) => sum + Buffer.byteLength(key) + Buffer.byteLength(data), 0) }
    },
  })
  return {
    name: 'FlexSearch',
    version: version('flexsearch'),
    build: (docs, tokeniser) => {
      const index = new Index(options(tokeniser, true))
      docs.forEach((text, id) => index.add(id, text))
      return engine(index, tokeniser, docs.length)
    },
    load: async (data, tokeniser, sessions) => {
      const index = new Index(options(tokeniser, false))
      for (const [key, chunk] of data as [string, string][]) await index.import(key, chunk)
      return engine(index, tokeniser, sessions)
    },
  }
})()

/**
 * Orama prefix-matches every term of a search, and its all-terms mode
 * (`threshold: 0`) counts matched words rather than terms, so a term with
 * several prefix completions in one document upsets it. Each term is therefore
 * searched on its own and the results intersected here. Index terms end in a
 * terminator, so a term searched with the terminator matches only itself and
 * the last term (searched without) matches as a prefix. A custom tokenizer
 * does not survive the persistence plugin's `restore` (it creates a default
 * instance), so loading goes through `load` into an instance made with it.
 */
const orama: Library = (() => {
  const END = '\u0001'
  const QUERY = '\u0002'
  const make = (tokeniser: Tokeniser) => create({
    schema: { text: 'string' } as const,
    components: {
      tokenizer: {
        language: 'english',
        normalizationCache: new Map(),
        tokenize: (raw: string) => (raw.startsWith(QUERY) ? [raw.slice(1)] : [...new Set(tokeniser.index(raw))].map(term => term + END)),
      },
    },
  })
  type Db = ReturnType<typeof make>
  const engine = (db: Db, tokeniser: Tokeniser, sessions: number): Engine => ({
    search: query => {
      const terms = tokeniser.query(query)
      let found: Set<number> | undefined
      for (const [n, term] of terms.entries()) {
        const result = searchOrama(db, { term: QUERY + term + (n < terms.length - 1 ? END : ''), properties: ['text'], limit: sessions }) as Awaited<ReturnType<typeof searchOrama>>
        const ids = new Set<number>()
        for (const hit of result.hits) if (found === undefined || found.has(Number(hit.id))) ids.add(Number(hit.id))
        found = ids
        if (found.size === 0) break
      }
      return [...(found ?? [])]
    },
    reindex: (id, text) => {
      remove(db, String(id))
      insert(db, { id: String(id), text })
    },
    save: async () => {
      const data = await persist(db, 'json') as string
      return { data, bytes: Buffer.byteLength(data) }
    },
  })
  return {
    name: 'Orama',
    version: version('@orama/orama'),
    build: (docs, tokeniser) => {
      const db = make(tokeniser)
      docs.forEach((text, id) => insert(db, { id: String(id), text }))
      return engine(db, tokeniser, docs.length)
    },
    load: async (data, tokeniser, sessions) => {
      const db = make(tokeniser)
      loadOrama(db, JSON.parse(data as string))
      return engine(db, tokeniser, sessions)
    },
  }
})()

const LIBRARIES = [miniSearch, flexSearch, orama]

/** What a child measures for one (library × tokeniser). */
interface Figures {
  readonly library: string
  readonly version: string
  readonly tokeniser: string
  readonly buildMs: number
  readonly heapMB: number
  readonly rssMB: number
  readonly savedBytes: number
  readonly saveMs: number
  readonly loadMs: number
  readonly loadedHeapMB: number
  readonly reindex: Latency
  /** Wall time of the deferred work the re-indexing left (MiniSearch's batched vacuuming of discarded documents), waited for after the runs; `null` when the library defers none. */
  readonly reindexSettleMs: number | null
  readonly reindexLoaded: Latency
  readonly kinds: readonly KindFigures[]
  /** Queries whose results differ between the built index, the re-indexed one and the loaded one. */
  readonly unstable: readonly string[]
}

type Latency = Percentiles

interface KindFigures {
  readonly kind: string
  readonly latency: Latency
  /** Queries answered with exactly the true set, of how many. */
  readonly exact: number
  readonly total: number
  readonly recall: number
  readonly precision: number
  readonly mismatches: readonly string[]
}

function latency(samples: readonly number[]): Latency {
  return percentiles(samples)
}

function memory(): { heap: number; rss: number } {
  const collect = (globalThis as { gc?: () => void }).gc
  if (collect === undefined) throw new Error('run with --expose-gc')
  collect()
  collect()
  const { heapUsed, rss } = process.memoryUsage()
  return { heap: heapUsed / 2 ** 20, rss: rss / 2 ** 20 }
}

function resultKey(ids: readonly number[]): string {
  return [...ids].sort((a, b) => a - b).join(',')
}

function measureKinds(engine: Engine, queries: readonly BenchQuery[]): KindFigures[] {
  const kinds: KindFigures[] = []
  for (const kind of [...new Set(queries.map(query => query.kind))]) {
    const ofKind = queries.filter(query => query.kind === kind)
    for (let run = 0; run < 20; run += 1) engine.search(ofKind[run % ofKind.length]!.query)
    const samples: number[] = []
    for (let run = 0; run < RUNS; run += 1) {
      const { query } = ofKind[run % ofKind.length]!
      const started = performance.now()
      engine.search(query)
      samples.push(performance.now() - started)
    }
    let exact = 0
    let hits = 0
    let returned = 0
    let relevant = 0
    const mismatches: string[] = []
    for (const query of ofKind) {
      const found = new Set(engine.search(query.query))
      const truth = new Set(query.expected)
      const missing = [...truth].filter(id => !found.has(id)).length
      const extra = [...found].filter(id => !truth.has(id)).length
      hits += truth.size - missing
      returned += found.size
      relevant += truth.size
      if (missing === 0 && extra === 0) exact += 1
      else mismatches.push(`${JSON.stringify(query.query)}: ${truth.size} true, ${missing} missing, ${extra} extra`)
    }
    kinds.push({ kind, latency: latency(samples), exact, total: ofKind.length, recall: relevant === 0 ? 1 : hits / relevant, precision: returned === 0 ? 1 : hits / returned, mismatches })
  }
  return kinds
}

/** Re-indexes `runs` sessions spread over the corpus (each with its own text again), then lets deferred work finish. */
async function measureReindex(engine: Engine, docs: readonly string[], runs: number, offset: number): Promise<{ latency: Latency; settleMs: number | null }> {
  const samples: number[] = []
  for (let run = 0; run < runs; run += 1) {
    const id = (run * 7919 + offset) % docs.length
    const started = performance.now()
    engine.reindex(id, docs[id]!)
    samples.push(performance.now() - started)
  }
  if (engine.settle === undefined) return { latency: latency(samples), settleMs: null }
  const started = performance.now()
  await engine.settle()
  return { latency: latency(samples), settleMs: performance.now() - started }
}

/** Queries whose answers differ from `answers`, tagged with the state of the index. */
function changed(engine: Engine, queries: readonly BenchQuery[], answers: ReadonlyMap<string, string>, state: string): string[] {
  return queries.filter(query => resultKey(engine.search(query.query)) !== answers.get(query.query)).map(query => `${query.query} (${state})`)
}

/**
 * The built index's figures, in a frame of its own: once it returns, nothing
 * keeps the built index alive.
 */
async function measureBuilt(library: Library, tokeniser: Tokeniser, docs: readonly string[], queries: readonly BenchQuery[]) {
  const before = memory()
  const started = performance.now()
  const engine = library.build(docs, tokeniser)
  const buildMs = performance.now() - started
  const built = memory()
  const answers = new Map(queries.map(query => [query.query, resultKey(engine.search(query.query))]))
  const kinds = measureKinds(engine, queries)
  const saveStarted = performance.now()
  const saved = await engine.save()
  const saveMs = performance.now() - saveStarted
  const reindex = await measureReindex(engine, docs, RUNS, 0)
  return { buildMs, heapMB: built.heap - before.heap, rssMB: built.rss - before.rss, answers, kinds, saved, saveMs, reindex, unstable: changed(engine, queries, answers, 're-indexed') }
}

/** Times a few loads, each copy dropped before the next, in a frame of its own so that none outlives it. */
async function timeLoads(library: Library, tokeniser: Tokeniser, data: unknown, sessions: number): Promise<number[]> {
  const samples: number[] = []
  for (let run = 0; run < LOADS; run += 1) {
    memory()
    const started = performance.now()
    await library.load(data, tokeniser, sessions)
    samples.push(performance.now() - started)
  }
  return samples
}

/** The loaded index's figures: load time (median of a few loads), the heap a loaded copy holds, re-indexing it, and whether it answers as the built one did. */
async function measureLoaded(library: Library, tokeniser: Tokeniser, docs: readonly string[], queries: readonly BenchQuery[], data: unknown, answers: ReadonlyMap<string, string>) {
  const samples = await timeLoads(library, tokeniser, data, docs.length)
  const before = memory()
  const engine = await library.load(data, tokeniser, docs.length)
  const after = memory()
  const unstable = changed(engine, queries, answers, 'loaded')
  const reindex = await measureReindex(engine, docs, LOADED_REINDEX_RUNS, 1)
  unstable.push(...changed(engine, queries, answers, 'loaded, re-indexed'))
  return { loadMs: percentiles(samples).p50, loadedHeapMB: after.heap - before.heap, reindex, unstable }
}

/** Measures one (library × tokeniser) over the corpus written by the parent. */
async function measure(libraryName: string, tokeniserName: string, docs: readonly string[], queries: readonly BenchQuery[]): Promise<Figures> {
  const library = LIBRARIES.find(candidate => candidate.name === libraryName)!
  const tokeniser = TOKENISERS[tokeniserName]!
  const built = await measureBuilt(library, tokeniser, docs, queries)
  const loaded = await measureLoaded(library, tokeniser, docs, queries, built.saved.data, built.answers)
  return {
    library: library.name,
    version: library.version,
    tokeniser: tokeniserName,
    buildMs: built.buildMs,
    heapMB: built.heapMB,
    rssMB: built.rssMB,
    savedBytes: built.saved.bytes,
    saveMs: built.saveMs,
    loadMs: loaded.loadMs,
    loadedHeapMB: loaded.loadedHeapMB,
    reindex: built.reindex.latency,
    reindexSettleMs: built.reindex.settleMs,
    reindexLoaded: loaded.reindex.latency,
    kinds: built.kinds,
    unstable: [...built.unstable, ...loaded.unstable],
  }
}

/** Sub-millisecond figures keep three decimals, larger ones fewer. */
function msFine(value: number): string {
  return duration(value, value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : 3)
}

function pairFine({ p50, p95 }: Latency): string {
  return `${msFine(p50)} / ${msFine(p95)}`
}

/** What the search-libraries mode measures. */
export interface SearchLibraryFigures {
  readonly sessions: number
  readonly seed: number
  readonly textBytes: number
  readonly libraries: readonly Figures[]
}

/**
 * Measures every (library × tokeniser), each in a child process of its own.
 * @param sessions - generated conversations.
 * @param runs - samples per query kind and per re-indexing.
 * @returns the figures and the report's blocks.
 */
export async function measureSearchLibraries(sessions: number, runs: number): Promise<{ figures: SearchLibraryFigures; blocks: ReturnType<typeof note>[] }> {
  RUNS = runs
  const seed = SEED
  const corpus = conversationCorpus(hostDir(), { sessions, workspaces: 20, seed })
  const queries = benchQueries(corpus, { seed, perKind: PER_KIND })
  const docs = corpus.map(sessionText)
  const pools = sentencePools(hostDir())
  const scratch = mkdtempSync(join(tmpdir(), 'dsh-sessions-bench-search-'))
  const figures: Figures[] = []
  try {
    const input = join(scratch, 'corpus.json')
    writeFileSync(input, JSON.stringify({ docs, queries }))
    for (const library of LIBRARIES) {
      for (const tokeniser of Object.keys(TOKENISERS)) {
        const child = spawnSync(process.execPath, ['--expose-gc', '--no-warnings', fileURLToPath(import.meta.url),
          '--child', `${library.name}:${tokeniser}`, '--input', input, '--runs', String(RUNS)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 2 ** 20 })
        if (child.status !== 0) throw new Error(`${library.name} × ${tokeniser} failed (${child.status ?? child.signal})`)
        figures.push(JSON.parse(child.stdout.trim().split('\n').at(-1)!))
        process.stderr.write(`measured ${library.name} × ${tokeniser}\n`)
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }

  const bytes = docs.reduce((sum, doc) => sum + Buffer.byteLength(doc), 0)
  const english = corpus.filter(spec => spec.language === 'en').length
  const blocks = [
    note(`corpus: ${sessions} sessions (seed ${seed}; ${english} English, ${sessions - english} Chinese, ${corpus.filter(spec => spec.mixed).length} mixed), `
      + `${corpus.reduce((sum, spec) => sum + spec.turns.length, 0)} turns, ${(bytes / 2 ** 20).toFixed(1)} MiB of text; sentence pools: ${pools.en} English, ${pools.zh} Chinese`),
    note(`queries (${PER_KIND} per kind; true match counts): ${[...new Set(queries.map(query => query.kind))].map(kind =>
      `${kind}: ${queries.filter(query => query.kind === kind).map(query => `${JSON.stringify(query.query)} ${query.expected.length}`).join(', ')}`).join('; ')}`),
    note(`versions: ${LIBRARIES.map(library => `${library.name} ${library.version}`).join(', ')}, @orama/plugin-data-persistence ${version('@orama/plugin-data-persistence')}; Node ${process.version}`),
    table({
      title: `index of ${sessions} sessions: build and load; memory added after build (heap / RSS) and by a loaded copy (heap) in MiB; re-indexing one session (remove + add) p50 / p95, ${RUNS} runs built, ${LOADED_REINDEX_RUNS} loaded`,
      columns: ['library', 'CJK tokens', 'build', 'heap / RSS', 'serialized', 'save', 'load', 'loaded heap', 're-index (built)', 're-index (loaded)'],
      rows: figures.map(f => [f.library, f.tokeniser, msFine(f.buildMs), `${f.heapMB.toFixed(1)} / ${f.rssMB.toFixed(1)}`, `${(f.savedBytes / 2 ** 20).toFixed(1)} MiB`, msFine(f.saveMs), msFine(f.loadMs), f.loadedHeapMB.toFixed(1),
        `${pairFine(f.reindex)}${f.reindexSettleMs === null ? '' : ` (then ${msFine(f.reindexSettleMs)} vacuum)`}`, pairFine(f.reindexLoaded)]),
    }),
  ]
  const kinds = figures[0]!.kinds.map(kind => kind.kind)
  blocks.push(table({
    title: `query latency p50 / p95 (${RUNS} runs per kind over its ${PER_KIND} queries)`,
    columns: ['library', 'CJK tokens', ...kinds],
    rows: figures.map(f => [f.library, f.tokeniser, ...f.kinds.map(kind => pairFine(kind.latency))]),
  }))
  blocks.push(table({
    title: 'answers equal to the true set (AND, last term a prefix, Chinese as substrings), and recall / precision over the kind where not all are',
    columns: ['library', 'CJK tokens', ...kinds],
    rows: figures.map(f => [f.library, f.tokeniser, ...f.kinds.map(kind => (kind.exact === kind.total ? `${kind.exact}/${kind.total}`
      : `${kind.exact}/${kind.total}, R ${kind.recall.toFixed(2)} P ${kind.precision.toFixed(2)}`))]),
  }))
  // The same mismatch from several libraries comes from the tokeniser: list it once, naming them.
  const notes = new Map<string, string[]>()
  for (const f of figures) {
    const own = [
      ...f.kinds.flatMap(kind => kind.mismatches.map(mismatch => `${f.tokeniser}, ${kind.kind} ${mismatch}`)),
      ...f.unstable.map(query => `${f.tokeniser}: results changed for ${query}`),
    ]
    for (const text of own) notes.set(text, [...(notes.get(text) ?? []), f.library])
  }
  if (notes.size > 0) {
    blocks.push(note('mismatches:'))
    for (const [text, libraries] of notes) blocks.push(note(`- ${libraries.length === LIBRARIES.length ? 'all' : libraries.join(', ')} × ${text}`))
  }
  return { figures: { sessions, seed, textBytes: bytes, libraries: figures }, blocks }
}

/** `--only search-libraries`: the candidate search libraries compared, each (library × tokeniser) in a process of its own. */
export const searchLibraries: BenchMode = {
  name: 'search-libraries',
  summary: 'MiniSearch, FlexSearch and Orama compared as in-memory body indexes (dev only)',
  async run(context) {
    const sessions = context.sessions()
    // This comparison's own defaults: 200 runs unless `--runs` is given.
    const runs = context.settings.given.includes('runs') ? context.settings.runs : 200
    const { figures, blocks } = await measureSearchLibraries(sessions, runs)
    return {
      mode: 'search-libraries',
      settings: { sessions, runs, seed: SEED, perKind: PER_KIND, loadedReindexRuns: LOADED_REINDEX_RUNS, loads: LOADS },
      figures,
      units: { textBytes: 'bytes', buildMs: 'ms', heapMB: 'MiB', rssMB: 'MiB', savedBytes: 'bytes', saveMs: 'ms', loadMs: 'ms', loadedHeapMB: 'MiB', reindexSettleMs: 'ms', exact: 'count', total: 'count', recall: 'share (0–1)', precision: 'share (0–1)' },
      blocks,
    }
  },
}

// A child measures one (library × tokeniser) and prints its figures as one JSON line.
if (process.argv.includes('--child')) {
  const { values } = parseArgs({ options: { child: { type: 'string' }, input: { type: 'string' }, runs: { type: 'string' } } })
  RUNS = Number(values.runs ?? RUNS)
  const [libraryName, tokeniserName] = values.child!.split(':') as [string, string]
  const { docs, queries } = JSON.parse(readFileSync(values.input!, 'utf8')) as { docs: string[]; queries: BenchQuery[] }
  process.stdout.write(`${JSON.stringify(await measure(libraryName, tokeniserName, docs, queries))}\n`)
}
