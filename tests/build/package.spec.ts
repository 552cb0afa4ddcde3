/** What `npm pack` publishes: the two halves, the bundle patch, the manifest, both READMEs with their pairing record, both changelogs, every Markdown page of docs/ (not its pictures), and the licence, so every link between them holds in the tarball; and where the source lives. */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, any>

describe('published package', () => {
  const packed = (): string[] => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' })) as { files: { path: string }[] }[]
    return pack!.files.map(file => file.path)
  }

  it('packs exactly the runtime files, the documentation pages and the changelogs', () => {
    const pages = readdirSync(join(root, 'docs')).filter(name => name.endsWith('.md')).map(name => `docs/${name}`)
    expect(pages.length).toBeGreaterThan(0)
    expect(packed().sort()).toEqual([
      'CHANGELOG.md', 'CHANGELOG.zh.md', 'LICENSE', 'README.i18n.yaml', 'README.md', 'README.zh.md', 'cordis.patch.yml', 'lib/client.js', 'lib/content-worker.js', 'lib/index.js', 'lib/store-reader.js', 'package.json', ...pages,
    ].sort())
  })

  it('packs every page a packed page links to', () => {
    const files = new Set(packed())
    const dead: string[] = []
    for (const file of [...files].filter(name => name.endsWith('.md'))) {
      // Links, not pictures: npm's site shows pictures from the repository.
      // Outside code blocks and code spans, where links are links.
      const text = readFileSync(join(root, file), 'utf8').replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '')
      for (const [, target] of text.matchAll(/(?<!!)\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const path = target!.split('#')[0]!
        if (path === '' || /^[a-z][a-z0-9+.-]*:/i.test(path)) continue
        const to = normalize(join(dirname(file), decodeURIComponent(path)))
        if (!files.has(to)) dead.push(`${file} → ${path}`)
      }
    }
    expect(dead).toEqual([])
  })

  it('names its source repository', () => {
    expect(manifest.repository).toEqual({ type: 'git', url: 'git+https://github.com/wishp3/dsh-sessions.git' })
  })

  it('declares both halves on one package', () => {
    expect(manifest.name).toBe('@wishp3/dsh-sessions')
    expect(manifest.publishConfig).toEqual({ access: 'public' })
    expect(manifest.exports).toEqual({ '.': './lib/index.js', './client': './lib/client.js', './package.json': './package.json' })
    expect(manifest.dsh.bundle).toEqual({ patch: './cordis.patch.yml' })
    expect(manifest.dsh.client.platform).toBe('web')
  })

  it('takes harness packages as peers that admit rc.8 and pins every harness dev dependency exactly', () => {
    for (const name of Object.keys(manifest.peerDependencies)) expect(name).toMatch(/^@deepseek-ai\//)
    expect(manifest.dependencies ?? {}).toEqual({})
    for (const [name, version] of Object.entries(manifest.devDependencies as Record<string, string>)) {
      if (name.startsWith('@deepseek-ai/')) expect(version, name).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/)
    }
    for (const [name, range] of Object.entries(manifest.peerDependencies as Record<string, string>)) {
      if (name.startsWith('@deepseek-ai/dsh-')) expect(range, name).toBe('^0.1.0-rc.8')
    }
  })

  it('inserts one session-bridge row and never a session-reference row', () => {
    const patch = parse(readFileSync(join(root, 'cordis.patch.yml'), 'utf8')) as { id?: string; insert?: { id: string; name: string }[] }[]
    const inserted = patch.flatMap(entry => entry.insert ?? [])
    expect(inserted).toEqual([{ id: 'session-bridge', name: '@wishp3/dsh-sessions' }])
  })
})
