/**
 * The Session references card in the real host: every key editable, named
 * with its value in the UI language and where it comes from (set here, or
 * the plugin's default), in English and in Chinese; a key changed on the
 * card is saved to settings.yaml and applied at once, and a number the route
 * would refuse is refused on the card, the file left as it was.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { openApp } from '../../../dev/web-ui.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'

/** Opens Settings → Plugins → Plugin configuration and expands the card. */
async function openCard(page: Page, expandLabel: RegExp): Promise<void> {
  await page.locator('aside, nav, body').getByRole('button', { name: /^(Settings|设置)$/ }).last().click()
  await page.getByRole('button', { name: /^(Plugins|插件)$/ }).click()
  await page.getByRole('tab', { name: /Plugin configuration|插件配置/ }).click()
  await page.getByRole('button', { name: expandLabel }).click()
  await page.locator('[data-dsh-sessions-setting]').first().waitFor()
}

/** Each key but the scope as [name, the value its control shows, where it comes from]. */
function settingRows(page: Page): Promise<string[][]> {
  return page.locator('div[data-dsh-sessions-setting]').evaluateAll(rows => rows.map(row => {
    const control = row.querySelector<HTMLInputElement | HTMLSelectElement>('input, select')!
    const shown = control instanceof HTMLSelectElement ? control.selectedOptions[0]!.textContent! : control.type === 'checkbox' ? String((control as HTMLInputElement).checked) : control.value
    return [row.querySelector('dt label')!.textContent!, shown, row.querySelector('[data-dsh-sessions-source]')!.textContent!]
  }))
}

export const settingsCard: Topic = {
  tests: group => describe('the settings card in the user\'s language', () => {
    const host = useTopic(group, { browser: false })

    // Two keys set in settings.yaml, through the route the card itself writes with; the topic puts them back after.
    beforeAll(async () => {
      const res = await fetch(`${host.stack.web.url}/dsh-sessions/settings`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ failureMode: 'reject', indexFreeSpaceMiB: 2048 }),
      })
      expect(res.status).toBe(200)
    })

    it('shows names, values and sources in English, every key editable', async () => {
      const browser = await host.open()
      try {
        await openApp(browser.page, host.stack.web.url)
        await openCard(browser.page, /^Expand: Session references$/)
        expect(await settingRows(browser.page)).toEqual([
          ['Resolve bare session ids', 'true', 'plugin default'],
          ['Resolve typed @Title mentions', 'true', 'plugin default'],
          ['Let the agent search sessions', 'true', 'plugin default'],
          ['Suggest related sessions while drafting', 'true', 'plugin default'],
          ['When a reference fails after sending', 'Reject the send', 'set here'],
          ['A new reference gives the model', 'The session\'s snapshot', 'plugin default'],
          ['Candidates per @ query', '50', 'plugin default'],
          ['Disk space the content index leaves free', '2048', 'set here'],
        ])
        const card = await browser.page.locator('[data-dsh-sessions-card]').innerText()
        expect(card).toContain('Saved to the dsh-sessions section of settings.yaml, and applied at once.')
        expect(card).not.toMatch(/allowBareSessionIds|allowPlainTitleMentions|candidateLimit|failureMode|agentTools|suggestRelated|referenceMode|indexFreeSpaceMiB|\btrue\b|\bfalse\b/)
        expect(browser.errors).toEqual([])
      } finally {
        await browser.close()
      }
    })

    it('shows names, values and sources in Chinese', async () => {
      const browser = await host.open({ locale: 'zh-CN' })
      try {
        await openApp(browser.page, host.stack.web.url)
        await openCard(browser.page, /^展开: 会话引用$/)
        expect(await settingRows(browser.page)).toEqual([
          ['解析裸会话 ID', 'true', '插件默认值'],
          ['解析手写的 @标题', 'true', '插件默认值'],
          ['允许智能体搜索会话', 'true', '插件默认值'],
          ['撰写时推荐相关会话', 'true', '插件默认值'],
          ['发送后引用失败时', '拒绝本次发送', '在此设置'],
          ['新引用给模型的内容', '会话快照', '插件默认值'],
          ['每次 @ 查询的候选上限', '50', '插件默认值'],
          ['内容索引为宿主留出的磁盘空间', '2048', '在此设置'],
        ])
        const card = await browser.page.locator('[data-dsh-sessions-card]').innerText()
        expect(card).toContain('保存后写入 settings.yaml 的 dsh-sessions 段，立即生效。')
        expect(card).not.toMatch(/allowBareSessionIds|candidateLimit|failureMode|agentTools|\btrue\b|\bfalse\b/)
      } finally {
        await browser.close()
      }
    })

    it('saves a key changed on the card to settings.yaml and applies it at once, and refuses a number the route refuses', async () => {
      const browser = await host.open()
      const file = join(host.stack.home.dshHome, 'settings.yaml')
      try {
        await openApp(browser.page, host.stack.web.url)
        await openCard(browser.page, /^Expand: Session references$/)
        const before = readFileSync(file)
        await browser.page.getByRole('spinbutton', { name: 'Candidates per @ query' }).fill('0')
        await browser.page.getByRole('button', { name: 'Save' }).click()
        await browser.page.getByRole('alert').filter({ hasText: '“Candidates per @ query” must be a whole number from 1 to 500.' }).waitFor()
        expect(readFileSync(file).equals(before)).toBe(true)
        await browser.page.getByRole('spinbutton', { name: 'Candidates per @ query' }).fill('50')
        await browser.page.getByRole('checkbox', { name: 'Let the agent search sessions' }).uncheck()
        await browser.page.getByRole('button', { name: 'Save' }).click()
        await browser.page.getByRole('status').filter({ hasText: 'Saved' }).waitFor()
        const settings = await (await fetch(`${host.stack.web.url}/dsh-sessions/settings`)).json() as { agentTools: boolean }
        expect(settings.agentTools).toBe(false)
        expect(readFileSync(file, 'utf8')).toMatch(/^ {2}agentTools: false$/m)
        expect(await settingRows(browser.page)).toContainEqual(['Let the agent search sessions', 'false', 'set here'])
      } finally {
        await browser.close()
      }
    })
  }),
}
