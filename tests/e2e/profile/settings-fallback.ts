/**
 * An invalid `dsh-sessions:` section in settings.yaml (a hand edit) must not
 * break the boot: the web UI comes up with the plugin applied, the plugin
 * runs on its row configuration, and a write through the route is refused
 * with a clear message instead of failing.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { installApplyProbe, readProbe } from '../../../dev/apply-probe.ts'
import { PLUGIN } from '../../../dev/stack.ts'
import { openApp } from '../../../dev/web-ui.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'

export const settingsFallback: Topic = {
  seed: home => {
    appendFileSync(join(home.dshHome, 'settings.yaml'), 'dsh-sessions:\n  scope: galaxy\n')
    return Promise.resolve()
  },
  tests: group => describe('an invalid stored settings section', () => {
    const host = useTopic(group, { browser: false })

    it('boots the web UI with the plugin applied and falls back to the row configuration', async () => {
      const browser = await host.open()
      try {
        await installApplyProbe(browser.context, PLUGIN, 'dsh-sessions')
        await openApp(browser.page, host.stack.web.url)
        expect(await readProbe(browser.page)).toEqual({ applied: 1 })
        expect(browser.errors).toEqual([])
      } finally {
        await browser.close()
      }
      const settings = await (await fetch(`${host.stack.web.url}/dsh-sessions/settings`)).json()
      expect(settings).toMatchObject({ scope: 'workspace', failureMode: 'passthrough' })
    })

    it('refuses a write with a clear 409 and leaves the file alone', async () => {
      const file = join(host.stack.home.dshHome, 'settings.yaml')
      const before = readFileSync(file)
      const res = await fetch(`${host.stack.web.url}/dsh-sessions/settings`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scope: 'all' }),
      })
      expect(res.status).toBe(409)
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/not written.*dsh-sessions/)
      expect(readFileSync(file).equals(before)).toBe(true)
    })
  }),
}
