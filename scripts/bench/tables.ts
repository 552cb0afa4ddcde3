/**
 * Writes bench reports into Markdown: each report of a `--json` document
 * replaces what stands between `<!-- bench:<mode> -->` and
 * `<!-- /bench:<mode> -->` in the file, rendered as its notes and tables
 * (`<!-- bench:<mode>:tables -->` … `<!-- /bench:<mode>:tables -->`: its
 * tables only). Every report must have its marker pair in the file; the text
 * outside the markers is kept byte for byte.
 *
 *   npm run bench -- --only since --json --out since.json
 *   node scripts/bench/tables.ts since.json docs/performance.md [more.md …]
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type Block, renderBlocks } from './figures.ts'

/** What the writer needs of a report. */
export interface RenderedReport {
  readonly mode: string
  readonly blocks: readonly Block[]
}

const MARKER = /<!-- (\/?)bench:([a-z0-9-]+)(:tables)? -->/g

/**
 * Replaces the content of every marker pair naming a report.
 * @param markdown - the file's text.
 * @param reports - the reports to write.
 * @param source - the line written first inside each pair, saying where the figures come from.
 * @returns the new text.
 * @throws when a report has no marker pair, or a marker has no partner.
 */
export function writeTables(markdown: string, reports: readonly RenderedReport[], source?: string): string {
  const byMode = new Map(reports.map(report => [report.mode, report]))
  const used = new Set<string>()
  let out = ''
  let at = 0
  let open: { mode: string; tables: boolean; end: number } | undefined
  for (const match of markdown.matchAll(MARKER)) {
    const [marker, closing, mode, tables] = match as unknown as [string, string, string, string | undefined]
    const name = `bench:${mode}${tables ?? ''}`
    if (closing === '') {
      if (open !== undefined) throw new Error(`<!-- ${name} --> opens inside <!-- bench:${open.mode}${open.tables ? ':tables' : ''} -->`)
      open = { mode, tables: tables !== undefined, end: match.index + marker.length }
      continue
    }
    if (open === undefined || open.mode !== mode || open.tables !== (tables !== undefined)) throw new Error(`<!-- /${name} --> closes no <!-- ${name} -->`)
    const report = byMode.get(mode)
    if (report !== undefined) {
      const blocks = open.tables ? report.blocks.filter(block => block.kind === 'table') : report.blocks
      const lines = [...(source === undefined ? [] : [`<!-- ${source} -->`, '']), ...renderBlocks(blocks, true)]
      // Empty lines around the content: a table ends before the closing marker.
      out += `${markdown.slice(at, open.end)}\n${lines.join('\n')}\n\n`
      at = match.index
      used.add(mode)
    }
    open = undefined
  }
  if (open !== undefined) throw new Error(`<!-- bench:${open.mode}${open.tables ? ':tables' : ''} --> is never closed`)
  const missing = reports.filter(report => !used.has(report.mode)).map(report => report.mode)
  if (missing.length > 0) throw new Error(`no <!-- bench:<mode> --> … <!-- /bench:<mode> --> pair for ${missing.join(', ')}`)
  return out + markdown.slice(at)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [input, ...files] = process.argv.slice(2)
  if (input === undefined || files.length === 0) {
    process.stderr.write('usage: node scripts/bench/tables.ts <bench.json> <file.md> [<file.md> …]\n')
    process.exit(2)
  }
  const document = JSON.parse(readFileSync(input, 'utf8')) as { reports: RenderedReport[]; date: string; commit: string }
  const source = `written by scripts/bench/tables.ts from the bench run of ${document.date}, commit ${document.commit.slice(0, 12)}`
  // Every file gets the reports whose markers it holds; a report no file holds fails the command before any file is written.
  const texts = files.map(file => readFileSync(file, 'utf8'))
  const holds = (text: string, mode: string) => text.includes(`<!-- bench:${mode} -->`) || text.includes(`<!-- bench:${mode}:tables -->`)
  const unplaced = document.reports.filter(report => !texts.some(text => holds(text, report.mode))).map(report => report.mode)
  if (unplaced.length > 0) {
    process.stderr.write(`no <!-- bench:<mode> --> marker pair for ${unplaced.join(', ')} in ${files.join(', ')}\n`)
    process.exit(1)
  }
  const written = texts.map(text => writeTables(text, document.reports.filter(report => holds(text, report.mode)), source))
  files.forEach((file, n) => { if (written[n] !== texts[n]) writeFileSync(file, written[n]!) })
}
