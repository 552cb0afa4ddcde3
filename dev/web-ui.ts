/**
 * Steps a user takes in the rc.8 web UI, by role and placeholder (class
 * names are hashed). English UI unless the browser asked for another locale.
 */
import type { Locator, Page, Request } from 'playwright-core'
import { type RequestWatch, watchRequests } from './page-requests.ts'

/** Sessions rc.8's sidebar shows of a search answer (its `ctx.sessions.searchResultLimit`): the plugin's sidebar asks its route for as many. */
export const SIDEBAR_ROWS = 20

const NEW_SESSION_COMPOSER = 'textarea[placeholder="Describe what you want to build"], textarea[placeholder="Choose a workspace to start"]'
const COMPOSER = '[data-composer-card] textarea'

/**
 * Opens the app and waits until the composer is rendered (any UI language).
 * @param page - the browser page.
 * @param url - the dsh web URL.
 * @returns milliseconds from navigation to a rendered composer.
 */
export async function openApp(page: Page, url: string): Promise<number> {
  const started = performance.now()
  await page.goto(url)
  await page.locator('[data-composer-card] textarea').waitFor({ timeout: 30_000 })
  return performance.now() - started
}

/**
 * The sidebar's "New session" button.
 * @param page - the browser page.
 * @returns its locator.
 */
export function newSessionButton(page: Page): Locator {
  return page.getByRole('button', { name: /^(New session|新会话)$/ }).last()
}

/**
 * Opens a blank new session and waits for its composer.
 * @param page - the browser page.
 */
export async function startNewSession(page: Page): Promise<void> {
  await newSessionButton(page).click()
  await page.locator(NEW_SESSION_COMPOSER).waitFor()
}

/**
 * The composer textarea of the current view.
 * @param page - the browser page.
 * @returns its locator.
 */
export function composer(page: Page): Locator {
  return page.locator(COMPOSER)
}

/**
 * Selects text in the conversation, as a user drags over it: the first
 * occurrence of `text` inside the last conversation text node that holds it
 * whole, never a node of the composer.
 * @param page - the browser page, showing a conversation.
 * @param text - the text to select; it must lie within one text node.
 */
export async function selectText(page: Page, text: string): Promise<void> {
  await page.evaluate(fragment => {
    const walker = document.createTreeWalker(document.querySelector('[data-conversation-scroll]')!, NodeFilter.SHOW_TEXT)
    let match: Text | undefined
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.textContent?.includes(fragment) && node.parentElement?.closest('[data-composer-seat]') == null) match = node as Text
    }
    if (match === undefined) throw new Error(`no text node contains ${fragment.slice(0, 40)}`)
    const start = match.textContent!.indexOf(fragment)
    const range = document.createRange()
    range.setStart(match, start)
    range.setEnd(match, start + fragment.length)
    const selection = document.getSelection()!
    selection.removeAllRanges()
    selection.addRange(range)
  }, text)
}

/**
 * Picks the new session's workspace in the hero picker: a known workspace
 * from its menu, or a folder through the directory dialog.
 * @param page - the browser page, showing a new session.
 * @param project - a folder directly under the dsh process's HOME.
 */
export async function chooseWorkspace(page: Page, project: string): Promise<void> {
  const creates = watchRequests(page, isCreate)
  try {
    await page.getByRole('button', { name: 'Choose workspace' }).click()
    const dialog = page.getByRole('dialog', { name: 'Select Workspace Directory' })
    const addWorkspace = page.getByRole('menuitem', { name: 'Add workspace…' })
    await dialog.or(addWorkspace).waitFor()
    const known = page.getByRole('menuitem', { name: project, exact: true })
    if (await addWorkspace.isVisible() && await known.isVisible()) {
      await known.click()
    } else {
      if (await addWorkspace.isVisible()) await addWorkspace.click()
      await dialog.getByText(project, { exact: true }).click()
      await dialog.getByRole('button', { name: 'Open' }).click()
    }
    await settled(page, project, creates)
  } finally {
    creates.stop()
  }
}

/** Whether a request is the page's `session.create` call. */
function isCreate(request: Request): boolean {
  return request.method() === 'POST'
    && (new URL(request.url()).pathname.endsWith('session.create') || (request.postData() ?? '').includes('"method":"session.create"'))
}

/**
 * Waits until the hero names the chosen workspace and the session the host
 * opens for it is on screen: the host reuses the workspace's blank session
 * at once or creates one, so every `session.create` the choice started has
 * answered and two frames have rendered the session it opened (a message
 * sent earlier would land in the previous workspace).
 */
async function settled(page: Page, project: string, creates: RequestWatch): Promise<void> {
  await page.getByRole('button', { name: 'Choose workspace' }).filter({ hasText: new RegExp(`^${project}$`) }).waitFor()
  await composer(page).waitFor()
  const deadline = Date.now() + 30_000
  while (creates.open().length > 0) {
    if (Date.now() > deadline) throw new Error(`the session the host creates for ${project} did not answer within 30 s`)
    await page.evaluate(() => new Promise(resolve => requestAnimationFrame(resolve)))
  }
  await frames(page)
}

/**
 * Resolves once the page has rendered two more frames: what a change made now has drawn by then.
 * @param page - the browser page.
 */
export async function frames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve))))
}

/**
 * Sends a message and waits for the stand-in's reply to render.
 * @param page - the browser page with a usable composer.
 * @param text - the message.
 */
export async function sendAndAwaitReply(page: Page, text: string): Promise<void> {
  await send(page, text)
  await page.getByText(`You said: ${text.split('\n')[0]}`, { exact: false }).first().waitFor({ timeout: 30_000 })
}

/**
 * Types a message into the composer and clicks Send (Enter could pick an
 * open `@` menu row instead).
 * @param page - the browser page with a usable composer.
 * @param text - the message.
 */
export async function send(page: Page, text: string): Promise<void> {
  const input = composer(page)
  await input.fill(text)
  await page.getByRole('button', { name: 'Send message' }).click()
}

/**
 * Starts a new session in a workspace and completes one turn in it.
 * @param page - the browser page.
 * @param project - the workspace folder.
 * @param text - the first message.
 */
export async function startSessionWithTurn(page: Page, project: string, text: string): Promise<void> {
  await startNewSession(page)
  await chooseWorkspace(page, project)
  await sendAndAwaitReply(page, text)
}
