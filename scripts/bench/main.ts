/**
 * `npm run bench`: measures the plugin through the real pinned dsh
 * 0.1.0-rc.8 web host, side by side with the bare host, mode by mode
 * (`scripts/bench/modes/`, listed in `modes.ts`). Prints each mode's report
 * as Markdown, or with `--json` one JSON document of every mode's structured
 * report; `scripts/bench/tables.ts` writes that document's tables into
 * Markdown files between `<!-- bench:<mode> -->` markers.
 *
 *   npm run bench [-- --only <mode>[,<mode>…] --sessions 2000[,20000] --workspaces 20 --runs 100 --official-runs 5 --corpus realistic,prose[,readme,small] --json --out <file>]
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { availableParallelism, cpus, totalmem } from 'node:os'
import { parseArgs } from 'node:util'
import { CORPORA, type CorpusName } from '../../dev/corpus.ts'
import { repoRoot } from '../../dev/paths.ts'
import { HOST_VERSION } from '../../dev/pinned-host.ts'
import { openBench } from './context.ts'
import { renderBlocks } from './figures.ts'
import type { BenchReport, BenchSettings } from './mode.ts'
import { DEFAULT_MODES, MODES } from './modes.ts'

/** The document `--json` prints. */
export interface BenchDocument {
  readonly bench: '@wishp3/dsh-sessions'
  readonly date: string
  readonly commit: string
  /** Whether the checkout had changes the commit does not hold. */
  readonly dirty: boolean
  readonly host: string
  readonly machine: { readonly cores: number; readonly cpu: string; readonly memoryGiB: number; readonly platform: string; readonly node: string }
  readonly settings: BenchSettings
  readonly modes: readonly string[]
  readonly reports: readonly BenchReport[]
  /** The mode that failed, if one did; the reports before it are kept. */
  readonly failed?: { readonly mode: string; readonly error: string }
}

const USAGE = `npm run bench [-- options]
  --only <mode>[,<mode>…]   modes to run (default: ${DEFAULT_MODES.join(', ')})
  --sessions <n>[,<n>…]     store size (a list where a mode measures several: since, content); default 2000
  --workspaces <n>          workspaces the store spreads over; default 20
  --runs <n>                samples per figure (modes cap it as they always did); default 100
  --official-runs <n>       runs of the official candidates call; default 5
  --corpus realistic,prose  the corpora of modes content and relevance, side by side; default realistic and prose
                            (relevance: also readme, README sentences drawn at random; small: the first milestone's)
  --json                    print one JSON document instead of Markdown
  --out <file>              also write the JSON document to a file
modes:
${MODES.map(mode => `  ${mode.name.padEnd(17)} ${mode.summary}`).join('\n')}`

function parseSettings(): { settings: BenchSettings; only: readonly string[]; json: boolean; out?: string } {
  const { values, tokens } = parseArgs({
    tokens: true,
    options: {
      only: { type: 'string' },
      sessions: { type: 'string', default: '2000' },
      workspaces: { type: 'string', default: '20' },
      runs: { type: 'string', default: '100' },
      'official-runs': { type: 'string', default: '5' },
      corpus: { type: 'string', default: 'realistic,prose' },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    process.exit(0)
  }
  const count = (name: string, text: string): number => {
    const value = Number(text)
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} wants a positive whole number, not ${JSON.stringify(text)}`)
    return value
  }
  const only = values.only === undefined ? DEFAULT_MODES : values.only.split(',').map(name => name.trim())
  for (const name of only) if (!MODES.some(mode => mode.name === name)) throw new Error(`unknown mode ${JSON.stringify(name)}; known: ${MODES.map(mode => mode.name).join(', ')}`)
  const isCorpus = (name: string): name is CorpusName => Object.hasOwn(CORPORA, name)
  const corpora = values.corpus.split(',').map(name => name.trim()).map(name => {
    if (!isCorpus(name)) throw new Error(`--corpus lists ${Object.keys(CORPORA).join(', ')}, not ${JSON.stringify(name)}`)
    return name
  })
  const settings: BenchSettings = {
    sessions: values.sessions.split(',').map(size => count('sessions', size)),
    workspaces: count('workspaces', values.workspaces),
    runs: count('runs', values.runs),
    officialRuns: count('official-runs', values['official-runs']),
    corpora,
    given: [...new Set(tokens.flatMap(token => (token.kind === 'option' ? [token.name] : [])))],
  }
  return { settings, only, json: values.json, ...(values.out === undefined ? {} : { out: values.out }) }
}

function git(args: readonly string[]): string {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return ''
  }
}

const { settings, only, json, out } = (() => {
  try {
    return parseSettings()
  } catch (error) {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`)
    process.exit(2)
  }
})()
const started = new Date()
// Progress the modes print goes to stderr: stdout holds the report alone.
console.log = (...args: unknown[]) => console.error(...args)
const reports: BenchReport[] = []
let failed: { mode: string; error: string } | undefined
const bench = await openBench(settings)
try {
  for (const name of only) {
    const mode = MODES.find(candidate => candidate.name === name)!
    const modeStarted = performance.now()
    process.stderr.write(`[bench] ${name}: ${mode.summary}\n`)
    try {
      const report = await mode.run(bench.context(name))
      reports.push(report)
      process.stderr.write(`[bench] ${name} done in ${((performance.now() - modeStarted) / 1000).toFixed(1)} s\n`)
      if (!json) process.stdout.write(`\n${renderBlocks(report.blocks).join('\n')}\n`)
    } catch (error) {
      failed = { mode: name, error: error instanceof Error ? error.stack ?? error.message : String(error) }
      process.stderr.write(`[bench] ${name} failed: ${failed.error}\n`)
      break
    }
  }
} finally {
  await bench.close()
}
const document: BenchDocument = {
  bench: '@wishp3/dsh-sessions',
  date: started.toISOString(),
  commit: git(['rev-parse', 'HEAD']),
  dirty: git(['status', '--porcelain', '--untracked-files=no']) !== '',
  host: HOST_VERSION,
  machine: { cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), platform: `${process.platform}-${process.arch}`, node: process.version },
  settings,
  modes: only,
  reports,
  ...(failed === undefined ? {} : { failed }),
}
const text = `${JSON.stringify(document, null, 2)}\n`
if (json) process.stdout.write(text)
if (out !== undefined) writeFileSync(out, text)
process.exit(failed === undefined ? 0 : 1)
