/**
 * Every measured figure in the docs can be traced to what made it: it sits in a table the bench wrote
 * (between `<!-- bench:… -->` markers), or in a section that names the command that made it, or it links
 * the performance page that holds it and is quoted there exactly; and an English page and its Chinese
 * twin quote the same figures. A measured figure is a number with a unit that has a decimal point, a
 * range or a sign (`1.45 s`, `2.3–6.5 min`, `+41 %`), counts tokens, or is said to be about so much:
 * other round numbers are limits and settings.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const docs = join(root, 'docs')

const NUMBER = String.raw`[+−]?\d[\d,]*(?:\.\d+)?`
const UNIT = String.raw`(?:ms|µs|min|s|MB|kB|KB|GB|KiB|MiB|GiB|B|%|×|tokens|(?:个\s?)?token|毫秒|微秒|分钟|秒)`
const FIGURE = new RegExp(String.raw`(?<![\w./#-])(${NUMBER}(?:\s?[–-]\s?${NUMBER})?)\s?${UNIT}(?![A-Za-z])`, 'g')

/** The pages whose figures are the bench's own. */
const PERFORMANCE = /^(?:reference-)?performance(?:\.zh)?\.md$/

/** A page's lines, each with whether the bench wrote it and whether its section names a command. */
function linesOf(text: string): { line: string; generated: boolean; commanded: boolean }[] {
  const sections: string[][] = [[]]
  for (const line of text.split('\n')) {
    if (/^#{1,6} /.test(line)) sections.push([])
    sections.at(-1)!.push(line)
  }
  return sections.flatMap(section => {
    const commanded = section.some(line => /(?:^|`)npm (?:run|test)\b/.test(line))
    let generated = false
    return section.map(line => {
      if (/^<!-- bench:[\w-]+:tables -->/.test(line)) generated = true
      if (/^<!-- \/bench:/.test(line)) generated = false
      return { line, generated, commanded }
    })
  })
}

/** The measured figures of a line, as their numbers: those with a decimal point, a range or a sign, any count of tokens, and any figure said to be about so much. */
function figuresOf(line: string): string[] {
  return [...line.matchAll(FIGURE)]
    .filter(match => /[.–+]/.test(match[1]!) || /\d\s?-\s?\d/.test(match[1]!) || /tokens?$/.test(match[0]) || /(?:\babout|\bsome|约|大约)\s*$/.test(line.slice(0, match.index)))
    .map(match => match[1]!)
}

/** The text of a page's bench-written tables. */
function generatedOf(text: string): string {
  return [...text.matchAll(/<!-- bench:[\w-]+:tables -->([\s\S]*?)<!-- \/bench:/g)].map(match => match[1]).join('\n')
}

const pages = [...readdirSync(docs).filter(name => name.endsWith('.md')).map(name => join(docs, name)), join(root, 'README.md'), join(root, 'README.zh.md')]
const text = new Map(pages.map(page => [page, readFileSync(page, 'utf8')]))

describe('figures in the docs', () => {
  it.each(pages.map(page => [page.slice(root.length + 1), page]))('%s: every measured figure is generated, commanded, or quoted exactly from the page it links', (_name, page) => {
    const untraced: string[] = []
    const own = generatedOf(text.get(page)!)
    for (const { line, generated, commanded } of linesOf(text.get(page)!)) {
      if (generated) continue
      for (const number of figuresOf(line)) {
        if (PERFORMANCE.test(basename(page))) {
          if (commanded || own.includes(number)) continue
        } else {
          const linked = [...line.matchAll(/\]\((?:docs\/)?((?:reference-)?performance(?:\.zh)?\.md)(?:#[^)]*)?\)/g)].map(match => join(docs, match[1]!))
          if (linked.some(target => text.get(target)?.includes(number))) continue
          if (linked.length === 0 && commanded) continue
        }
        untraced.push(`${number} in: ${line.trim().slice(0, 120)}`)
      }
    }
    expect(untraced).toEqual([])
  })

  it.each(pages.filter(page => !page.endsWith('.zh.md')).map(page => [page.slice(root.length + 1), page]))('%s quotes the same figures as its Chinese twin', (_name, page) => {
    const twin = page.replace(/\.md$/, '.zh.md')
    const numbers = (file: string) => linesOf(text.get(file)!).flatMap(({ line }) => figuresOf(line).map(number => number.replace(/\s/g, '').replace('-', '–'))).sort()
    expect(numbers(twin)).toEqual(numbers(page))
  })
})
