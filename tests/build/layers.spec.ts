/** The layers say what they are: each half imports only its own folder, the shared wire types and the config; the pure folders import nothing of ours but the pure shared folder; the product never imports dev or test code; each half type-checks against its own platform. */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter(file => /\.tsx?$/.test(file))
    .map(file => join(dir, file))
}

/** The repository paths a source file imports relatively. */
function localImports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
  return [...text.matchAll(/^(?:import|export)\s[^'"]*['"](\.{1,2}\/[^'"]+)['"]/gm)]
    .map(match => relative(root, resolve(root, file, '..', match[1]!)))
}

const HALVES: Record<string, readonly string[]> = {
  'src/host/': ['src/host/', 'src/shared/', 'src/config.ts'],
  'src/client/': ['src/client/', 'src/shared/', 'src/config.ts', 'src/workspace-browser/'],
  // A leaf: the browser half mounts it and implements its contract; it imports nothing of the half.
  'src/workspace-browser/': ['src/workspace-browser/'],
  'src/shared/': [],
  // Pure: only the shared folder, itself pure (wire types and the message reference text form).
  'src/client/core/': ['src/shared/'],
}

describe('source layers', () => {
  it.each(Object.entries(HALVES))('%s imports only from %j', (folder, allowed) => {
    const files = sources('src').filter(file => file.startsWith(folder))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      for (const target of localImports(file)) {
        expect(allowed.some(prefix => target.startsWith(prefix)), `${file} imports ${target}`).toBe(true)
      }
    }
  })

  it('reach into a dependency\'s non-public surface only from src/host/official/, one file per dependency', () => {
    const reach = /\bReflect\.get\b|\bas Agent\b|\bas never\b|\bas unknown as\b/
    for (const file of sources('src')) {
      if (file.startsWith('src/host/official/')) continue
      const code = readFileSync(join(root, file), 'utf8').split('\n').filter(line => !/^\s*(\*|\/\/)/.test(line)).join('\n')
      expect(reach.test(code), file).toBe(false)
    }
    expect(sources('src/host/official').sort()).toEqual(['src/host/official/session-query.ts', 'src/host/official/session-reference.ts'])
  })

  it('keep the host rooms in order: each imports only the rooms before it, and the shared host files import no room', () => {
    const ROOMS = ['official', 'sessions', 'search', 'references', 'tools', 'http']
    const roomOf = (path: string) => ROOMS.findIndex(room => path.startsWith(`src/host/${room}/`))
    const files = sources('src/host')
    expect(files.every(file => roomOf(file) !== -1 || /^src\/host\/[a-z-]+\.ts$/.test(file)), 'every host file is in a room or is one of the shared files').toBe(true)
    for (const file of files) {
      const mine = roomOf(file)
      for (const target of localImports(file).filter(path => path.startsWith('src/host/'))) {
        const theirs = roomOf(target)
        if (theirs === -1) continue
        expect(mine === -1 ? false : theirs <= mine, `${file} imports ${target}`).toBe(true)
      }
    }
  })

  it('never reach dev or test code from the product', () => {
    for (const file of sources('src')) {
      for (const target of localImports(file)) expect(target, file).toMatch(/^src\//)
    }
  })

  it('keep the main job, the bench and dev/ free of test code', () => {
    for (const file of [...sources('scripts'), ...sources('dev')]) {
      for (const target of localImports(file)) expect(target, file).not.toMatch(/^tests\//)
    }
  })

  it('keep the two entries to their halves', () => {
    expect(localImports('src/index.ts').every(target => /^src\/(host\/|config\.ts$)/.test(target))).toBe(true)
    expect(localImports('src/client/index.ts').every(target => /^src\/(client|workspace-browser)\//.test(target))).toBe(true)
  })
})

describe('TypeScript faces', () => {
  const read = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as { compilerOptions: { lib: string[]; types: string[] }; include: string[] }

  it('type-check the host half without the DOM and the browser half without Node', () => {
    const host = read('tsconfig.host.json')
    const client = read('tsconfig.client.json')
    expect(host.compilerOptions.lib.some(lib => lib.startsWith('dom'))).toBe(false)
    expect(host.compilerOptions.types).toEqual(['node'])
    expect(client.compilerOptions.lib).toContain('dom')
    expect(client.compilerOptions.types).toEqual([])
  })

  it('cover every product source in exactly one half, the shared ones in both', () => {
    const host = read('tsconfig.host.json').include
    const client = read('tsconfig.client.json').include
    const covers = (include: readonly string[], file: string) => include.some(entry => file === entry || file.startsWith(`${entry}/`))
    for (const file of sources('src')) {
      const shared = file === 'src/config.ts' || file.startsWith('src/shared/')
      expect([covers(host, file), covers(client, file)], file).toEqual(shared ? [true, true] : [covers(host, file), !covers(host, file)])
      expect(covers(host, file) || covers(client, file), file).toBe(true)
    }
  })
})

describe('comments', () => {
  it('name behaviour, not requirement codes', () => {
    const code = /\((?:[A-Z]{1,2}\d{1,2})(?:,\s*[A-Z]{1,2}\d{1,2})*\)/
    const files = ['src', 'scripts', 'dev', 'tests'].flatMap(dir => sources(dir)).filter(file => !file.includes('node_modules'))
    for (const file of files) {
      const comments = readFileSync(join(root, file), 'utf8').match(/\/\*[\s\S]*?\*\/|\/\/.*$/gm) ?? []
      for (const comment of comments) expect(comment, file).not.toMatch(code)
    }
  })
})

describe('specs', () => {
  it('each say in their first comment what they cover', () => {
    const specs = sources('tests').filter(file => /\.(spec|e2e)\.tsx?$/.test(file))
    expect(specs.length).toBeGreaterThan(20)
    for (const file of specs) {
      const text = readFileSync(join(root, file), 'utf8').replace(/^\/\/ @vitest-environment \w+\n/, '')
      expect(text, file).toMatch(/^\/\*\*\s*\S/)
    }
  })
})
