/** The layers say what they are: each half imports only its own folder, the shared wire types and the config; the pure folders import nothing of ours but the pure shared folder; the product never imports dev or test code; each half type-checks against its own platform. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
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

/**
 * The source file an import names: the path itself when it is a file, else
 * its TypeScript twin (`.js` written for `.ts`, a bare path), else its folder's
 * `index.ts(x)`; `undefined` when none exists (a stylesheet is a file and resolves to itself).
 */
function resolveImport(target: string): string | undefined {
  const isFile = (path: string) => existsSync(join(root, path)) && statSync(join(root, path)).isFile()
  const bare = target.replace(/\.(?:[cm]?js|jsx)$/, '')
  const candidates = [target, `${bare}.ts`, `${bare}.tsx`, join(target, 'index.ts'), join(target, 'index.tsx')]
  return candidates.find(isFile)
}

/** The first import cycle among the files, as the files around it, or `undefined`. */
function firstCycle(files: readonly string[]): string[] | undefined {
  const edges = new Map(files.map(file => [file, localImports(file).map(resolveImport).filter((target): target is string => target !== undefined)]))
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file]
    state.set(file, 'open')
    path.push(file)
    for (const target of edges.get(file) ?? []) {
      const cycle = visit(target)
      if (cycle !== undefined) return cycle
    }
    path.pop()
    state.set(file, 'done')
    return undefined
  }
  for (const file of files) {
    const cycle = visit(file)
    if (cycle !== undefined) return cycle
  }
  return undefined
}

