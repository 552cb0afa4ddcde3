/**
 * `dsh plugin --profile web remove` takes the plugin out of the profile and
 * leaves a profile that boots to a working page without it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dshPlugin, dumpConfig } from '../../../dev/dsh-process.ts'
import { PLUGIN } from '../../../dev/stack.ts'
import { report } from '../../../dev/timing.ts'
import { openApp, startSessionWithTurn } from '../../../dev/web-ui.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'

export const remove: Topic = {
  tests: group => describe('removing the plugin', () => {
    const host = useTopic(group, { browser: false })

    it('leaves a web profile that boots without the plugin row or bundle', async () => {
      await host.stack.web.stop()
      dshPlugin(host.stack.options, ['remove', PLUGIN])
      const profile = JSON.parse(readFileSync(join(host.stack.home.dshHome, 'profiles', 'web', 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>
        dsh: { profile: { bundles: string[] } }
      }
      expect(profile.dependencies?.[PLUGIN]).toBeUndefined()
      expect(profile.dsh.profile.bundles).toEqual(['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-web-app'])
      expect(dumpConfig(host.stack.options)).not.toMatch(/session-bridge|@wishp3\/dsh-sessions/)

      const web = await host.stack.restart()
      report('dsh web boot after remove', web.bootMs)
      const browser = await host.open()
      try {
        await openApp(browser.page, web.url)
        const entries = await browser.page.evaluate(() =>
          (window as unknown as { __DSH_BOOT__: { entries: { id: string }[] } }).__DSH_BOOT__.entries.map(entry => entry.id))
        expect(entries).not.toContain(PLUGIN)
        expect(entries).toContain('@deepseek-ai/dsh-client-ui-workspace')
        await startSessionWithTurn(browser.page, 'beta', 'Hello after removal')
        expect(browser.errors).toEqual([])
      } finally {
        await browser.close()
      }
    })
  }),
}
