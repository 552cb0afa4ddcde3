/** Typing into the sidebar's Search sessions box of the real host, and knowing the host took the query. */
import type { Page } from 'playwright-core'

/** How long the page has to ask the plugin's search route after a fill: the host waits 250 ms after the last keystroke. */
const ASKED_WITHIN_MS = 5_000
/** Fills tried before the box is called deaf. */
const FILLS = 3

/**
 * Opens the box when it is closed, fills it with `query`, and returns once the page asked the plugin's `search` route for the new query. A query the box held already, or an empty one, asks nothing and returns at once.
 * Under load a fill can be lost before the host's controlled input takes it (the box then keeps showing the last answer), so a fill the page never asks for is made again; one that is still never asked for throws.
 * @param page - the app page.
 * @param query - what to type.
 */
export async function typeSidebarQuery(page: Page, query: string): Promise<void> {
  const box = page.getByPlaceholder('Search sessions...')
  if (!(await box.isVisible())) await page.getByRole('button', { name: 'Search sessions' }).first().click()
  const before = (await box.inputValue()).trim()
  if (query.trim() === '' || query.trim() === before) {
    await box.fill(query)
    return
  }
  for (let fill = 1; ; fill += 1) {
    // Any query but the one the box held: the host trims it and may cut it to its wire bound.
    const asked = page.waitForRequest(request => request.url().endsWith('/dsh-sessions/search') && (request.postDataJSON() as { query?: unknown } | null)?.query !== before, { timeout: ASKED_WITHIN_MS })
    if (fill > 1) await box.fill('')
    await box.fill(query)
    try {
      await asked
      return
    } catch (error) {
      if (fill >= FILLS) throw new Error(`the sidebar never asked for ${JSON.stringify(query.slice(0, 40))} after ${FILLS} fills`, { cause: error })
    }
  }
}
