/**
 * The plugin installed from its tarball boots in the real dsh 0.1.0-rc.8 web
 * profile: one `session-bridge` row, no second `session-reference`, the
 * browser half applied with its dictionaries, and the built-in sidebar,
 * composer and `@` menu still working.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { dumpConfig } from '../../../dev/dsh-process.ts'
import { installApplyProbe, readProbe, translateInPage } from '../../../dev/apply-probe.ts'
import { PLUGIN } from '../../../dev/stack.ts'
import { report } from '../../../dev/timing.ts'
import { composer, openApp, startNewSession, startSessionWithTurn } from '../../../dev/web-ui.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'

interface BootEntry { id: string; url: string }

export const boot: Topic = {
  tests: group => describe('dsh web with the plugin installed from its tarball', () => {
    const host = useTopic(group, {
      browser: { open: false, prepare: launched => installApplyProbe(launched.context, PLUGIN, 'dsh-sessions') },
    })

    beforeAll(() => {
      report('dsh web boot with the plugin', host.stack.web.bootMs)
    })

    it('adds the plugin to the web profile as a bundle with one session-bridge row and no second session-reference', () => {
      const profile = JSON.parse(readFileSync(join(host.stack.home.dshHome, 'profiles', 'web', 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>
        dsh: { profile: { bundles: string[] } }
      }
      expect(profile.dependencies[PLUGIN]).toMatch(/^file:.*\.tgz$/)
      expect(profile.dsh.profile.bundles).toEqual(['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-web-app', PLUGIN])
      const config = dumpConfig(host.stack.options)
      expect(config.match(/^\s*- id: session-bridge$/gm)).toHaveLength(1)
      expect(config.match(/^\s*- id: session-reference$/gm)).toHaveLength(1)
      expect(config).toMatch(/- id: session-bridge\n\s+name: '@wishp3\/dsh-sessions'/)
    })

    it('boots the page with the browser half applied and its zh and en dictionaries registered', async () => {
      const { page } = host.browser
      const interactive = await openApp(page, host.stack.web.url)
      report('page interactive', interactive)
      const entries = await page.evaluate(() => (window as unknown as { __DSH_BOOT__: { entries: BootEntry[] } }).__DSH_BOOT__.entries)
      const own = entries.find(entry => entry.id === PLUGIN)
      expect(own?.url).toMatch(/^\/plugins\/@wishp3\/dsh-sessions\/client\.js\?rev=/)
      expect(entries.map(entry => entry.id)).not.toContain('@deepseek-ai/dsh-client-ui-workspace')
      expect(entries.map(entry => entry.id)).not.toContain('@deepseek-ai/dsh-client-ui-reference')
      expect(await readProbe(page)).toEqual({ applied: 1 })
      expect(await translateInPage(page, 'quote.add')).toBe('Add to chat')
      expect(await translateInPage(page, 'copy.id')).toBe('Copy session ID')
      expect(host.browser.errors).toEqual([])
      expect(host.stack.web.output()).not.toMatch(/failed to load|boot failed|Error:/i)

      const zh = await host.open({ locale: 'zh-CN' })
      try {
        await installApplyProbe(zh.context, PLUGIN, 'dsh-sessions')
        await openApp(zh.page, host.stack.web.url)
        expect(await readProbe(zh.page)).toEqual({ applied: 1 })
        expect(await translateInPage(zh.page, 'quote.add')).toBe('添加到对话')
        expect(await translateInPage(zh.page, 'copy.id')).toBe('复制会话 ID')
      } finally {
        await zh.close()
      }
    })

    it('keeps the built-in sidebar, composer and @ menu working', async () => {
      const { page } = host.browser
      await startSessionWithTurn(page, 'alpha', 'Summarise the alpha readme')
      const row = page.getByRole('button', { name: 'Session actions for Title Summarise the alpha readme', includeHidden: true })
      await row.waitFor({ state: 'attached' })
      expect(host.stack.model.turns().at(-1)?.reply).toBe('Stand-in reply #1. You said: Summarise the alpha readme')

      await startNewSession(page)
      const input = composer(page)
      await input.fill('Please compare @')
      const menu = page.getByRole('listbox')
      await menu.getByRole('option', { name: /File · README\.md/ }).waitFor()
      await menu.getByRole('option', { name: /Title Summarise the alpha readme/ }).waitFor({ timeout: 15_000 })
      expect(await menu.getByRole('option', { name: /Title Summarise the alpha readme/ }).count()).toBe(1)
      await input.fill('Please compare @READ')
      await menu.getByRole('option', { name: /File · README\.md/ }).waitFor()
      await input.press('Enter')
      await expect.poll(() => input.inputValue()).toBe('Please compare @README.md ')
      expect(host.browser.errors).toEqual([])
    })

    it('lists the plugin as enabled in Settings → Plugins', async () => {
      const { page } = host.browser
      await page.getByRole('button', { name: 'Settings' }).click()
      await page.getByRole('button', { name: 'Plugins' }).click()
      await page.getByText('Plugin list').click()
      await page.getByPlaceholder('Search plugins').fill('sessions')
      await expect.poll(() => page.getByRole('dialog').innerText()).toMatch(/Plugin list\s*1\s*sessions\s*Enabled/)
    })
  }),
}
