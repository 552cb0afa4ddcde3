/**
 * One real-host run: a throwaway home, the stand-in model, the web profile
 * with (or without) the plugin tarball installed, and `dsh web` started in
 * the `alpha` project folder (or the folder the setup names).
 */
import { createHome, type Home } from './home.ts'
import { type DshOptions, dshPlugin, startWeb, type WebProcess } from './dsh-process.ts'
import { type StandInModel, startModel } from './stand-in-model.ts'

/** Package name users install. */
export const PLUGIN = '@wishp3/dsh-sessions'

/** A running stack. */
export interface Stack {
  readonly home: Home
  readonly model: StandInModel
  readonly options: DshOptions
  /** The current `dsh web`; replaced by {@link Stack.restart}; reading it while `dsh web` is not running throws. */
  readonly web: WebProcess
  /** Starts `dsh web` when it is not running (a stack set up with `boot: false`, or after {@link Stack.halt}). */
  start(): Promise<WebProcess>
  /** Stops `dsh web` and keeps the home, the model and the profile. */
  halt(): Promise<void>
  /** Stops `dsh web` and starts it again (the host reads plugins at boot); `kill`: end it with SIGKILL instead, as a crash would. */
  restart(how?: { readonly kill?: boolean }): Promise<WebProcess>
  /** Stops every process and deletes the home (a model handed in by the setup is left running). */
  stop(): Promise<void>
}

/** What a stack starts with. */
export interface StackSetup {
  /** Folder of the pinned host's `node_modules/.bin`. */
  readonly hostBin: string
  /** The plugin tarball to add; none: the bare host. */
  readonly tarball?: string
  /** Plugin folders or tarballs added before the plugin under test, so their rows come first. */
  readonly fixtures?: readonly string[]
  /** Work on the home before `dsh web` starts; `options` runs other `dsh` processes on the same home and model. */
  readonly beforeBoot?: (home: Home, options: DshOptions) => Promise<void>
  /** Further `dsh web` flags. */
  readonly webArgs?: readonly string[]
  /** The folder `dsh web` starts in, asked at each boot (after `beforeBoot`); default: the `alpha` project. */
  readonly cwd?: (home: Home) => string
  /** A patch layer file the host runs with (`dsh --profile web --patch <file>`), asked at each boot. */
  readonly patch?: (home: Home) => string
  /** Longest boot; default: `startWeb`'s. */
  readonly bootLimitMs?: number
  /** A stand-in model shared with other stacks; default: one of the stack's own. */
  readonly model?: StandInModel
  /** `false`: set up the home and the profile but leave `dsh web` to {@link Stack.start}. */
  readonly boot?: boolean
}

/**
 * Starts a stack.
 * @param setup - the host, the plugin, fixture plugins, work before the boot, `dsh web` flags, its folder and patch layer.
 * @returns the running stack.
 */
export async function startStack(setup: StackSetup): Promise<Stack> {
  const home = createHome()
  const ownModel = setup.model === undefined
  const model = setup.model ?? await startModel()
  const options: DshOptions = { home, hostBin: setup.hostBin, modelUrl: model.url, apiKey: 'sk-stand-in' }
  const boot = () => startWeb(options, {
    cwd: setup.cwd?.(home) ?? home.project('alpha'),
    ...(setup.webArgs === undefined ? {} : { args: setup.webArgs }),
    ...(setup.patch === undefined ? {} : { patch: setup.patch(home) }),
    ...(setup.bootLimitMs === undefined ? {} : { bootLimitMs: setup.bootLimitMs }),
  })
  let web: WebProcess | undefined
  const dispose = async () => {
    if (ownModel) await model.stop()
    home.remove()
  }
  try {
    for (const fixture of setup.fixtures ?? []) dshPlugin(options, ['add', fixture])
    if (setup.tarball !== undefined) dshPlugin(options, ['add', setup.tarball])
    await setup.beforeBoot?.(home, options)
    if (setup.boot !== false) web = await boot()
  } catch (error) {
    await dispose()
    throw error
  }
  const stack: Stack = {
    home,
    model,
    options,
    get web() {
      if (web === undefined) throw new Error('dsh web is not running')
      return web
    },
    async start() {
      web ??= await boot()
      return web
    },
    async halt() {
      const running = web
      web = undefined
      await running?.stop()
    },
    async restart(how = {}) {
      const running = web
      web = undefined
      await (how.kill === true ? running?.kill() : running?.stop())
      return stack.start()
    },
    async stop() {
      await stack.halt()
      await dispose()
    },
  }
  return stack
}
