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
import { citation } from '../harness/requests.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { writeSessionStore } from '../../../dev/session-store.ts'
import { chooseWorkspace, composer, openApp, startNewSession } from '../../../dev/web-ui.ts'
import { menuRows, sessionMenuRows } from '../harness/menu.ts'
import { expectRefusedSend } from '../harness/prompts.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'

const ALPHA_TEXT = 'Quince plans for spring planting'
const BETA_TEXT = 'Ledger review for the other team'
const ALPHA_TITLE = 'Quince plans'
const BETA_TITLE = 'Ledger review'
/** The topic's own workspaces: the group's other topics keep theirs in alpha and beta. */
const OWN = 'quince'
const OTHER = 'ledger'

function sessionDir(dshHome: string, id: string): string {
  const root = join(dshHome, 'sessions')
  for (const project of readdirSync(root)) {
    if (readdirSync(join(root, project)).includes(id)) return join(root, project, id)
  }
  throw new Error(`no directory for ${id}`)
}

const openMenu = menuRows

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

let alphaId: string
let betaId: string

export const mentions: Topic = {
  seed: async home => {
    const [alpha, beta] = await writeSessionStore(hostDir(), home, [
      { cwd: home.project(OWN), title: ALPHA_TITLE, text: ALPHA_TEXT },
      { cwd: home.project(OTHER), title: BETA_TITLE, text: BETA_TEXT },
    ])
    alphaId = alpha!.id
    betaId = beta!.id
  },
  tests: group => describe('the @ menu, session chips and the settings card in the real host', () => {
    const host = useTopic(group, { workspace: OWN })

    it('lists the files group and only this workspace\'s session, each once, by title and age', async () => {
      await expect.poll(async () => (await openMenu(host.browser.page, 'Compare @')).length, { timeout: 15_000 }).toBe(4)
      const options = await openMenu(host.browser.page, 'Compare @')
      const names = options.map(text => text.split('\n')[0])
      expect(names).toEqual(['Folder · src/', 'File · README.md', 'File · notes.txt', ALPHA_TITLE])
      // Read again by its section (the age may have turned a minute between the two reads).
      expect((await sessionMenuRows(host.browser.page, 'Compare @')).map(row => row.split('\n')[0])).toEqual([ALPHA_TITLE])
      // The title alone, then the age; the id and the workspace's path stay out of the row.
      expect(options.at(-1)).toMatch(new RegExp(`^${ALPHA_TITLE}\\n\\d+ (seconds?|minutes?) ago$`))
      expect(options.at(-1)).not.toContain(alphaId)
      expect(options.at(-1)).not.toContain(host.stack.home.project(OWN))
      expect(await host.browser.page.getByRole('listbox').innerText()).toContain('Files & folders')
      expect(await host.browser.page.getByRole('listbox').innerText()).not.toContain('Session conversations')
      await composer(host.browser.page).fill('')
    })

    it('sends a picked session chip as a snapshot after the readable message', async () => {
      const page = host.browser.page
      await composer(page).fill('pick marker ')
      await pick(page, '@Quin', /^Quince plans/)
      await expect.poll(() => composer(page).inputValue()).toBe(`pick marker @${ALPHA_TITLE} `)
      expect(await page.locator('[data-decoration="chip"]').getAttribute('data-reference-appearance')).toBe('session')
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
      expect(await openMenu(page, '@Ledger')).toEqual(['No sessions match “Ledger”'])
      await setScope(page, 'All visible sessions', /Expand: Session references/)
      expect(readFileSync(join(host.stack.home.dshHome, 'settings.yaml'), 'utf8')).toMatch(/^dsh-sessions:\n {2}scope: all$/m)
      const options = await sessionMenuRows(page, '@Ledger')
      expect(options.map(text => text.split('\n')[0])).toEqual([BETA_TITLE])
      // Another workspace's session names that workspace after its age.
      expect(options[0]).toMatch(new RegExp(`\\d+ (seconds?|minutes?) ago · ${OTHER}$`))
      expect(options[0]).not.toContain(betaId)
      await composer(page).fill('')
    })

    it('leaves a draft with no message out of the menu, and says when nothing matches', async () => {
      const page = host.browser.page
      // A blank draft in this workspace, then back to a session of it with messages.
      await startNewSession(page)
      await chooseWorkspace(page, OWN)
      await page.locator('[role=tree]').getByText(/^Title pick marker/).first().click()
      await composer(page).waitFor()
      await expect.poll(async () => (await sessionMenuRows(page, '@')).map(text => text.split('\n')[0]), { timeout: 15_000 }).toContain(ALPHA_TITLE)
      const sessions = (await sessionMenuRows(page, '@')).map(text => text.split('\n')[0] ?? '')
      expect(sessions.filter(name => /^session-/.test(name))).toEqual([])
      expect(await openMenu(page, '@zqxj')).toEqual(['No sessions match “zqxj”'])
      await composer(page).fill('')
    })

    it('blocks the send when the picked source was deleted, keeping the draft and the chip', async () => {
      const page = host.browser.page
      await composer(page).fill('deleted marker ')
      await pick(page, '@Ledger', /^Ledger review/)
      const draft = `deleted marker @${BETA_TITLE} `
      await expect.poll(() => composer(page).inputValue()).toBe(draft)
      rmSync(sessionDir(host.stack.home.dshHome, betaId), { recursive: true, force: true })
      const before = host.stack.model.turns().length
      await expectRefusedSend(page, () => page.getByRole('button', { name: 'Send message' }).click(), 'was deleted or cannot be read')
      const alert = page.getByRole('alert').filter({ hasText: 'was deleted or cannot be read' })
      expect(await alert.innerText()).toContain(`Cannot reference "${BETA_TITLE}"`)
      expect(await composer(page).inputValue()).toBe(draft)
      // The dock marks the chip that failed, where it showed its size before the send.
      const row = page.locator(`[data-dsh-sessions-reference-dock] li[data-session-id="${betaId}"]`)
      await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain('was deleted or cannot be read')
      // The composer marks that chip too, in the colour of the dock's reason, with a wavy underline.
      const chip = page.locator('[data-decoration="chip"]').filter({ hasText: BETA_TITLE })
      await expect.poll(() => chip.evaluate(element => getComputedStyle(element).textDecorationStyle)).toBe('wavy')
      const reasonColour = await row.getByRole('status').evaluate(element => getComputedStyle(element).color)
      expect(await chip.evaluate(element => getComputedStyle(element).color)).toBe(reasonColour)
      expect(host.stack.model.turns().length).toBe(before)
      await composer(page).fill('')
      await expect.poll(() => page.locator('style[data-dsh-sessions-failed-chips]').count()).toBe(0)
    })

    it('shows the menu, the card and a preflight failure in Chinese', async () => {
      const zh = await host.open({ locale: 'zh-CN' })
      try {
        const page = zh.page
        await openApp(page, host.stack.web.url)
        await page.getByText(/^Title pick marker/).first().click()
        await expect.poll(async () => (await sessionMenuRows(page, '@')).map(text => text.split('\n')[0]), { timeout: 15_000 }).toContain(ALPHA_TITLE)
        const options = await openMenu(page, '@')
        expect(await page.getByRole('listbox').innerText()).toContain('文件与文件夹')
        expect(options.map(text => text.split('\n')[0])).toContain('文件 · README.md')
        expect(options.find(text => text.startsWith(`${ALPHA_TITLE}\n`))).toMatch(/前/)
        expect(await openMenu(page, '@zqxj')).toEqual(['没有匹配“zqxj”的会话'])
        await setScope(page, '仅当前工作区', /展开: 会话引用/)
        expect(readFileSync(join(host.stack.home.dshHome, 'settings.yaml'), 'utf8')).toMatch(/^dsh-sessions:\n {2}scope: workspace$/m)

        await composer(page).fill('中文 ')
        await pick(page, '@Quin', /^Quince plans/)
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
  }),
}
