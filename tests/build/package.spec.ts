/** What `npm pack` publishes: the two halves, the bundle patch, the manifest, both READMEs with their pairing record, the Markdown pages of docs/ (not its pictures) the READMEs link to, and the licence; and where the source lives. */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, any>

describe('published package', () => {
  it('packs exactly the runtime files and the documentation pages', () => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' })) as { files: { path: string }[] }[]
    const pages = readdirSync(join(root, 'docs')).filter(name => name.endsWith('.md')).map(name => `docs/${name}`)
    expect(pages.length).toBeGreaterThan(0)
    expect(pack!.files.map(file => file.path).sort()).toEqual([
      'LICENSE', 'README.i18n.yaml', 'README.md', 'README.zh.md', 'cordis.patch.yml', 'lib/client.js', 'lib/content-worker.js', 'lib/index.js', 'package.json', ...pages,
    ].sort())
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
