/** Reading the composer's `@` menu once the plugin's candidates for what was typed have come and been drawn. */
import type { Page } from 'playwright-core'
import { composer } from '../../../dev/web-ui.ts'

/**
 * Types `text` into an emptied composer and returns the menu's rows once the candidates request for it has
 * answered and two frames have drawn the answer (an empty list when the menu stays closed).
 * @param page - the app page.
 * @param text - what the user types, ending in the `@` query.
 * @returns each row's text.
 */
export async function menuRows(page: Page, text: string): Promise<string[]> {
  await composer(page).fill('')
  const answered = page.waitForResponse(res => {
    if (new URL(res.url()).pathname !== '/dsh-sessions/candidates') return false
    const query = (JSON.parse(res.request().postData() ?? '{}') as { query?: unknown }).query
    return query === undefined || (typeof query === 'string' && text.includes(query))
  }, { timeout: 30_000 })
  await composer(page).fill(text)
  await answered
  await page.evaluate(() => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  return page.getByRole('listbox').getByRole('option').allInnerTexts()
}
