/**
 * The real `dsh` processes: `dsh plugin --profile web …` and `dsh web`, run
 * as a throwaway user against the stand-in model (or the real DeepSeek API).
 * Every process the harness starts is tracked and ended with its process
 * group, on `stop()` and when the test process exits.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process'
import { promisify } from 'node:util'
import type { Home } from './home.ts'
import { nodeBin, repoBin } from './paths.ts'
import { until } from './poll.ts'

/** What a dsh process runs with. */
export interface DshOptions {
  readonly home: Home
  /** Folder of the host's `node_modules/.bin`. */
  readonly hostBin: string
  /** Stand-in model base URL; omit to use the real DeepSeek API. */
  readonly modelUrl?: string
  /** API key; the stand-in accepts any. */
  readonly apiKey?: string
}

/** A running `dsh web`. */
export interface WebProcess {
  /** The URL dsh printed. */
  readonly url: string
  /** Milliseconds from spawn to the first HTTP 200 of the page. */
  readonly bootMs: number
  /** The process id of `dsh web`, which leads its own process group. */
  readonly pid: number
  /** Everything the process wrote so far. */
  output(): string
  /** Ends the process group; resolves when the process has exited. */
  stop(): Promise<void>
  /** Kills the process group at once (SIGKILL), as a crash or `kill -9` would; resolves when the process has exited. */
  kill(): Promise<void>
}

const running = new Set<ChildProcess>()

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // ESRCH: the group is already gone.
  }
}

process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL')
})

/**
 * Environment of every dsh process: the throwaway user and its temporary
 * folder, the pinned host and pnpm first on PATH, telemetry off, the model
 * endpoint.
 * @param options - the run's user, host and model.
 * @returns the child environment.
 */
export function dshEnv(options: DshOptions): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env)
    .filter(([key]) => !/^(DSH_|DEEPSEEK_|VITEST|NODE_OPTIONS$|npm_)/.test(key)))
  return {
    ...inherited,
    HOME: options.home.home,
    DSH_HOME: options.home.dshHome,
    TMPDIR: options.home.tmp,
    DSH_TELEMETRY_DISABLED: '1',
    PATH: [options.hostBin, repoBin, nodeBin, process.env.PATH ?? ''].join(':'),
    npm_config_update_notifier: 'false',
    ...(options.modelUrl === undefined ? {} : { DEEPSEEK_BASE_URL: options.modelUrl }),
    ...(options.apiKey === undefined ? {} : { DEEPSEEK_API_KEY: options.apiKey }),
    // A profile of the host's processes, asked for on purpose (`DSH_SESSIONS_NODE_OPTIONS=--cpu-prof …`): the run's own NODE_OPTIONS never leak in.
    ...(process.env.DSH_SESSIONS_NODE_OPTIONS === undefined ? {} : { NODE_OPTIONS: process.env.DSH_SESSIONS_NODE_OPTIONS }),
  }
}

/**
 * Runs `dsh plugin --profile web <args>`.
 * @param options - the run's user and host.
 * @param args - pnpm arguments (`add <tarball>`, `remove <name>`).
 * @returns the command's combined output.
 */
export function dshPlugin(options: DshOptions, args: readonly string[]): string {
  try {
    return execFileSync('dsh', ['plugin', '--profile', 'web', ...args], {
      cwd: options.home.home,
      env: dshEnv(options),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 180_000,
    })
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(`dsh plugin ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`)
  }
}

/**
 * Runs one headless turn, `dsh --profile headless <prompt>`, as a separate
 * process writing its session to the home's store (never while `dsh web`
 * runs on the same home).
 * @param options - the run's user, host and model.
 * @param cwd - the workspace folder the session belongs to.
 * @param prompt - the user's message.
 * @returns what the run printed.
 */
export async function dshHeadless(options: DshOptions, cwd: string, prompt: string): Promise<string> {
  // Asynchronous: the stand-in model answering it may run in this same process.
  try {
    const { stdout } = await promisify(execFile)('dsh', ['--profile', 'headless', prompt], { cwd, env: dshEnv(options), encoding: 'utf8', timeout: 120_000 })
    return stdout
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(`dsh --profile headless failed: ${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`)
  }
}

/**
 * Runs `dsh web --dump-config` for the run's web profile.
 * @param options - the run's user and host.
 * @returns the composed configuration as YAML text.
 */
export function dumpConfig(options: DshOptions): string {
  return execFileSync('dsh', ['web', '--dump-config'], {
    cwd: options.home.home,
    env: dshEnv(options),
    encoding: 'utf8',
    timeout: 60_000,
  })
}

/**
 * Starts `dsh web` and waits until its page answers 200.
 * @param options - the run's user, host and model.
 * @param web - the working folder (the default workspace root), port (0: the OS picks), further `dsh web` flags, and a patch layer (then the host runs as `dsh --profile web --patch <file>`, since `dsh web` refuses `--patch`).
 * @returns the running process.
 */
export async function startWeb(options: DshOptions, web: { cwd: string; port?: number; args?: readonly string[]; bootLimitMs?: number; patch?: string }): Promise<WebProcess> {
  const limit = web.bootLimitMs ?? 60_000
  const started = performance.now()
  const command = web.patch === undefined ? ['web'] : ['--profile', 'web', '--patch', web.patch]
  const child = spawn('dsh', [...command, '--no-open', '--host', '127.0.0.1', '--port', String(web.port ?? 0), ...(web.args ?? [])], {
    cwd: web.cwd,
    env: dshEnv(options),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => { output += text })
  child.stderr.setEncoding('utf8').on('data', (text: string) => { output += text })
  const exited = new Promise<void>(resolve => child.once('exit', () => {
    running.delete(child)
    resolve()
  }))
  const stop = async () => {
    killGroup(child, 'SIGTERM')
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }
  const kill = async () => {
    killGroup(child, 'SIGKILL')
    await exited
  }
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`dsh web printed no URL within ${limit / 1000} s:\n${output}`)), limit)
      const poll = setInterval(() => {
        const match = /dsh web: (http:\/\/\S+)/.exec(output)
        if (match?.[1] !== undefined) {
          clearInterval(poll)
          clearTimeout(timer)
          resolve(match[1].replace(/\/$/, ''))
        }
      }, 25)
      void exited.then(() => {
        clearInterval(poll)
        clearTimeout(timer)
        reject(new Error(`dsh web exited during boot:\n${output}`))
      })
    })
    let status = 0
    await until(async () => {
      if (child.exitCode !== null) throw new Error(`dsh web exited during boot:\n${output}`)
      status = await fetch(url).then(res => res.status, () => 0)
      return status === 200
    }, 'dsh web to answer 200', limit, 50).catch((error: unknown) => {
      throw child.exitCode !== null ? error : new Error(`dsh web did not answer 200 within ${limit / 1000} s (last ${status}):\n${output}`, { cause: error })
    })
    return { url, bootMs: performance.now() - started, pid: child.pid!, output: () => output, stop, kill }
  } catch (error) {
    await stop()
    throw error
  }
}
