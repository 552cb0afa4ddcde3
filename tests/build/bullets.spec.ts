/** A bullet of the docs says one thing: at most about 80 words in English (90 counted, code and links included), and its Chinese twin at most 300 characters. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const pages = [...readdirSync(join(root, 'docs')).filter(name => name.endsWith('.md')).map(name => `docs/${name}`), 'README.md', 'README.zh.md']

describe('bullets in the docs', () => {
  it.each(pages)('%s keeps every bullet short', page => {
    const chinese = page.endsWith('.zh.md')
    const long = readFileSync(join(root, page), 'utf8').split('\n')
      .filter(line => /^\s*[-*] /.test(line))
      .filter(line => (chinese ? line.length > 300 : line.split(/\s+/).filter(Boolean).length > 90))
    expect(long.map(line => line.trim().slice(0, 80))).toEqual([])
  })
})
