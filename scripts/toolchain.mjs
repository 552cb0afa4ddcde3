#!/usr/bin/env node
// Entry point of every npm script. Runs on any Node >= 18 with builtins only:
// it provisions Node 22 from the npm registry when the running Node is older,
// installs the dev dependencies, provisions Debian's Chromium and zstd (and,
// for the screenshots, a CJK font) when a step needs them, then runs the step
// under Node 22.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { homedir, setPriority, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const NODE_VERSION = '22.23.3'
const MIN_MAJOR = 22
const MIN_MINOR = 19
/** The first major after 22 in the host's own range (`^22.19.0 || >=24.0.0`, as dsh rc.8 declares): 23 is outside it. */
const NEXT_MAJOR = 24
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const cacheRoot = process.env.DSH_SESSIONS_CACHE
  ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'wishp3-dsh-sessions')

/** One TypeScript program per face: the host half (Node, no DOM), the browser half (DOM, no Node), its tests, and the tooling. */
const TS_PROJECTS = ['tsconfig.host.json', 'tsconfig.client.json', 'tests/client/tsconfig.json', 'tsconfig.json']
/**
 * The type checks run on TypeScript 7's native compiler (the dev dependency `typescript-7`), a fifth of the time
 * of TypeScript 6's on these programs, with the same diagnostics. `typescript` (6) stays for the tools that use
 * its compiler API: tsdown and `tests/build/parameters.spec.ts`.
 */
const TSC = join(root, 'node_modules', 'typescript-7', 'bin', 'tsc')
const typecheck = () => [runTogether(TS_PROJECTS.map(project => [process.execPath, [TSC, '--noEmit', '-p', project], `tsc --noEmit -p ${project}`]))]

const steps = {
  build: () => [run('tsdown', [])],
  typecheck,
  // The build specs read lib/ and the real-host tests pack it, so both steps build first, as the whole test does.
  // Neither type-checks (`typecheck` and `test` do). Further arguments (file filters, `-t`) go to vitest.
  'test:unit': () => [run('tsdown', []), run('vitest', ['run', '--config', 'vitest.config.ts', ...process.argv.slice(3)])],
  'test:e2e': () => [ensureBrowser(), run('tsdown', []), run('vitest', ['run', '--config', 'vitest.e2e.config.ts', ...process.argv.slice(3)])],
  // The type checks run before the unit tests, not beside them: together they saved a few seconds and starved the unit tests' workers on a loaded machine.
  // The pinned host is installed meanwhile, when the cache lacks it: that install waits on the registry for much of its time.
  test: () => {
    const host = installHostMeanwhile()
    return [
      ensureBrowser(),
      ...typecheck(),
      run('tsdown', []),
      run('vitest', ['run', '--config', 'vitest.config.ts']),
      host,
      run('vitest', ['run', '--config', 'vitest.e2e.config.ts']),
    ]
  },
  start: () => [run('tsdown', []), run('node', ['scripts/start.ts', ...process.argv.slice(3)])],
  // The build's own output goes to stderr: the bench's stdout holds its report alone (`--json` pipes it into a file).
  // Several modes drive Chromium, and some only after minutes of setup: it is provided first, as for the tests.
  bench: () => [ensureBrowser(), run('tsdown', [], { stdio: ['inherit', 2, 'inherit'] }), run('node', ['scripts/bench/main.ts', ...process.argv.slice(3)])],
  // Packs the build like `test:e2e`, boots the pinned host and photographs it; the Chinese pictures need a CJK font.
  screenshots: () => [ensureBrowser(), ensureCjkFont(), run('tsdown', []), run('node', ['scripts/screenshots.ts', ...process.argv.slice(3)])],
}

function log(message) {
  process.stderr.write(`[toolchain] ${message}\n`)
}

function fail(message) {
  log(message)
  process.exit(1)
}

function sh(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options })
  if (result.error) fail(`${command}: ${result.error.message}`)
  return result.status ?? 1
}

function nodeIsRecentEnough(version) {
  const [major, minor] = version.split('.').map(Number)
  return major >= NEXT_MAJOR || (major === MIN_MAJOR && minor >= MIN_MINOR)
}

