/**
 * The one set-up the real-host test files share. For the file it is called
 * in: before the tests, a stack (a throwaway home, the stand-in model, the
 * web profile with the packed plugin added unless `bare`, `dsh web` started
 * in `alpha`), then, unless told otherwise, one browser with the app open
 * and, when a workspace is named, a new session in it; after the tests, the
 * browser closed and every process of the stack stopped, on success and on
 * failure. Test bodies read the running pieces from the returned object.
 */
import { afterAll, beforeAll, inject } from 'vitest'
import { type Browser, launchBrowser } from '../../../dev/browser.ts'
import { type Stack, type StackSetup, startStack } from '../../../dev/stack.ts'
import { chooseWorkspace, openApp, startNewSession } from '../../../dev/web-ui.ts'

/** What a test file asks of its host. */
export interface RealHostOptions {
  /** The stack beyond the pinned host and the packed plugin. */
  readonly stack?: Omit<StackSetup, 'hostBin' | 'tarball'>
  /** Run the bare host, without the plugin. */
  readonly bare?: boolean
  /**
   * The file's browser: `false` for none (the tests launch their own);
   * `open: false` to launch it without opening the app; `prepare` runs
   * between the launch and the app's first load.
   */
  readonly browser?: false | { readonly open?: boolean; readonly prepare?: (browser: Browser) => Promise<void> | void }
  /** A workspace folder under the home to start a new session in once the app is open. */
  readonly workspace?: string
}

/** The running pieces of a file's host, available inside its tests and later hooks. */
export interface RealHost {
  readonly stack: Stack
  /** The file's browser; reading it when the file asked for none fails. */
  readonly browser: Browser
}

/**
 * Starts the host before the file's tests and stops it after them.
 * @param options - what the file needs beyond the default stack and browser.
 * @returns the running pieces, readable once the file's set-up has run.
 */
export function useRealHost(options: RealHostOptions = {}): RealHost {
  let stack: Stack | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    stack = await startStack({ hostBin: inject('hostBin'), ...(options.bare === true ? {} : { tarball: inject('tarball') }), ...options.stack })
    if (options.browser === false) return
    browser = await launchBrowser()
    await options.browser?.prepare?.(browser)
    if (options.browser?.open === false) return
    await openApp(browser.page, stack.web.url)
    if (options.workspace === undefined) return
    await startNewSession(browser.page)
    await chooseWorkspace(browser.page, options.workspace)
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })
  return {
    get stack() {
      if (stack === undefined) throw new Error('the real host has not started: read it inside a test or a later hook')
      return stack
    },
    get browser() {
      if (browser === undefined) throw new Error('this file has no browser of its own, or it has not launched yet')
      return browser
    },
  }
}
