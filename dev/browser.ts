/**
 * Debian's Chromium driven by playwright-core: headless, background
 * networking off (this machine has no route out), clipboard permissions
 * granted. One Chromium process serves many pages, each in a fresh context
 * (its own storage, cookies and locale), as a fresh profile would.
 */
import { readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { chromiumPath } from './paths.ts'

/** One page in a context of its own. */
export interface Browser {
  readonly context: BrowserContext
  readonly page: Page
  /** Uncaught page errors and console errors, in order. */
  readonly errors: string[]
  /** Closes the context (and, for {@link launchBrowser}, the Chromium behind it). */
  close(): Promise<void>
}

/** A running Chromium that opens fresh contexts. */
export interface Chromium {
  /** A new context with one page, in the UI language asked for (`en-US` unless given). */
  open(options?: { readonly locale?: string }): Promise<Browser>
  /** Closes every context and ends the process. */
  close(): Promise<void>
}

/** Folders playwright makes in the temporary folder for a launch. */
const PLAYWRIGHT_FOLDERS = /^(playwright-artifacts-|playwright_chromiumdev_profile-)/

function leftovers(): string[] {
  return readdirSync(tmpdir()).filter(name => PLAYWRIGHT_FOLDERS.test(name))
}

const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
]

/**
 * Starts Chromium; playwright keeps its profile in a temporary folder it removes on close.
 * @returns the running browser.
 */
export async function startChromium(): Promise<Chromium> {
  const before = new Set(leftovers())
  let running: import('playwright-core').Browser
  try {
    running = await chromium.launch({ executablePath: chromiumPath, headless: true, args: FLAGS })
  } catch (error) {
    // A failed launch leaves playwright's folders behind: the ones it made for this launch go.
    for (const name of leftovers()) if (!before.has(name)) rmSync(join(tmpdir(), name), { recursive: true, force: true })
    throw error
  }
  return {
    async open(options = {}) {
      const context = await running.newContext({
        viewport: { width: 1400, height: 900 },
        locale: options.locale ?? 'en-US',
        permissions: ['clipboard-read', 'clipboard-write'],
      })
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', error => errors.push(`pageerror: ${error.message}`))
      page.on('console', message => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`)
      })
      return { context, page, errors, close: () => context.close() }
    },
    close: () => running.close(),
  }
}

/**
 * Launches a Chromium of its own with one page, for a tool that needs a single browser.
 * @param options - the UI language the page asks for (`en-US` unless given).
 * @returns the page; closing it ends that Chromium.
 */
export async function launchBrowser(options: { readonly locale?: string } = {}): Promise<Browser> {
  const started = await startChromium()
  try {
    const opened = await started.open(options)
    return { ...opened, close: async () => { await opened.close(); await started.close() } }
  } catch (error) {
    await started.close()
    throw error
  }
}
