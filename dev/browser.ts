/**
 * Debian's Chromium driven by playwright-core: headless, a fresh profile
 * folder per launch, background networking off (this machine has no route
 * out), clipboard permissions granted.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { chromiumPath } from './paths.ts'

/** A launched browser with one page. */
export interface Browser {
  readonly context: BrowserContext
  readonly page: Page
  /** Uncaught page errors and console errors, in order. */
  readonly errors: string[]
  /** Closes the browser and deletes its profile folder. */
  close(): Promise<void>
}

const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
]

/**
 * Launches Chromium.
 * @param options - the UI language the page asks for (`en` unless given).
 * @returns the browser.
 */
export async function launchBrowser(options: { locale?: string } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'dsh-sessions-chromium-'))
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: FLAGS,
      viewport: { width: 1400, height: 900 },
      locale: options.locale ?? 'en-US',
      permissions: ['clipboard-read', 'clipboard-write'],
    })
  } catch (error) {
    // A launch that fails (no Chromium, say) leaves no profile folder behind.
    rmSync(profile, { recursive: true, force: true })
    throw error
  }
  const page = context.pages()[0] ?? await context.newPage()
  const errors: string[] = []
  page.on('pageerror', error => errors.push(`pageerror: ${error.message}`))
  page.on('console', message => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`)
  })
  return {
    context,
    page,
    errors,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
