/**
 * The browser half of session references in the real host: one `@` menu with
 * the files group and a scoped session group; a picked session chip reaches
 * the model as a snapshot; the settings card switches the scope live; a
 * preflight failure blocks the send with the reason in the user's language
 * and keeps the draft and its chip; the same in Chinese.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { citation } from './harness/requests.ts'
import { hostDir } from '../../dev/pinned-host.ts'
import { writeSessionStore } from '../../dev/session-store.ts'
import { composer, openApp } from '../../dev/web-ui.ts'
import { useSoleTopic } from './harness/real-host.ts'

const ALPHA_TEXT = 'Orchard plans for spring planting'
const BETA_TEXT = 'Budget review for beta team'
const ALPHA_TITLE = 'Orchard plans'
const BETA_TITLE = 'Budget review'

function sessionDir(dshHome: string, id: string): string {
  const root = join(dshHome, 'sessions')
  for (const project of readdirSync(root)) {
    if (readdirSync(join(root, project)).includes(id)) return join(root, project, id)
  }
  throw new Error(`no directory for ${id}`)
}

/** Types `text` and returns the menu rows once the session group has settled (an empty list when the menu stays closed). */
async function openMenu(page: Page, text: string): Promise<string[]> {
  await composer(page).fill('')
  await composer(page).fill(text)
  await page.waitForTimeout(400)
  return page.getByRole('listbox').getByRole('option').allInnerTexts()
}

async function pick(page: Page, query: string, option: RegExp): Promise<void> {
  const input = composer(page)
  await input.press('End')
  await input.pressSequentially(query)
  await page.getByRole('listbox').getByRole('option', { name: option }).click()
}

async function setScope(page: Page, label: string, expandLabel: RegExp): Promise<void> {
  await page.locator('aside, nav, body').getByRole('button', { name: /^(Settings|设置)$/ }).last().click()
  await page.getByRole('button', { name: /^(Plugins|插件)$/ }).click()
  await page.getByRole('tab', { name: /Plugin configuration|插件配置/ }).click()
  const header = page.getByRole('button', { name: expandLabel })
  await expect.poll(() => header.getAttribute('aria-expanded')).toBe('false')
  await header.click()
  await page.getByRole('radio', { name: label }).check()
  await page.getByRole('button', { name: /^(Save|保存)$/ }).click()
  await page.getByRole('status').filter({ hasText: /Saved|已保存/ }).waitFor()
  await page.keyboard.press('Escape')
}

