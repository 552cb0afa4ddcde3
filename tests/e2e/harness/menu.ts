/** Reading the composer's `@` menu once the plugin's candidates for what was typed have come and been drawn. */
import type { Page, Response } from 'playwright-core'
import { until } from '../../../dev/poll.ts'
import { composer, frames } from '../../../dev/web-ui.ts'
import { highlightsIn, markedTexts } from './highlights.ts'

/**
 * Types `text` into an emptied composer and returns the menu's rows once what the typing asked for has been drawn:
 * the `@` trigger asks the plugin for candidates in the same task as the keystroke (it has no debounce), so when no
 * candidates request has started two frames after the typing, the menu stays as it is (closed, or files only);
 * when one has, its answer is awaited, then every session it named to be drawn: the menu draws the sessions with the
 * files, which come over the host's socket and may come later than the sessions under load.
 * @param page - the app page.
 * @param text - what the user types, ending in the `@` query.
 * @returns each row's text (an empty list when the menu is closed).
 */
export async function menuRows(page: Page, text: string): Promise<string[]> {
  await composer(page).fill('')
  let answer: Promise<Response> | undefined
  const started = (request: import('playwright-core').Request) => {
    if (new URL(request.url()).pathname === '/dsh-sessions/candidates') answer ??= request.response().then(response => {
      if (response === null) throw new Error('the candidates request got no answer')
      return response
    })
  }
  page.on('request', started)
  try {
    await composer(page).fill(text)
    await frames(page)
  } finally {
    page.off('request', started)
  }
  const rows = () => page.getByRole('listbox').getByRole('option').allInnerTexts()
  if (answer !== undefined) {
    const { candidates = [] } = await (await answer).json() as { candidates?: readonly { label: string; snippet?: unknown }[] }
    await until(async () => {
      const drawn = await rows()
      return candidates.every(({ label }) => drawn.some(row => row.includes(label)))
    }, `the @ menu to draw the ${candidates.length} sessions the plugin answered for ${JSON.stringify(text)}`, 15_000)
    // An excerpt's matches are highlighted in the frame after its row is drawn.
    if (candidates.some(candidate => candidate.snippet !== undefined)) {
      await until(async () => await highlightsIn(page.getByRole('listbox')) > 0, `the matches in the @ menu's excerpts for ${JSON.stringify(text)}`, 15_000)
    }
    await frames(page)
  }
  return rows()
}

/** The sessions sections' headings, in both languages (the indexing headings start the same way). */
const SESSIONS_HEADINGS = ['Sessions', '会话']

/**
 * The open menu's session rows: those under a sessions heading, as drawn, the highlighted matches between « and ».
 * @param page - the app page.
 * @returns each session row's text, its name and description on two lines (none when the menu is closed).
 */
export async function drawnSessionRows(page: Page): Promise<string[]> {
  const listbox = page.getByRole('listbox')
  if (await listbox.count() === 0) return []
  const items = listbox.locator('[role=presentation], [role=option]')
  const kinds = await items.evaluateAll(elements => elements.map(element => element.getAttribute('role') === 'presentation'))
  const texts = await markedTexts(items)
  let inSessions = false
  const rows: string[] = []
  texts.forEach((text, n) => {
    if (kinds[n] === true) inSessions = SESSIONS_HEADINGS.some(start => text.startsWith(start))
    else if (inSessions) rows.push(text)
  })
  return rows
}

/**
 * Types `text` as {@link menuRows} does and returns the session rows alone.
 * @param page - the app page.
 * @param text - what the user types, ending in the `@` query.
 * @returns each session row's text (an empty list when the menu is closed or lists no session).
 */
export async function sessionMenuRows(page: Page, text: string): Promise<string[]> {
  const rows = await menuRows(page, text)
  return rows.length === 0 ? [] : drawnSessionRows(page)
}
