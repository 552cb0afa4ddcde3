/** README.md and README.zh.md stay in step: the same structure, links that land, the quick start first, and a pairing record (README.i18n.yaml) that fails when one side changes alone. */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const SIDES = ['README.md', 'README.zh.md'] as const
const read = (file: string) => readFileSync(join(root, file), 'utf8')

/** The git blob hash of a file's bytes, as `git hash-object` prints it. */
function blobHash(file: string): string {
  const bytes = readFileSync(join(root, file))
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

/** The text outside fenced code blocks. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```$/gm, '')
}

/** What must mirror between the two sides: heading levels, and per section the table rows, list items, fences and images. */
function shape(text: string): string[] {
  const out: string[] = []
  for (const section of text.split(/^(?=#{1,4} )/m)) {
    const level = /^(#{1,4}) /.exec(section)?.[1]?.length ?? 0
    const rows = section.split('\n').filter(line => line.startsWith('|')).length
    const items = prose(section).split('\n').filter(line => /^\s*(- |\d+\. )/.test(line)).length
    const fences = (section.match(/^```/gm) ?? []).length
    const images = (section.match(/!\[[^\]]*\]\([^)]+\)/g) ?? []).length
    out.push(`h${level} rows=${rows} items=${items} fences=${fences} images=${images}`)
  }
  return out
}

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-')
}

describe('the two READMEs', () => {
  it('are recorded as a consistent pair in README.i18n.yaml (after editing one side, bring the other along, then record both hashes with `git hash-object README.md README.zh.md`)', () => {
    const record = parse(read('README.i18n.yaml')) as Record<string, string>
    expect(Object.keys(record).sort()).toEqual([...SIDES].sort())
    for (const side of SIDES) expect(blobHash(side), side).toBe(record[side])
  })

  it('mirror each other section for section', () => {
    const [en, zh] = SIDES.map(side => shape(read(side)))
    expect(zh).toEqual(en)
  })

  it('open with the quick start, its two commands in one fenced block, then the contents', () => {
    for (const side of SIDES) {
      const headings = [...read(side).matchAll(/^## (.+)$/gm)].map(match => match[1])
      expect(headings.slice(0, 2), side).toEqual(side === 'README.md' ? ['Quick start', 'Contents'] : ['快速开始', '目录'])
      const block = /^## [^\n]+\n\n```sh\n([\s\S]*?)```/m.exec(read(side))?.[1] ?? ''
      expect(block.split('\n').filter(Boolean).map(line => line.split(/\s+/).slice(0, 2).join(' ')), side).toEqual(['npm start', 'npm test'])
    }
  })

  it('list every section in their contents and link only to anchors that exist', () => {
    for (const side of SIDES) {
      const text = read(side)
      const headings = [...prose(text).matchAll(/^#{2,3} (.+)$/gm)].map(match => match[1]!)
      const anchors = new Set([...headings.map(slug), ...[...text.matchAll(/<a id="([^"]+)">/g)].map(match => match[1]!)])
      const contents = /^## (?:Contents|目录)\n\n([\s\S]*?)\n\n/m.exec(text)?.[1] ?? ''
      const listed = new Set([...contents.matchAll(/\]\(#([^)]+)\)/g)].map(match => match[1]!))
      const sections = [...prose(text).matchAll(/^## (.+)$/gm)].map(match => slug(match[1]!)).filter(heading => heading !== 'contents' && heading !== '目录')
      for (const heading of sections) expect(listed, `${side}: ${heading}`).toContain(heading)
      for (const [, target] of text.matchAll(/\]\(#([^)]+)\)/g)) expect(anchors, `${side}: #${target}`).toContain(target)
    }
  })
})