describe('the @ menu, session chips and the settings card in the real host', () => {
  let alphaId: string
  let betaId: string

  const host = useSoleTopic({
    stack: {
      beforeBoot: async home => {
        const [alpha, beta] = await writeSessionStore(hostDir(), home, [
          { cwd: home.project('alpha'), title: ALPHA_TITLE, text: ALPHA_TEXT },
          { cwd: home.project('beta'), title: BETA_TITLE, text: BETA_TEXT },
        ])
        alphaId = alpha!.id
        betaId = beta!.id
      },
    },
    workspace: 'alpha',
  })

  it('lists the files group and only the alpha session, each once', async () => {
    await expect.poll(async () => (await openMenu(host.browser.page, 'Compare @')).length, { timeout: 15_000 }).toBe(4)
    const options = await openMenu(host.browser.page, 'Compare @')
    const names = options.map(text => text.split('\n')[0])
    expect(names).toEqual(['Folder · src/', 'File · README.md', 'File · notes.txt', `Session · ${ALPHA_TITLE}`])
    expect(options.at(-1)).toContain(alphaId)
    expect(options.at(-1)).toContain(host.stack.home.project('alpha'))
    expect(options.at(-1)).toMatch(/ago/)
    expect(await host.browser.page.getByRole('listbox').innerText()).toContain('Files & folders')
    expect(await host.browser.page.getByRole('listbox').innerText()).not.toContain('Session conversations')
    await composer(host.browser.page).fill('')
  })

  it('sends a picked session chip as a snapshot after the readable message', async () => {
    const page = host.browser.page
    await composer(page).fill('pick marker ')
    await pick(page, '@Orch', /Session · Orchard plans/)
    await expect.poll(() => composer(page).inputValue()).toBe(`pick marker @${ALPHA_TITLE} `)
    await composer(page).press('End')
    await composer(page).pressSequentially('what did we plan?')
    const before = host.stack.model.turns().length
    await page.getByRole('button', { name: 'Send message' }).click()
    await expect.poll(() => host.stack.model.turns().length, { timeout: 30_000 }).toBe(before + 1)
    const cited = citation(host.stack.model.turns().at(-1)!, 'pick marker')
    expect(cited.direct).toBe(`pick marker @${ALPHA_TITLE} what did we plan?`)
    expect(cited.following).toContain(ALPHA_TEXT)
    expect(cited.snapshots).toBe(1)
  })

  it('switches the scope from the settings card, persisted and live', async () => {
    const page = host.browser.page
    expect(await openMenu(page, '@Budget')).toEqual([])
    await setScope(page, 'All visible sessions', /Expand: Session references/)
    expect(readFileSync(join(host.stack.home.dshHome, 'settings.yaml'), 'utf8')).toMatch(/^dsh-sessions:\n {2}scope: all$/m)
    const options = await openMenu(page, '@Budget')
    expect(options.map(text => text.split('\n')[0])).toEqual([`Session · ${BETA_TITLE}`])
    expect(options[0]).toContain(betaId)
    await composer(page).fill('')
  })

  it('blocks the send when the picked source was deleted, keeping the draft and the chip', async () => {
    const page = host.browser.page
    await composer(page).fill('deleted marker ')
    await pick(page, '@Budget', /Session · Budget review/)
    const draft = `deleted marker @${BETA_TITLE} `
    await expect.poll(() => composer(page).inputValue()).toBe(draft)
    rmSync(sessionDir(host.stack.home.dshHome, betaId), { recursive: true, force: true })
    const before = host.stack.model.turns().length
    await page.getByRole('button', { name: 'Send message' }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'was deleted or cannot be read' })
    await alert.waitFor()
    expect(await alert.innerText()).toContain(`Cannot reference "${BETA_TITLE}"`)
    expect(await composer(page).inputValue()).toBe(draft)
    await page.waitForTimeout(1000)
    expect(host.stack.model.turns().length).toBe(before)
    await composer(page).fill('')
  })

  it('shows the menu, the card and a preflight failure in Chinese', async () => {
    const zh = await host.open({ locale: 'zh-CN' })
    try {
      const page = zh.page
      await openApp(page, host.stack.web.url)
      await page.getByText(/^Title pick marker/).first().click()
      await expect.poll(async () => (await openMenu(page, '@')).map(text => text.split('\n')[0]), { timeout: 15_000 }).toContain(`会话 · ${ALPHA_TITLE}`)
      const options = await openMenu(page, '@')
      expect(await page.getByRole('listbox').innerText()).toContain('文件与文件夹')
      expect(options.map(text => text.split('\n')[0])).toContain('文件 · README.md')
      expect(options.find(text => text.startsWith(`会话 · ${ALPHA_TITLE}`))).toMatch(/前/)
      await setScope(page, '仅当前工作区', /展开: 会话引用/)
      expect(readFileSync(join(host.stack.home.dshHome, 'settings.yaml'), 'utf8')).toMatch(/^dsh-sessions:\n {2}scope: workspace$/m)

      await composer(page).fill('中文 ')
      await pick(page, '@Orch', /会话 · Orchard plans/)
      const draft = `中文 @${ALPHA_TITLE} `
      await expect.poll(() => composer(page).inputValue()).toBe(draft)
      rmSync(sessionDir(host.stack.home.dshHome, alphaId), { recursive: true, force: true })
      const before = host.stack.model.turns().length
      await page.getByRole('button', { name: '发送消息' }).click()
      const alert = page.getByRole('alert').filter({ hasText: `无法引用「${ALPHA_TITLE}」：该会话已被删除或无法读取。` })
      await alert.waitFor()
      expect(await composer(page).inputValue()).toBe(draft)
      expect(host.stack.model.turns().length).toBe(before)
    } finally {
      await zh.close()
    }
  })
})
