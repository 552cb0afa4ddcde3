/**
 * The built halves, as the host loads them: `lib/index.js` as an ESM module
 * whose harness imports stay external, and `lib/client.js` as a closure
 * factory that requires nothing outside the web shell's module table.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { beforeAll, describe, expect, it } from 'vitest'
import { SHELL_MODULES } from '../../scripts/client-bundle.ts'
import type { StoreReaderCalls } from '../../src/host/reader/store-reader-calls.ts'

const lib = join(import.meta.dirname, '..', '..', 'lib')

beforeAll(() => {
  for (const file of ['index.js', 'client.js']) {
    if (!existsSync(join(lib, file))) throw new Error(`lib/${file} is missing: run \`npm run build\` first`)
  }
})

describe('host half (lib/index.js)', () => {
  it.each(['index.js', 'content-worker.js', 'store-reader.js'])('%s imports only harness packages and Node builtins, left external', file => {
    const source = readFileSync(join(lib, file), 'utf8')
    const specifiers = [...source.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map(match => match[1])
    expect(specifiers.length).toBeGreaterThan(0)
    for (const specifier of specifiers) expect(specifier).toMatch(/^(@deepseek-ai\/|node:)/)
  })

  it('carries the license of the one package it bundles, the stemmer, ahead of its code', () => {
    const source = readFileSync(join(lib, 'content-worker.js'), 'utf8')
    const notice = source.indexOf('/*! wink-porter2-stemmer@2.0.1 (MIT)')
    expect(notice).toBeGreaterThan(-1)
    expect(source.slice(notice, notice + 2_000)).toContain('Permission is hereby granted, free of charge')
    expect(notice).toBeLessThan(source.indexOf('Porter2 stemming algorithm'))
  })

  it('carries each package index.js bundles, the route bodies\' validator among them, with its license once, at the top', () => {
    const source = readFileSync(join(lib, 'index.js'), 'utf8')
    const notices = [...source.matchAll(/^\/\*! (\S+)@\S+ \(MIT\)$/gm)].map(match => match[1])
    expect(notices).toEqual(['stopword', 'wink-porter2-stemmer', 'zod'])
    expect(source.indexOf('/*! zod@')).toBeLessThan(source.indexOf('Porter2 stemming algorithm'))
  })

  it('starts the built search worker beside index.js, and it answers', async () => {
    const { SearchWorker } = await import('../../src/host/search/worker-client.ts')
    const worker = new SearchWorker(new URL(`file://${join(lib, 'content-worker.js')}`), { engine: undefined }, () => undefined)
    try {
      expect(await worker.call('load', { file: null })).toMatchObject({ engine: 'sqlite' })
      await worker.call('put', { session: 's', entry: { revision: '1', title: undefined, messages: ['built worker answers'] } })
      const hits = await worker.call('search', { terms: [{ term: 'answers', prefix: true }], dates: [['s', 1]], only: ['s'], limit: 5 })
      expect(hits.map(hit => hit.id)).toEqual(['s'])
    } finally {
      await worker.stop()
    }
  })

  it('starts the built store reader beside index.js, and it lists a store as the host does', { timeout: 30_000 }, async () => {
    const { WorkerThread } = await import('../../src/host/worker-thread.ts')
    const { createHostHarness } = await import('../host/harness.ts')
    // Made and removed here: this file registers no per-test cleanup.
    const root = mkdtempSync(join(tmpdir(), 'dsh-sessions-built-reader-'))
    const writer = await createHostHarness({ persistenceRoot: root })
    const thread = new WorkerThread<StoreReaderCalls>('store reader', new URL(`file://${join(lib, 'store-reader.js')}`), { data: { root }, onFailure: () => undefined })
    try {
      const session = writer.session('session-00000000-0000-4000-8000-000000000002', { cwd: '/w/alpha', messages: ['a stored note'] })
      await writer.ctx.sessions.flush(writer.ctx.sessions.get(session)!)
      expect(await thread.call('list', {})).toEqual(await writer.ctx.sessionPersistence.list())
    } finally {
      await thread.stop()
      await writer.dispose()
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('exports a function plugin with its Config schema and no default export', async () => {
    const host = await import(join(lib, 'index.js')) as Record<string, unknown>
    expect(Object.keys(host).sort()).toEqual(['Config', 'apply', 'inject', 'name'])
    expect(host.name).toBe('dsh-sessions')
    expect((host.Config as (value: unknown) => unknown)({})).toMatchObject({ scope: 'workspace', candidateLimit: 50 })
  })
})

describe('browser half (lib/client.js)', () => {
  function materialize(): { id: string; exports: Record<string, unknown>; required: string[] } {
    const source = readFileSync(join(lib, 'client.js'), 'utf8')
    const registrations: { id: string; factory: (require: (id: string) => unknown) => Record<string, unknown> }[] = []
    const window = { __ModuleLoader__: { load: (registration: (typeof registrations)[number]) => registrations.push(registration) } }
    runInNewContext(source, { window })
    expect(registrations).toHaveLength(1)
    const [registration] = registrations
    const required: string[] = []
    const exports = registration!.factory((id) => {
      required.push(id)
      if (!SHELL_MODULES.includes(id)) throw new Error(`require("${id}") missed the module table`)
      return {}
    })
    return { id: registration!.id, exports, required }
  }

  it('registers one factory under the package name', () => {
    const { id } = materialize()
    expect(id).toBe('@wishp3/dsh-sessions')
  })

  it('returns apply and inject and requires only shell modules', () => {
    const { exports, required } = materialize()
    expect(typeof exports.apply).toBe('function')
    expect(exports.inject).toEqual(['locale'])
    for (const id of required) expect(SHELL_MODULES).toContain(id)
  })

  it('is a script, not an ES module', () => {
    const source = readFileSync(join(lib, 'client.js'), 'utf8')
    expect(source.startsWith('window.__ModuleLoader__.load(')).toBe(true)
    expect(source).not.toMatch(/^\s*(import|export)\s/m)
  })
})
