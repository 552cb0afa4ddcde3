/**
 * The plugin against the built-in pieces it replaces, side by side in the
 * real host: the same home served by the bare host and by the host with the
 * plugin, the same steps in both, and every observation must be equal,
 * except the one added menu item. One bare and one plugin host serve both
 * comparisons, the files group first, then the workspace browser.
 *
 * The files group of the plugin's `@` source against the built-in
 * `ui-reference`: the same project, the same queries; the rows, the chip a
 * file pick inserts, a folder pick's continued query and the text the model
 * receives must be identical.
 *
 * The vendored workspace browser against the built-in one: the sidebar's
 * groups, rows, order and titles; a row's hover card; the session search;
 * the session and workspace ⋯ menus; rename, fork and archive outcomes; the
 * hero workspace picker; adding a workspace through the directory-picker
 * dialog; opening a session.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type Browser, launchBrowser } from '../../dev/browser.ts'
import type { Home } from '../../dev/home.ts'
import { type Stack, startStack } from '../../dev/stack.ts'
import { chooseWorkspace, composer, newSessionButton, openApp, sendAndAwaitReply, startNewSession, startSessionWithTurn } from '../../dev/web-ui.ts'
import { citation } from './harness/requests.ts'
import { until } from './harness/wait.ts'
import { type QuietWatch, watchQuiet } from './harness/quiet.ts'

/** Each page's requests, watched from its launch. */
const watches = new WeakMap<Page, QuietWatch>()

/** Waits until the page has no request in flight and has drawn the answers. */
async function quiet(page: Page): Promise<void> {
  const watch = watches.get(page)
  if (watch === undefined) throw new Error('this page was launched without a request watch')
  await watch.settle()
}

interface FilesObservation {
  rows: Record<string, string[]>
  filePick: string
  folderPick: string
  sent: string
}

const QUERIES = ['', 'READ', 'src', 'src/', 'notes', '"with', 'zzz']

function prepareHome(home: Home): Promise<void> {
  mkdirSync(join(home.home, 'gamma'))
  const alpha = home.project('alpha')
  mkdirSync(join(alpha, 'src', 'deep'), { recursive: true })
  writeFileSync(join(alpha, 'src', 'deep', 'inner.ts'), 'export {}\n')
  writeFileSync(join(alpha, 'with space.md'), 'spaces\n')
  return Promise.resolve()
}

async function rows(page: Page, query: string): Promise<string[]> {
  await composer(page).fill('')
  await composer(page).fill(`look @${query}`)
  await quiet(page)
  const all = await page.getByRole('listbox').getByRole('option').allInnerTexts()
  return all.filter(text => /^(File|Folder) · /.test(text))
}

async function observeFiles(stack: Stack, browser: Browser): Promise<FilesObservation> {
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
  await quiet(page)
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

type WorkspaceObservation = Record<string, unknown>

/** The sidebar's visible text, line by line, without relative times. */
async function sidebar(page: Page): Promise<string[]> {
  const text = await page.locator('[role=tree]').first().innerText()
  return text.split('\n').map(line => line.trim()).filter(line => line !== '' && !/^(now|\d+\s*(m|h|d|min|s)|just now)$/i.test(line))
}

function tree(page: Page) {
  return page.locator('[role=tree]').first()
}

/** A session row's title text in the sidebar (a group row contains its sessions' titles too). */
function rowTitle(page: Page, title: string) {
  return tree(page).getByText(title, { exact: true })
}

async function rowMenu(page: Page, title: string): Promise<string[]> {
  await rowTitle(page, title).hover()
  await page.getByRole('button', { name: `Session actions for ${title}` }).click()
  const items = await page.getByRole('menu').getByRole('menuitem').allInnerTexts()
  await page.keyboard.press('Escape')
  return items
}

async function observeWorkspace(stack: Stack, browser: Browser): Promise<WorkspaceObservation> {
  const page = browser.page
  const seen: WorkspaceObservation = {}
  await openApp(page, stack.web.url)
  await startSessionWithTurn(page, 'alpha', 'Alpha first question')
  await startSessionWithTurn(page, 'beta', 'Beta first question')
  await startSessionWithTurn(page, 'alpha', 'Alpha second question')
  for (const title of ['Title Alpha first question', 'Title Beta first question', 'Title Alpha second question']) {
    await tree(page).getByText(title, { exact: true }).waitFor()
  }
  seen.tree = await sidebar(page)

  await rowTitle(page, 'Title Alpha first question').hover()
  const status = page.getByText('Idle', { exact: true }).first()
  await status.waitFor()
  seen.hover = (await status.locator('xpath=ancestor::*[3]').innerText()).split('\n').filter(line => !/ago|^now$/.test(line))
  await page.mouse.move(700, 500)

  seen.menu = await rowMenu(page, 'Title Alpha first question')
  await rowTitle(page, 'alpha').hover()
  await page.getByRole('button', { name: 'Workspace actions for alpha' }).click()
  seen.workspaceMenu = await page.getByRole('menu').getByRole('menuitem').allInnerTexts()
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: 'Search sessions' }).click()
  await page.getByPlaceholder('Search sessions...').fill('Beta')
  await page.locator('[class*=searchResultRow]').first().waitFor()
  await quiet(page)
  seen.search = (await page.locator('[class*=searchResultRow]').allInnerTexts()).map(text => text.split('\n').filter(line => !/ago|^now$/.test(line)).join(' | '))
  await page.getByPlaceholder('Search sessions...').fill('')
  await page.keyboard.press('Escape')

  await rowMenu(page, 'Title Beta first question').then(() => undefined)
  await rowTitle(page, 'Title Beta first question').hover()
  await page.getByRole('button', { name: 'Session actions for Title Beta first question' }).click()
  await page.getByRole('menuitem', { name: 'Rename' }).click()
  const rename = page.getByRole('dialog').getByRole('textbox')
  await rename.fill('Renamed beta')
  await rename.press('Enter')
  await tree(page).getByText('Renamed beta', { exact: true }).waitFor()
  seen.afterRename = await sidebar(page)

  await rowTitle(page, 'Title Alpha second question').hover()
  await page.getByRole('button', { name: 'Session actions for Title Alpha second question' }).click()
  await page.getByRole('menuitem', { name: 'Archive session' }).click()
  await tree(page).getByText('Title Alpha second question', { exact: true }).waitFor({ state: 'detached' })
  seen.afterArchive = await sidebar(page)

  await rowTitle(page, 'Title Alpha first question').hover()
  await page.getByRole('button', { name: 'Session actions for Title Alpha first question' }).click()
  await page.getByRole('menuitem', { name: 'Fork session' }).click()
  await tree(page).getByText('Title Alpha first question (1)', { exact: true }).waitFor()
  seen.afterFork = await sidebar(page)

  await newSessionButton(page).click()
  await page.getByRole('button', { name: 'Choose workspace' }).click()
  seen.heroPicker = await page.getByRole('menuitem').allInnerTexts()
  await page.keyboard.press('Escape')
  await chooseWorkspace(page, 'beta')
  await sendAndAwaitReply(page, 'Beta second question')
  await tree(page).getByText('Title Beta second question', { exact: true }).waitFor()
  seen.afterNewSession = await sidebar(page)

  await page.getByRole('button', { name: 'Add workspace' }).click()
  const dialog = page.getByRole('dialog', { name: 'Select Workspace Directory' })
  await dialog.getByText('gamma', { exact: true }).click()
  await dialog.getByRole('button', { name: 'Open' }).click()
  await tree(page).getByText('gamma', { exact: true }).waitFor()
  // Adding a workspace opens a blank session in it; observe once that row is there.
  await tree(page).getByText('New Session', { exact: true }).waitFor()
  await quiet(page)
  seen.afterAddWorkspace = await sidebar(page)

  await rowTitle(page, 'Title Alpha first question').click()
  await page.getByText('You said: Alpha first question').first().waitFor()
  await page.locator('[data-composer-card] textarea[placeholder="Message the agent"]').waitFor()
  seen.opened = await page.getByText('Stand-in reply', { exact: false }).allInnerTexts()
  seen.errors = browser.errors
  return seen
}

