/**
 * The files group of the plugin's `@` source against the built-in
 * `ui-reference` it replaces, side by side in the real host: the same
 * project, the same queries; the rows, the chip a file pick inserts, a
 * folder pick's continued query and the text the model receives must be
 * identical.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type Browser, launchBrowser } from '../../dev/browser.ts'
import type { Home } from '../../dev/home.ts'
import { citation } from './harness/requests.ts'
import { type Stack, startStack } from '../../dev/stack.ts'
import { until } from './harness/wait.ts'
import { chooseWorkspace, composer, openApp, startNewSession } from '../../dev/web-ui.ts'

interface Observation {
  rows: Record<string, string[]>
  filePick: string
  folderPick: string
  sent: string
}

const QUERIES = ['', 'READ', 'src', 'src/', 'notes', '"with', 'zzz']

function addFiles(home: Home): Promise<void> {
  const alpha = home.project('alpha')
  mkdirSync(join(alpha, 'src', 'deep'), { recursive: true })
  writeFileSync(join(alpha, 'src', 'deep', 'inner.ts'), 'export {}\n')
  writeFileSync(join(alpha, 'with space.md'), 'spaces\n')
  return Promise.resolve()
}

async function rows(page: Page, query: string): Promise<string[]> {
  await composer(page).fill('')
  await composer(page).fill(`look @${query}`)
  await page.waitForTimeout(500)
  const all = await page.getByRole('listbox').getByRole('option').allInnerTexts()
  return all.filter(text => /^(File|Folder) · /.test(text))
}

async function observe(stack: Stack, browser: Browser): Promise<Observation> {
  const page = browser.page
  await openApp(page, stack.web.url)
  await startNewSession(page)
  await chooseWorkspace(page, 'alpha')
  const deadline = Date.now() + 15_000
  while ((await rows(page, '')).length === 0) {
    if (Date.now() > deadline) throw new Error('the @ menu listed no files')
  }
  const observed: Record<string, string[]> = {}
  for (const query of QUERIES) observed[query] = await rows(page, query)

  await composer(page).fill('')
  await composer(page).fill('see @READ')
  await page.getByRole('listbox').getByRole('option', { name: /File · README\.md/ }).click()
  const filePick = await composer(page).inputValue()

  await composer(page).fill('')
  await composer(page).fill('open @sr')
  await page.getByRole('listbox').getByRole('option', { name: /Folder · src\// }).click()
  await page.waitForTimeout(300)
  const folderPick = await composer(page).inputValue()

  await composer(page).fill('')
  await composer(page).fill('parity marker @with')
  await page.getByRole('listbox').getByRole('option', { name: /with space\.md/ }).click()
  await composer(page).press('End')
  await composer(page).pressSequentially('and @READ')
  await page.getByRole('listbox').getByRole('option', { name: /File · README\.md/ }).click()
  const before = stack.model.turns().length
  await page.getByRole('button', { name: 'Send message' }).click()
  await until(() => stack.model.turns().length === before + 1, 'the parity turn')
  const sent = citation(stack.model.turns().at(-1)!, 'parity marker').direct
  return { rows: observed, filePick, folderPick, sent }
}

describe('files group parity with the built-in @ source', () => {
  let builtIn: Observation
  let plugin: Observation
  const stacks: Stack[] = []
  const browsers: Browser[] = []

  beforeAll(async () => {
    for (const tarball of [undefined, inject('tarball')]) {
      const stack = await startStack({ hostBin: inject('hostBin'), ...(tarball === undefined ? {} : { tarball }), beforeBoot: addFiles })
      stacks.push(stack)
      const browser = await launchBrowser()
      browsers.push(browser)
      const observed = await observe(stack, browser)
      if (tarball === undefined) builtIn = observed
      else plugin = observed
    }
  })

  afterAll(async () => {
    for (const browser of browsers) await browser.close()
    for (const stack of stacks) await stack.stop()
  })

  it('lists the same file and folder rows for every query', () => {
    expect(builtIn.rows['']).toContain('File · README.md\nREADME.md')
    expect(plugin.rows).toEqual(builtIn.rows)
  })

  it('inserts the same chip for a file and continues the same query for a folder', () => {
    expect(builtIn.filePick).toBe('see @README.md ')
    expect(plugin.filePick).toBe(builtIn.filePick)
    expect(plugin.folderPick).toBe(builtIn.folderPick)
  })

  it('sends the model the same text', () => {
    expect(builtIn.sent).toMatch(/^parity marker @"?with space\.md"? and @README\.md$/)
    expect(plugin.sent).toBe(builtIn.sent)
  })
})
