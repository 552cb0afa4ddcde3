/**
 * The READMEs, the changelog and `docs/` stay whole and in step: every
 * relative link and anchor lands, every picture exists and is small, each
 * English file has a Chinese twin of the same structure, the READMEs stay
 * short and open with pictures, and pairing records (README.i18n.yaml,
 * docs/i18n.yaml) fail when one side of a pair changes alone.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const read = (file: string) => readFileSync(join(root, file), 'utf8')

/** Largest README, in bytes. */
const README_LIMIT = 12 * 1024
/** Largest picture, in bytes. */
const PICTURE_LIMIT = 150 * 1024

/** A page of docs/ at most, per language: the figures page is kept shorter still. */
const PAGE_LIMIT = 20 * 1024
const FIGURES_LIMIT = 15 * 1024

/** Every Markdown file of the documentation, repository-relative. */
function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter(file => file.endsWith('.md'))
    .map(file => join('docs', file))
  return ['README.md', 'README.zh.md', 'CHANGELOG.md', 'CHANGELOG.zh.md', ...docs].sort()
}

/** The Chinese twin of an English file: `x.md` → `x.zh.md`. */
const twin = (file: string) => file.replace(/\.md$/, '.zh.md')
const isChinese = (file: string) => file.endsWith('.zh.md')

/** The pairs under docs/ and the changelog, English side first. */
function docPairs(): [string, string][] {
  return markdownFiles().filter(file => !isChinese(file) && file !== 'README.md').map(file => [file, twin(file)])
}

/** The git blob hash of a file's bytes, as `git hash-object` prints it. */
function blobHash(file: string): string {
  const bytes = readFileSync(join(root, file))
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

/** The text outside fenced code blocks. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```$/gm, '')
}

/** The text outside fenced code blocks and inline code spans, where links are links. */
function linkable(text: string): string {
  return prose(text).replace(/`[^`\n]*`/g, '')
}

/** What must mirror between the two sides: heading levels, and per section the table rows, list items, fences and images. */
function shape(text: string): string[] {
  const out: string[] = []
  for (const section of prose(text).split(/^(?=#{1,6} )/m)) {
    const level = /^(#{1,6}) /.exec(section)?.[1]?.length ?? 0
    const rows = section.split('\n').filter(line => line.startsWith('|')).length
    const items = section.split('\n').filter(line => /^\s*(- |\d+\. )/.test(line)).length
    const images = (section.match(/!\[[^\]]*\]\([^)]+\)/g) ?? []).length
    out.push(`h${level} rows=${rows} items=${items} images=${images}`)
  }
  const fences = (text.match(/^```/gm) ?? []).length
  out.push(`fences=${fences}`)
  return out
}

/** GitHub's anchor of a heading's text, before duplicates are numbered. */
function slug(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-')
}