const files: FilesObservation[] = []
const workspaces: WorkspaceObservation[] = []
const stacks: Stack[] = []
const browsers: Browser[] = []

beforeAll(async () => {
  for (const tarball of [undefined, inject('tarball')]) {
    const stack = await startStack({ hostBin: inject('hostBin'), ...(tarball === undefined ? {} : { tarball }), beforeBoot: prepareHome })
    stacks.push(stack)
    const browser = await launchBrowser()
    watches.set(browser.page, watchQuiet(browser.page))
    browsers.push(browser)
    files.push(await observeFiles(stack, browser))
    workspaces.push(await observeWorkspace(stack, browser))
  }
}, 600_000)

afterAll(async () => {
  for (const browser of browsers) await browser.close()
  for (const stack of stacks) await stack.stop()
})

describe('files group parity with the built-in @ source', () => {
  it('lists the same file and folder rows for every query', () => {
    expect(files[0]!.rows['']).toContain('File · README.md\nREADME.md')
    expect(files[1]!.rows).toEqual(files[0]!.rows)
  })

  it('inserts the same chip for a file and continues the same query for a folder', () => {
    expect(files[0]!.filePick).toBe('see @README.md ')
    expect(files[1]!.filePick).toBe(files[0]!.filePick)
    expect(files[1]!.folderPick).toBe(files[0]!.folderPick)
  })

  it('sends the model the same text', () => {
    expect(files[0]!.sent).toMatch(/^parity marker @"?with space\.md"? and @README\.md$/)
    expect(files[1]!.sent).toBe(files[0]!.sent)
  })
})

describe('the vendored workspace browser matches the built-in one', () => {
  it('shows the same sidebar before and after rename, archive, fork, a new session and a new workspace', () => {
    const [builtIn, plugin] = workspaces
    for (const key of ['tree', 'afterRename', 'afterArchive', 'afterFork', 'afterNewSession', 'afterAddWorkspace']) {
      expect(plugin![key], key).toEqual(builtIn![key])
    }
    expect(builtIn!.tree).toEqual(expect.arrayContaining(['alpha', 'beta', 'Title Alpha first question', 'Title Beta first question']))
    expect(builtIn!.afterArchive).not.toContain('Title Alpha second question')
    expect(builtIn!.afterAddWorkspace).toContain('gamma')
  })

  it('shows the same hover card, search results, workspace menu and hero picker, and opens sessions alike', () => {
    const [builtIn, plugin] = workspaces
    for (const key of ['hover', 'search', 'workspaceMenu', 'heroPicker', 'opened', 'errors']) {
      expect(plugin![key], key).toEqual(builtIn![key])
    }
    expect(builtIn!.heroPicker).toEqual(expect.arrayContaining(['alpha', 'beta']))
    expect(builtIn!.hover).toContain('Title Alpha first question')
    expect((builtIn!.search as string[]).join('\n')).toContain('Title Beta first question')
    expect(builtIn!.errors).toEqual([])
  })

  it('differs only by Copy session ID and Copy reference at the end of the session menu', () => {
    const [builtIn, plugin] = workspaces
    expect(builtIn!.menu).toEqual(['Rename', 'Fork session', 'Archive session'])
    expect(plugin!.menu).toEqual([...builtIn!.menu as string[], 'Copy session ID', 'Copy reference'])
  })
})
