/**
 * The turns a page asks the host for: each `session.prompt` call it sends.
 * A send the plugin refuses in the page makes no such call; the refusal is
 * read from the page's own preflight answer and the alert it shows, never
 * from a wait for a request that might still come.
 */
import type { Page } from 'playwright-core'
import { frames } from '../../../dev/web-ui.ts'

/** Counts a page's `session.prompt` calls from the moment of watching. */
export interface PromptWatch {
  /** Calls seen so far. */
  count(): number
}

/**
 * Starts counting.
 * @param page - the app page.
 * @returns the running count.
 */
export function watchPrompts(page: Page): PromptWatch {
  let seen = 0
  page.on('request', request => {
    if (request.method() !== 'POST') return
    if (new URL(request.url()).pathname.endsWith('session.prompt') || (request.postData() ?? '').includes('"method":"session.prompt"')) seen += 1
  })
  return { count: () => seen }
}

/**
 * Sends and proves the plugin refused the send in the page: the preflight the send asked for has answered, an
 * alert names the refusal, two frames have passed, and the page asked for no turn.
 * @param page - the app page.
 * @param send - the user's action that sends (a click on Send, say).
 * @param alert - text the refusal's alert holds.
 */
export async function expectRefusedSend(page: Page, send: () => Promise<void>, alert: string | RegExp): Promise<void> {
  const prompts = watchPrompts(page)
  const checked = page.waitForResponse(res => new URL(res.url()).pathname === '/dsh-sessions/preflight', { timeout: 30_000 })
  await send()
  await checked
  await page.getByRole('alert').filter({ hasText: alert }).first().waitFor({ timeout: 30_000 })
  await frames(page)
  if (prompts.count() !== 0) throw new Error(`the page asked the host for ${prompts.count()} turn(s) after a send the plugin should have refused`)
}
