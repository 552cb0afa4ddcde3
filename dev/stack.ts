/**
 * One real-host run: a throwaway home, the stand-in model, the web profile
 * with (or without) the plugin tarball installed, and `dsh web` started in
 * the `alpha` project folder.
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
  /** The current `dsh web`; replaced by {@link Stack.restart}. */
  web: WebProcess
  /** Stops `dsh web` and starts it again (the host reads plugins at boot); `kill`: end it with SIGKILL instead, as a crash would. */
  restart(how?: { readonly kill?: boolean }): Promise<WebProcess>
  /** Stops every process and deletes the home. */
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
}

/**
 * Starts a stack.
 * @param setup - the host, the plugin, fixture plugins, work before the boot and `dsh web` flags.
 * @returns the running stack.
 */
export async function startStack(setup: StackSetup): Promise<Stack> {
  const home = createHome()
  const model = await startModel()
  const options: DshOptions = { home, hostBin: setup.hostBin, modelUrl: model.url, apiKey: 'sk-stand-in' }
  try {
    for (const fixture of setup.fixtures ?? []) dshPlugin(options, ['add', fixture])
    if (setup.tarball !== undefined) dshPlugin(options, ['add', setup.tarball])
    await setup.beforeBoot?.(home, options)
    const stack: Stack = {
      home,
      model,
      options,
      web: await startWeb(options, { cwd: home.project('alpha'), ...(setup.webArgs === undefined ? {} : { args: setup.webArgs }) }),
      async restart(how = {}) {
        await (how.kill === true ? stack.web.kill() : stack.web.stop())
        stack.web = await startWeb(options, { cwd: home.project('alpha'), ...(setup.webArgs === undefined ? {} : { args: setup.webArgs }) })
        return stack.web
      },
      async stop() {
        await stack.web.stop()
        await model.stop()
        home.remove()
      },
    }
    return stack
  } catch (error) {
    await model.stop()
    home.remove()
    throw error
  }
}
