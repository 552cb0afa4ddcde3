/** The sidebar's session rows in the vendored workspace browser: finding a row by its title, its ⋯ menu, and where a copy toast sits against it. */
import type { Locator, Page } from 'playwright-core'

/**
 * The row whose title is exactly `title` (a later session's title may contain it).
 * @param page - the app page.
 * @param title - the row's title.
 * @returns the row locator.
 */
export function rowOf(page: Page, title: string): Locator {
  return page.locator('[data-dsh-session-row]').filter({ has: page.getByText(title, { exact: true }) })
}

/**
 * Opens the ⋯ menu of a row and returns its item texts.
 * @param page - the app page.
 * @param title - the row's title.
 * @param button - the accessible name of the row's menu button, in the UI language.
 * @returns the menu item texts.
 */
export async function openRowMenu(page: Page, title: string, button = `Session actions for ${title}`): Promise<string[]> {
  await rowOf(page, title).hover()
  await page.getByRole('button', { name: button }).click()
  const menu = page.getByRole('menu')
  await menu.waitFor()
  return menu.getByRole('menuitem').allInnerTexts()
}

/**
 * The copy toast's box against a row's and its title's boxes.
 * @param page - the app page.
 * @param title - the row's title.
 * @returns how far the toast's centre is from the row's, its gap to the row's right edge, and whether it covers the title.
 */
export async function toastBeside(page: Page, title: string): Promise<{ centreOffset: number; gapToRow: number; overlapsTitle: boolean }> {
  const row = rowOf(page, title)
  const rowBox = (await row.boundingBox())!
  const titleBox = (await row.getByText(title, { exact: true }).boundingBox())!
  const toastBox = (await page.locator('[data-dsh-sessions-toast]').boundingBox())!
  const overlaps = (a: typeof rowBox, b: typeof rowBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
  return {
    centreOffset: Math.abs((toastBox.y + toastBox.height / 2) - (rowBox.y + rowBox.height / 2)),
    gapToRow: toastBox.x - (rowBox.x + rowBox.width),
    overlapsTitle: overlaps(toastBox, titleBox),
  }
}