/** Returns the bin folder of a Node 22 unpacked from the npm registry package `node-<platform>-<arch>`. */
function provisionNode() {
  const dir = join(cacheRoot, `node-v${NODE_VERSION}-${process.platform}-${process.arch}`)
  const bin = join(dir, 'bin')
  if (existsSync(join(bin, 'node'))) return bin
  const started = Date.now()
  mkdirSync(cacheRoot, { recursive: true })
  const scratch = mkdtempSync(join(tmpdir(), 'dsh-sessions-node-'))
  try {
    const spec = `node-${process.platform}-${process.arch}@${NODE_VERSION}`
    log(`fetching ${spec} from the npm registry`)
    if (sh('npm', ['pack', spec, '--silent', '--pack-destination', scratch], { stdio: ['ignore', 'ignore', 'inherit'] }) !== 0) {
      fail(`npm pack ${spec} failed`)
    }
    const tarball = join(scratch, `node-${process.platform}-${process.arch}-${NODE_VERSION}.tgz`)
    const unpacked = join(scratch, 'node')
    mkdirSync(unpacked)
    if (sh('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']) !== 0) fail('unpacking Node failed')
    renameSync(unpacked, dir)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  log(`Node ${NODE_VERSION} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return bin
}

function mtime(path) {
  return existsSync(path) ? statSync(path).mtimeMs : 0
}

function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json')
  const stale = !existsSync(marker)
    || mtime(join(root, 'package.json')) > mtime(marker)
    || mtime(join(root, 'package-lock.json')) > mtime(marker)
  if (!stale) return
  const started = Date.now()
  // Exactly the locked versions, the ones that were tested: npm ci refuses a lock out of step with package.json instead of rewriting it.
  log('installing dev dependencies (npm ci --ignore-scripts)')
  if (sh('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund']) !== 0) fail('npm ci failed')
  log(`dev dependencies ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

function chromiumPath() {
  return process.env.DSH_SESSIONS_CHROMIUM ?? '/usr/bin/chromium'
}

/** Debian's Chromium drives the browser tests; zstd reads session logs. */
function ensureBrowser() {
  return () => {
    const missing = [existsSync(chromiumPath()) ? undefined : 'chromium', hasCommand('zstd') ? undefined : 'zstd']
      .filter(Boolean)
    if (missing.length === 0) return 0
    if (process.getuid?.() !== 0) fail(`missing ${missing.join(', ')}: install them with apt-get install ${missing.join(' ')}`)
    const started = Date.now()
    log(`installing ${missing.join(', ')} through apt`)
    if (sh('apt-get', ['update', '-q']) !== 0) fail('apt-get update failed')
    const code = sh('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    if (code !== 0) fail('apt-get install failed')
    log(`apt packages ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    return 0
  }
}

/** The font the Chinese screenshots render with when the system has no CJK font: WenQuanYi Micro Hei, a 1.6 MB package. */
const CJK_FONT_PACKAGE = 'fonts-wqy-microhei'

/** Chromium draws Chinese with whatever fontconfig offers for `:lang=zh`; without one it draws boxes. */
function ensureCjkFont() {
  return () => {
    const listed = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' })
    if (listed.status === 0 && listed.stdout.trim() !== '') return 0
    if (process.getuid?.() !== 0) fail(`no CJK font for the Chinese screenshots: install one with apt-get install ${CJK_FONT_PACKAGE}`)
    const started = Date.now()
    log(`installing ${CJK_FONT_PACKAGE} through apt (no CJK font found by fc-list :lang=zh)`)
    if (sh('apt-get', ['update', '-q']) !== 0) fail('apt-get update failed')
    const code = sh('apt-get', ['install', '-y', '-q', '--no-install-recommends', CJK_FONT_PACKAGE], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    if (code !== 0) fail('apt-get install failed')
    log(`${CJK_FONT_PACKAGE} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    return 0
  }
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0
}

/** Starts a command in the background, its output collected. Returns the child and how it ended: its exit code and output, or the error that kept it from starting. */
function startCollected(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  const output = []
  child.stdout.on('data', chunk => output.push(chunk))
  child.stderr.on('data', chunk => output.push(chunk))
  const ended = new Promise(resolve => {
    child.on('error', error => resolve({ error, output: Buffer.concat(output) }))
    child.on('close', code => resolve({ code, output: Buffer.concat(output) }))
  })
  return { child, ended }
}

/** Runs commands side by side (the machine has two cores); each one's output is printed whole when it ends, under its label (the command line unless given). */
function runTogether(commands) {
  return () => Promise.all(commands.map(async ([command, args, label = [command, ...args].join(' ')]) => {
    const started = Date.now()
    const { error, code, output } = await startCollected(command, args).ended
    if (error !== undefined) fail(`${command}: ${error.message}`)
    process.stdout.write(output)
    log(`${label} exited ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`)
    return code ?? 1
  })).then(codes => codes.find(code => code !== 0) ?? 0)
}

/** The install's niceness beside the steps (0 is theirs, 19 the lowest). */
const INSTALL_NICENESS = 10

/** Work started beside the steps; the run ends after it, whether the steps passed or not, so it leaves no process behind. */
const meanwhile = []

/**
 * Starts installing the pinned host into the machine cache (`dev/pinned-host.ts`) beside the steps before the
 * real-host tests; it returns at once when the cache has it. Returns the step that waits for that install and
 * prints its output. A failed install fails no step: the real-host tests' own set-up installs the host again
 * and says why it could not.
 */
function installHostMeanwhile() {
  const { child, ended } = startCollected(process.execPath, ['--input-type=module', '-e', "await (await import('./dev/pinned-host.ts')).ensureHost()"])
  // Below the steps' priority, so the unit tests keep both cores; npm, which the install starts, inherits it.
  try {
    if (child.pid !== undefined) setPriority(child.pid, INSTALL_NICENESS)
  } catch {
    // Not lowered (no such process any more, or not allowed): it runs at the steps' priority.
  }
  const started = Date.now()
  meanwhile.push(ended)
  return () => ended.then(({ error, code, output }) => {
    process.stderr.write(output)
    log(`pinned host install ${error === undefined ? `exited ${code}` : `failed to start: ${error.message}`} after ${((Date.now() - started) / 1000).toFixed(1)} s`)
    return 0
  })
}

/** Files listed at the end of a test step. */
const SLOWEST_SHOWN = 10

/** Prints the slowest test files the reporter (`tests/slowest-files.ts`) recorded in `file`, then removes its folder. */
function printSlowest(file) {
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []
  rmSync(dirname(file), { recursive: true, force: true })
  if (lines.length === 0) return
  const slowest = lines.map(line => JSON.parse(line)).sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN)
  log(`the ${slowest.length} slowest test files:`)
  for (const { file: name, ms } of slowest) log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`)
}

function run(command, args, options = {}) {
  return () => {
    const started = Date.now()
    const code = sh(command, args, options)
    log(`${[command, ...args].join(' ')} exited ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`)
    return code
  }
}

const step = process.argv[2]
if (!(step in steps)) fail(`unknown step "${step}"; known: ${Object.keys(steps).join(', ')}`)

if (!nodeIsRecentEnough(process.versions.node)) {
  const bin = provisionNode()
  const result = spawnSync(join(bin, 'node'), process.argv.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
  })
  process.exit(result.status ?? 1)
}

const started = Date.now()
process.env.PATH = `${join(root, 'node_modules', '.bin')}:${dirname(process.execPath)}:${process.env.PATH}`
process.env.DSH_SESSIONS_CACHE = cacheRoot
// Tools that turn on Node's compile cache (tsdown does) keep it with the project's cache, not in the system temp folder.
process.env.NODE_COMPILE_CACHE ??= join(cacheRoot, 'node-compile-cache')
process.env.DSH_SESSIONS_CHROMIUM = chromiumPath()
ensureDependencies()
const timings = step.startsWith('test') ? join(mkdtempSync(join(tmpdir(), 'dsh-sessions-timings-')), 'files.jsonl') : undefined
if (timings !== undefined) process.env.DSH_SESSIONS_TIMINGS = timings
let exitCode = 0
for (const action of steps[step]()) {
  exitCode = await action()
  if (exitCode !== 0) break
}
await Promise.all(meanwhile)
if (timings !== undefined) printSlowest(timings)
if (exitCode !== 0) process.exit(exitCode)
log(`${step} finished in ${((Date.now() - started) / 1000).toFixed(1)} s`)
