/**
 * A vitest reporter that keeps each test file's duration. Under `npm test`
 * (which sets `DSH_SESSIONS_TIMINGS` to a file of its own) it appends one
 * `{ file, ms }` line per file there, and the toolchain prints the ten
 * slowest files of the whole run at its end; run alone, it prints the ten
 * slowest of this run.
 */
import { appendFileSync } from 'node:fs'
import { relative } from 'node:path'
import type { Reporter, TestModule } from 'vitest/node'

/** Files listed. */
const SHOWN = 10

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    const timings = modules.map(module => ({ file: relative(process.cwd(), module.moduleId), ms: Math.round(module.diagnostic().duration) }))
    const sink = process.env.DSH_SESSIONS_TIMINGS
    if (sink !== undefined && sink !== '') {
      appendFileSync(sink, timings.map(timing => `${JSON.stringify(timing)}\n`).join(''))
      return
    }
    const slowest = timings.sort((a, b) => b.ms - a.ms).slice(0, SHOWN)
    process.stdout.write(`\nslowest files:\n${slowest.map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`).join('\n')}\n`)
  }
}
