/**
 * The set-up the real-host tests share. A group file calls {@link useRealHost}
 * once: before its tests a stack (a throwaway home, the stand-in model, the
 * web profile with the packed plugin added unless `bare`, `dsh web` started
 * in `alpha`) and one Chromium; after them both stopped, on success and on
 * failure. Each topic of the group then takes its own page through
 * {@link useTopic}: a fresh browser context with the app open, closed after
 * the topic, and the plugin's settings put back as the topic found them,
 * through the host's settings route.
 */
import { afterAll, afterEach, beforeAll, inject } from 'vitest'
import { type Browser, type Chromium, startChromium } from '../../../dev/browser.ts'
import type { DshOptions } from '../../../dev/dsh-process.ts'
import type { Home } from '../../../dev/home.ts'
import { type Stack, type StackSetup, startStack } from '../../../dev/stack.ts'
import { chooseWorkspace, openApp, startNewSession } from '../../../dev/web-ui.ts'

/** What a group asks of its host. */
export interface RealHostOptions {
  /** The stack beyond the pinned host and the packed plugin; `beforeBoot` also runs every topic's `seed`. */
  readonly stack?: Omit<StackSetup, 'hostBin' | 'tarball'>
  /** Run the bare host, without the plugin. */
  readonly bare?: boolean
  /** Topics whose seeds run before the boot, in order. */
  readonly topics?: readonly Topic[]
}

/** A topic of a group: what it writes into the home before the boot, and its tests. */
export interface Topic {
  /** Sessions or files the topic's tests read, written before `dsh web` starts. */
  readonly seed?: (home: Home, options: DshOptions) => Promise<void>
  /** Declares the topic's tests against the group's host. */
  readonly tests: (host: RealHost) => void
}

/** The running pieces of a group's host, readable inside its tests and later hooks. */
export interface RealHost {
  readonly stack: Stack
  /**
   * A new page in a fresh context of the group's Chromium (`en-US` unless a locale is given), closed after the
   * current test when the test leaves it open, unless `keep` asks it to outlive the test.
   */
  open(options?: { readonly locale?: string; readonly keep?: boolean }): Promise<Browser>
}

/** A topic's view of the host: the group's pieces and the topic's own page. */
export interface TopicHost extends RealHost {
  /** The topic's page; reading it when the topic asked for none fails. */
  readonly browser: Browser
}

/** What a topic's own page needs. */
export interface TopicOptions {
  /** `false` for no page of its own; `open: false` to make the context without opening the app; `prepare` runs before the app's first load. */
  readonly browser?: false | { readonly open?: boolean; readonly prepare?: (browser: Browser) => Promise<void> | void }
  /** A workspace folder under the home to start a new session in once the app is open. */
  readonly workspace?: string
}

/**
 * Starts the group's host before its tests and stops it after them.
 * @param options - the stack, the bare host, and the topics whose seeds run before the boot.
 * @returns the running pieces, readable once the group's set-up has run.
 */
export function useRealHost(options: RealHostOptions = {}): RealHost {
  let stack: Stack | undefined
  let chromium: Chromium | undefined
  const left: Browser[] = []
  beforeAll(async () => {
    const seeds = (options.topics ?? []).flatMap(topic => (topic.seed === undefined ? [] : [topic.seed]))
    const beforeBoot = options.stack?.beforeBoot
    stack = await startStack({
      hostBin: inject('hostBin'),
      ...(options.bare === true ? {} : { tarball: inject('tarball') }),
      ...options.stack,
      beforeBoot: async (home, dsh) => {
        await beforeBoot?.(home, dsh)
        for (const seed of seeds) await seed(home, dsh)
      },
    })
    chromium = await startChromium()
  })
  afterEach(async () => {
    for (const browser of left.splice(0)) await browser.close()
  })
  afterAll(async () => {
    await chromium?.close()
    await stack?.stop()
  })
  return {
    get stack() {
      if (stack === undefined) throw new Error('the real host has not started: read it inside a test or a later hook')
      return stack
    },
    async open(how = {}) {
      if (chromium === undefined) throw new Error('the group\'s Chromium has not started: open a page inside a test or a later hook')
      const browser = await chromium.open(how.locale === undefined ? {} : { locale: how.locale })
      if (how.keep !== true) left.push(browser)
      return browser
    },
  }
}

/**
 * Gives a topic its own page for all its tests, and puts the plugin's settings back after them.
 * @param host - the group's host.
 * @param options - the topic's page: none, unopened, prepared, or in a new session of a workspace.
 * @returns the group's pieces with the topic's page.
 */
export function useTopic(host: RealHost, options: TopicOptions = {}): TopicHost {
  let browser: Browser | undefined
  let settings: Record<string, unknown> | undefined
  beforeAll(async () => {
    settings = await readSettings(host.stack.web.url)
    if (options.browser === false) return
    browser = await host.open({ keep: true })
    await options.browser?.prepare?.(browser)
    if (options.browser?.open === false) return
    await openApp(browser.page, host.stack.web.url)
    if (options.workspace === undefined) return
    await startNewSession(browser.page)
    await chooseWorkspace(browser.page, options.workspace)
  })
  afterAll(async () => {
    await browser?.close()
    if (settings !== undefined) await restoreSettings(host, settings)
  })
  return {
    get stack() { return host.stack },
    open: how => host.open(how),
    get browser() {
      if (browser === undefined) throw new Error('this topic has no page of its own, or it has not opened yet')
      return browser
    },
  }
}

async function readSettings(url: string): Promise<Record<string, unknown> | undefined> {
  try {
    const res = await fetch(`${url}/dsh-sessions/settings`)
    return res.ok ? await res.json() as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/** Writes back every key a topic changed, so the next topic starts from the group's settings. */
async function restoreSettings(host: RealHost, before: Record<string, unknown>): Promise<void> {
  let url: string
  try {
    url = host.stack.web.url
  } catch {
    return
  }
  const now = await readSettings(url)
  if (now === undefined) return
  // Every key the route answered with before the topic, whichever the topic changed.
  const patch = Object.fromEntries(Object.keys(before).filter(key => now[key] !== before[key]).map(key => [key, before[key]]))
  if (Object.keys(patch).length === 0) return
  const res = await fetch(`${url}/dsh-sessions/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(patch) })
  if (!res.ok) throw new Error(`the topic's settings could not be put back (${res.status}): ${await res.text()}`)
}

/**
 * A group of one topic: its host and its page in one call.
 * @param options - the group's stack and the topic's page.
 * @returns the host with the topic's page.
 */
export function useSoleTopic(options: RealHostOptions & TopicOptions = {}): TopicHost {
  return useTopic(useRealHost(options), options)
}
