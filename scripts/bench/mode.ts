/**
 * What every bench mode is: a name, a line saying what it measures, and one
 * `run(context)` that measures and returns a {@link BenchReport}.
 */
import type { CorpusName } from '../../dev/corpus.ts'
import type { Stack, StackSetup } from '../../dev/stack.ts'
import type { Block } from './figures.ts'

/** The options of a bench run, parsed once; each mode takes what it uses (see its `settings` in the report). */
export interface BenchSettings {
  /** `--sessions`: store sizes; a mode that measures one size refuses a list. */
  readonly sessions: readonly number[]
  readonly workspaces: number
  readonly runs: number
  readonly officialRuns: number
  /** `--corpus` (mode `content`): the corpora measured, side by side. */
  readonly corpora: readonly CorpusName[]
  /** Options given on the command line (the rest are defaults). */
  readonly given: readonly string[]
}

/** What a mode gets: the settings, the pinned host, the plugin packed once, and stacks stopped at exit. */
export interface BenchContext {
  readonly settings: BenchSettings
  /** Folder of the pinned rc.8 host's `node_modules/.bin`. */
  readonly hostBin: string
  /** The plugin tarball, packed on first use and removed when the run ends. */
  tarball(): string
  /** A stack of the pinned host (`hostBin` filled in); stopped when the run ends if the mode has not stopped it. */
  stack(setup: Omit<StackSetup, 'hostBin'>): Promise<Stack>
  /** The one store size a mode measures: `--sessions` (a list refused), or the default. */
  sessions(): number
  /** A progress line on stderr, prefixed with the mode's name. */
  progress(text: string): void
}

/** A mode's structured report. */
export interface BenchReport<Figures = unknown> {
  readonly mode: string
  /** What the mode measured with: store sizes, runs, corpus. */
  readonly settings: Readonly<Record<string, number | string | boolean | readonly number[] | readonly string[]>>
  /** What was measured, as measured. */
  readonly figures: Figures
  /** Units of the figures by key, a key meaning the same wherever it appears in `figures`; a `Percentiles` object (p50, p95, max; `runs` a count) is in milliseconds unless its key is listed. */
  readonly units: Readonly<Record<string, string>>
  /** The report as people read it: notes and tables, in print order. */
  readonly blocks: readonly Block[]
}

/** One bench mode. */
export interface BenchMode {
  /** `--only` names it. */
  readonly name: string
  /** What it measures, in one line. */
  readonly summary: string
  run(context: BenchContext): Promise<BenchReport>
}
