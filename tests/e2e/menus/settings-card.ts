/**
 * The Session references card in the real host names its read-only settings
 * and their values in the UI language, and says for each whether it comes
 * from the plugin row config or from settings.yaml (here `failureMode`,
 * written into the file before boot), in English and in Chinese.
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { openApp } from '../../../dev/web-ui.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'

/** Opens Settings → Plugins → Plugin configuration, expands the card and reads each read-only setting as [name, value, source]. */
async function readOnlySettings(page: Page, expandLabel: RegExp): Promise<string[][]> {
  await page.locator('aside, nav, body').getByRole('button', { name: /^(Settings|设置)$/ }).last().click()
  await page.getByRole('button', { name: /^(Plugins|插件)$/ }).click()
  await page.getByRole('tab', { name: /Plugin configuration|插件配置/ }).click()
  await page.getByRole('button', { name: expandLabel }).click()
  await page.locator('[data-dsh-sessions-setting]').first().waitFor()
  return page.locator('[data-dsh-sessions-setting]').evaluateAll(rows => rows.map(row => [
    row.querySelector('dt')!.textContent!,
    ...[...row.querySelectorAll('dd > span')].map(span => span.textContent!),
  ]))
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

    it('shows names, values and sources in English', async () => {
      const browser = await host.open()
      try {
        await openApp(browser.page, host.stack.web.url)
        expect(await readOnlySettings(browser.page, /^Expand: Session references$/)).toEqual([
          ['Resolve bare session ids', 'On', 'row config'],
          ['Resolve typed @Title mentions', 'On', 'row config'],
          ['Candidates per @ query', '50', 'row config'],
          ['When a reference fails after sending', 'Reject the send', 'settings.yaml'],
          ['Let the agent search sessions', 'On', 'row config'],
          ['Disk space the content index leaves free', '2048 MiB', 'settings.yaml'],
        ])
        const card = await browser.page.locator('[data-dsh-sessions-card]').innerText()
        expect(card).toContain('unless the dsh-sessions section of settings.yaml sets the key')
        expect(card).not.toMatch(/allowBareSessionIds|allowPlainTitleMentions|candidateLimit|failureMode|agentTools|indexFreeSpaceMiB|\btrue\b|\bfalse\b/)
        expect(browser.errors).toEqual([])
      } finally {
        await browser.close()
      }
    })

    it('shows names, values and sources in Chinese', async () => {
      const browser = await host.open({ locale: 'zh-CN' })
      try {
        await openApp(browser.page, host.stack.web.url)
        expect(await readOnlySettings(browser.page, /^展开: 会话引用$/)).toEqual([
          ['解析裸会话 ID', '开启', '插件行配置'],
          ['解析手写的 @标题', '开启', '插件行配置'],
          ['每次 @ 查询的候选上限', '50', '插件行配置'],
          ['发送后引用失败时', '拒绝本次发送', 'settings.yaml'],
          ['允许智能体搜索会话', '开启', '插件行配置'],
          ['内容索引为主机留出的磁盘空间', '2048 MiB', 'settings.yaml'],
        ])
        const card = await browser.page.locator('[data-dsh-sessions-card]').innerText()
        expect(card).toContain('settings.yaml 的 dsh-sessions 段设置了的键以该文件为准')
        expect(card).not.toMatch(/allowBareSessionIds|candidateLimit|failureMode|agentTools|\btrue\b|\bfalse\b/)
      } finally {
        await browser.close()
      }
    })
  }),
}