/** The anchors a file offers: its headings as GitHub numbers duplicates (`x`, `x-1`, …), and `<a id>` tags. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const [, heading] of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  for (const [, id] of text.matchAll(/<a id="([^"]+)">/g)) anchors.add(id!)
  return anchors
}

/** Every link and image target of a file outside code, with the text it was written as. */
function targets(text: string): string[] {
  return [...linkable(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(match => match[1]!)
}

/** Whether a target leaves the repository (a URL or a mail address). */
const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target)

/** The pictures a file shows, repository-relative. */
function pictures(file: string): string[] {
  return [...linkable(read(file)).matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map(match => match[1]!)
    .filter(target => !external(target))
    .map(target => normalize(join(dirname(file), target)))
}

/** The pairing record's answer for some pairs: the files whose hash differs, and the record to write. */
function recordCheck(recordFile: string, files: string[]): { stale: string[]; record: string } {
  const record = (parse(read(recordFile)) ?? {}) as Record<string, string>
  const key = (file: string) => relative(dirname(join(root, recordFile)), join(root, file))
  const stale = files.filter(file => record[key(file)] !== blobHash(file))
  const extra = Object.keys(record).filter(name => !files.map(key).includes(name))
  return { stale: [...stale, ...extra.map(name => `${name} (no such file)`)], record: files.map(file => `${key(file)}: ${blobHash(file)}`).join('\n') }
}

describe('the READMEs, the changelog and docs/', () => {
  it('link only to files and anchors that exist', () => {
    const broken: string[] = []
    for (const file of markdownFiles()) {
      for (const target of targets(read(file))) {
        if (external(target)) continue
        const [path, anchor] = target.split('#') as [string, string | undefined]
        const destination = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)))
        if (!existsSync(join(root, destination))) {
          broken.push(`${file}: ${target} (no file ${destination})`)
          continue
        }
        if (anchor === undefined) continue
        if (!destination.endsWith('.md') || !anchorsOf(read(destination)).has(decodeURIComponent(anchor))) broken.push(`${file}: ${target} (no anchor #${anchor} in ${destination})`)
      }
    }
    expect(broken).toEqual([])
  })

  it('show pictures that exist, each at most 150 KB, and every picture in docs/screenshots somewhere, in both languages', () => {
    const shown = new Set<string>()
    for (const file of markdownFiles()) {
      for (const picture of pictures(file)) {
        shown.add(picture)
        expect(existsSync(join(root, picture)), `${file}: ${picture}`).toBe(true)
        expect(statSync(join(root, picture)).size, picture).toBeLessThanOrEqual(PICTURE_LIMIT)
      }
    }
    const folder = join('docs', 'screenshots')
    const files = readdirSync(join(root, folder)).filter(name => name.endsWith('.png'))
    expect(files.filter(name => !shown.has(join(folder, name))), 'pictures no page shows').toEqual([])
    for (const name of files) {
      expect(statSync(join(root, folder, name)).size, name).toBeLessThanOrEqual(PICTURE_LIMIT)
      expect(name, 'a picture is made in English and Chinese: <name>-en.png, <name>-zh.png').toMatch(/-(en|zh)\.png$/)
      expect(files, `${name} has its twin`).toContain(name.replace(/-(en|zh)\.png$/, (_, lang: string) => (lang === 'en' ? '-zh.png' : '-en.png')))
    }
    // Each side shows pictures in its own language.
    for (const file of markdownFiles()) {
      for (const picture of pictures(file)) if (picture.startsWith(folder)) expect(picture, file).toMatch(isChinese(file) ? /-zh\.png$/ : /-en\.png$/)
    }
  })

  it('keep performance.md at most 15 KB and every other page of docs/ at most 20 KB, in each language', () => {
    for (const file of markdownFiles().filter(name => name.startsWith('docs'))) {
      const limit = /performance(\.zh)?\.md$/.test(file) ? FIGURES_LIMIT : PAGE_LIMIT
      expect(Buffer.byteLength(read(file)), file).toBeLessThanOrEqual(limit)
    }
  })

  it('give every English file a Chinese twin, and every Chinese file an English one', () => {
    const files = markdownFiles()
    for (const file of files) {
      if (isChinese(file)) expect(files, file).toContain(file.replace(/\.zh\.md$/, '.md'))
      else expect(files, file).toContain(twin(file))
    }
  })

  it('mirror each pair section for section', () => {
    for (const file of markdownFiles().filter(name => !isChinese(name))) {
      expect(shape(read(twin(file))), `${twin(file)} against ${file}`).toEqual(shape(read(file)))
    }
  })

  it('keep each README at most 12 KB, opening with pictures, then install, quick start, configuration and where to read more', () => {
    const headings = {
      'README.md': ['What it does', 'Install and remove', 'Quick start', 'Configuration', 'Read more'],
      'README.zh.md': ['功能一览', '安装与移除', '快速开始', '配置', '延伸阅读'],
    }
    for (const [side, expected] of Object.entries(headings)) {
      const text = read(side)
      expect(Buffer.byteLength(text), side).toBeLessThanOrEqual(README_LIMIT)
      expect([...prose(text).matchAll(/^## (.+)$/gm)].map(match => match[1]), side).toEqual(expected)
      const first = text.split(/^## /m)[1]!
      expect((first.match(/!\[[^\]]*\]\(docs\/screenshots\/[^)]+\.png\)/g) ?? []).length, `${side}: pictures in the first section`).toBeGreaterThanOrEqual(3)
      const block = /^## [^\n]+\n\n```sh\n([\s\S]*?)```/m.exec(text.slice(text.indexOf(`## ${expected[2]}`)))?.[1] ?? ''
      expect(block.split('\n').filter(Boolean).map(line => line.split(/\s+/).slice(0, 2).join(' ')), side).toEqual(['npm start', 'npm test'])
      // Where to read more names every page of docs/ in the README's language.
      const listed = new Set(targets(text).filter(target => target.startsWith('docs/')).map(target => target.split('#')[0]))
      for (const page of markdownFiles().filter(file => file.startsWith('docs/') && file !== join('docs', side) && isChinese(file) === isChinese(side))) {
        expect(listed, `${side} links ${page}`).toContain(page)
      }
    }
  })

  it('are recorded as consistent pairs: README.i18n.yaml for the READMEs, docs/i18n.yaml for the changelog and docs/ (after editing one side, bring the other along, then write the record the failure prints)', () => {
    const readmes = recordCheck('README.i18n.yaml', ['README.md', 'README.zh.md'])
    expect(readmes.stale, `write README.i18n.yaml as:\n${readmes.record}\n`).toEqual([])
    const docs = recordCheck(join('docs', 'i18n.yaml'), docPairs().flat())
    expect(docs.stale, `write docs/i18n.yaml as:\n${docs.record}\n`).toEqual([])
  })
})
