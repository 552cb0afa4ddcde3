/**
 * The per-file list of the source, made from each file's module header (its first sentence, up to a
 * colon), written between the `<!-- modules:list -->` markers of docs/modules.md and docs/modules.zh.md.
 * `node scripts/docs/module-list.ts` writes both; `tests/build/module-list.spec.ts` fails while they are stale.
 * @module @wishp3/dsh-sessions/scripts/docs/module-list
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The pages that carry the list. */
export const MODULE_PAGES = ['docs/modules.md', 'docs/modules.zh.md'] as const

const START = '<!-- modules:list -->'
const END = '<!-- /modules:list -->'

/** What a file's header says first: its opening sentence, cut at its first colon. */
export function summaryOf(text: string): string | undefined {
  const header = /^\/\*\*([\s\S]*?)\*\//.exec(text)?.[1]
  if (header === undefined) return undefined
  const prose = header.split('\n').map(line => line.replace(/^\s*\*\s?/, '').trim()).filter(line => line !== '' && !line.startsWith('@')).join(' ')
  const sentence = /^(.*?[.!?])(?:\s|$)/.exec(prose)?.[1] ?? prose
  return sentence.split(/:\s/)[0]!.replace(/[.:]$/, '').trim()
}

/** The list, one section per folder of src/, one line per source file. */
export function moduleList(): string {
  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter(file => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .map(file => join('src', file))
    .sort()
  const folders = new Map<string, string[]>()
  for (const file of files) {
    const summary = summaryOf(readFileSync(join(root, file), 'utf8'))
    const folder = `${dirname(file)}/`
    const lines = folders.get(folder) ?? []
    lines.push(`- \`${relative(dirname(file), file)}\`${summary === undefined ? '' : `: ${summary}`}`)
    folders.set(folder, lines)
  }
  return [...folders].map(([folder, lines]) => `**\`${folder}\`**\n\n${lines.join('\n')}`).join('\n\n')
}

/** A page with its list replaced by `list`. */
export function withList(page: string, list: string): string {
  const start = page.indexOf(START)
  const end = page.indexOf(END)
  if (start < 0 || end < start) throw new Error(`the page has no ${START} … ${END} block`)
  return `${page.slice(0, start + START.length)}\n\n${list}\n\n${page.slice(end)}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const list = moduleList()
  for (const page of MODULE_PAGES) writeFileSync(join(root, page), withList(readFileSync(join(root, page), 'utf8'), list))
  process.stdout.write(`wrote ${MODULE_PAGES.join(' and ')}\n`)
}