/** A source file's text without its comment lines. */
function code(file: string): string {
  return readFileSync(join(root, file), 'utf8').split('\n').filter(line => !/^\s*(\*|\/\/)/.test(line)).join('\n')
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

  it('reach into a dependency\'s non-public surface only from src/host/official/, one file per dependency, and in the browser half only for the page\'s list of sessions', () => {
    const reach = /\bReflect\.get\b|\bas Agent\b|\bas never\b|\bas unknown as\b/
    for (const file of sources('src')) {
      if (file.startsWith('src/host/official/') || file === 'src/client/official/session-list.ts') continue
      expect(reach.test(code(file)), file).toBe(false)
    }
    expect(sources('src/host/official').sort()).toEqual([
      'src/host/official/boot-settled.ts', 'src/host/official/conversation.ts', 'src/host/official/live-sessions.ts', 'src/host/official/log-file.ts', 'src/host/official/session-query.ts', 'src/host/official/session-reference.ts', 'src/host/official/store-encoding.ts',
    ])
  })

  it('reach into the host\'s markup only through src/client/official/: no other browser file queries, observes, writes or listens on the page', () => {
    const reach = /\bquerySelector(?:All)?\b|\.closest\b|\bMutationObserver\b|\bgetElementsBy\w+|\.matches\(|\bactiveElement\b|document\.addEventListener\(|\.setAttribute\(|\.classList\./
    // Elements of their own: the copy fallback's hidden text area and the toast's live region.
    const own = ['src/client/copy/clipboard.ts', 'src/client/copy/toast.tsx']
    const files = sources('src/client').filter(file => !file.startsWith('src/client/official/') && !own.includes(file))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) expect(code(file).match(reach)?.[0], file).toBeUndefined()
  })

  it('cast to the host\'s branded types only behind the doors: src/client/official/ in the browser half, src/host/official/ in the host half', () => {
    // An indexed host type (`as SessionHeader['id']`), a branded id, revision or cursor, or a host iterable re-typed.
    const cast = /\bas\s+(?:[A-Z]\w*\[['"]\w+['"]\]|[A-Z]\w*(?:Id|Revision|Cursor|Namespace)\b|Iterable<)/
    const doors = ['src/client/official/', 'src/host/official/']
    const files = [...sources('src/client'), ...sources('src/host'), ...sources('src/shared')].filter(file => !doors.some(door => file.startsWith(door)))
    for (const file of files) expect(code(file).match(cast)?.[0], file).toBeUndefined()
  })

  it('keep the host rooms in order: each imports only the rooms before it, and the shared host files import no room', () => {
    const ROOMS = ['official', 'sessions', 'search', 'references', 'reader', 'tools', 'http']
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

  it('let the search worker\'s thread and the host\'s thread meet only through the protocol and the pure text folder', () => {
    const worker = 'src/host/search/worker/'
    const text = 'src/host/search/text/'
    const protocol = 'src/host/search/worker-protocol.ts'
    const SIDES: [folder: string, allowed: readonly string[]][] = [
      // The worker: its own folder, the text, the protocol, the host's log format, the one error type, the thread's end of calls, its priority and the shared wire types.
      [worker, [worker, text, protocol, 'src/host/official/', 'src/host/errors.ts', 'src/host/worker-calls.ts', 'src/host/thread-priority.ts', 'src/shared/']],
      // Pure text functions both threads call: nothing of either side.
      [text, [text, 'src/host/official/conversation.ts', 'src/shared/']],
      [protocol, [text, 'src/host/official/conversation.ts', 'src/shared/']],
    ]
    for (const [folder, allowed] of SIDES) {
      const files = sources('src/host').filter(file => file.startsWith(folder))
      expect(files.length, folder).toBeGreaterThan(0)
      for (const file of files) {
        for (const target of localImports(file)) expect(allowed.some(prefix => target.startsWith(prefix)), `${file} imports ${target}`).toBe(true)
      }
    }
    // The host's thread starts the worker by its module's path, and imports none of its files.
    for (const file of sources('src').filter(file => !file.startsWith(worker))) {
      for (const target of localImports(file)) expect(target.startsWith(worker), `${file} imports ${target}`).toBe(false)
    }
  })

  it('import without cycles, type-only imports included', () => {
    const files = sources('src')
    expect(files.every(file => localImports(file).every(target => resolveImport(target) !== undefined)), 'every relative import resolves to a file').toBe(true)
    expect(firstCycle(files)?.join(' -> ')).toBeUndefined()
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

  it('let the bench reach the plugin\'s source through its one door, plugin-parts.ts', () => {
    const door = 'scripts/bench/plugin-parts.ts'
    for (const file of sources('scripts/bench').filter(file => file !== door)) {
      for (const target of localImports(file)) expect(target.startsWith('src/'), `${file} imports ${target}`).toBe(false)
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

describe('the product\'s size', () => {
  // A file's non-blank lines, and those of them that are comments: trimmed, they start with a slash and a star, two slashes, or a star.
  const counted = (file: string): [lines: number, comments: number] => {
    const lines = readFileSync(join(root, file), 'utf8').split('\n').map(line => line.trim()).filter(line => line !== '')
    return [lines.length, lines.filter(line => /^(\/\/|\/\*|\*)/.test(line)).length]
  }

  // A signal, not a target: src/ as a whole at most a fifth, and no room (a folder counted with its subfolders) far above it;
  // a small room of contracts (the shared wire types, the host's shared files) may say a little more than it codes.
  it('keeps comments at most a fifth of the lines of src/, and at most a quarter of each room', () => {
    const folders = new Map<string, [number, number]>()
    for (const file of sources('src')) {
      const folder = dirname(file).split('/').slice(0, file.startsWith('src/host/') || file.startsWith('src/client/') ? 3 : 2).join('/')
      const [lines, comments] = counted(file)
      const held = folders.get(folder) ?? [0, 0]
      folders.set(folder, [held[0] + lines, held[1] + comments])
    }
    const all = [...folders.values()].reduce(([a, b], [c, d]) => [a + c, b + d], [0, 0])
    expect(all[1] / all[0], 'src/').toBeLessThanOrEqual(0.2)
    for (const [folder, [lines, comments]] of folders) expect(comments / lines, folder).toBeLessThanOrEqual(0.25)
  })

  it('keeps every file of src/ at most 400 lines', () => {
    for (const file of sources('src')) expect(readFileSync(join(root, file), 'utf8').trimEnd().split('\n').length, file).toBeLessThanOrEqual(400)
  })
})

describe('comments that point to tests', () => {
  it('name test files that exist', () => {
    for (const file of [...sources('src'), ...sources('scripts'), ...sources('dev')]) {
      for (const [path] of readFileSync(join(root, file), 'utf8').matchAll(/\btests\/[\w./-]+\.tsx?\b/g)) {
        expect(existsSync(join(root, path)), `${file} points to ${path}`).toBe(true)
      }
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
