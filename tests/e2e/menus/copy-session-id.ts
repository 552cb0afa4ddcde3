/**
 * "Copy session ID" in the session row menu of the vendored workspace
 * browser, in the real host: present on every non-blank row after the
 * built-in items, absent on the blank New Session row; it puts the exact id
 * on the clipboard and shows a `role="status"` toast beside the row it came
 * from (to its right, vertically centred on it, clear of its title), for
 * the top row and for a lower one, gone after 4 s; with both clipboard paths
 * failing the failure toast shows; Chinese strings.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { hostDir } from '../../../dev/pinned-host.ts'
import { type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import { openApp, startNewSession } from '../../../dev/web-ui.ts'
import { untilAsync as until } from '../harness/wait.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'
import { openRowMenu, rowOf, toastBeside } from '../harness/session-rows.ts'

let sessions: StoredSession[]

export const copySessionId: Topic = {
  seed: async home => {
    sessions = await writeSessionStore(hostDir(), home, [
      { cwd: home.project('alpha'), title: 'Orchard plans', text: 'pears' },
      { cwd: home.project('alpha'), title: 'Budget review', text: 'numbers' },
    ])
  },
  tests: group => describe('Copy session ID in the session row menu', () => {
    const host = useTopic(group, { browser: false })

    beforeAll(async () => {
      // Wait until the plugin's index has listed the stored sessions (2 s after its start, or at the first request).
      await until(async () => {
        const res = await fetch(`${host.stack.web.url}/dsh-sessions/candidates`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ citingSessionId: sessions[1]!.id }),
        })
        const { candidates } = await res.json() as { candidates: { label: string }[] }
        return candidates.some(candidate => candidate.label === 'Orchard plans')
      }, 'titles in the host cache')
    })

    it('copies the exact id and shows a status toast beside its row for 4 s', async () => {
      const browser = await host.open()
      try {
        const page = browser.page
        await openApp(page, host.stack.web.url)
        const items = await openRowMenu(page, 'Orchard plans')
        expect(items).toEqual(['Rename', 'Fork session', 'Archive session', 'Copy session ID', 'Copy reference'])
        // The toast's lifetime is measured in the page, from its appearance to its removal, so the
        // test's own round trips (slow on a loaded machine) are not in the figure.
        await page.evaluate(() => {
          const measured = new Promise<number>(resolve => {
            let shownAt: number | undefined
            const observer = new MutationObserver(() => {
              const present = document.querySelector('[data-dsh-sessions-toast="done"]') !== null
              if (present && shownAt === undefined) shownAt = performance.now()
              if (!present && shownAt !== undefined) {
                observer.disconnect()
                resolve(performance.now() - shownAt)
              }
            })
            observer.observe(document.body, { childList: true, subtree: true })
          })
          Reflect.set(window, 'dshSessionsToastLifetime', measured)
        })
        await page.getByRole('menuitem', { name: 'Copy session ID' }).click()
        await page.getByRole('status').filter({ hasText: 'Session ID copied' }).waitFor()
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sessions[0]!.id)
        const beside = await toastBeside(page, 'Orchard plans')
        expect(beside.centreOffset).toBeLessThanOrEqual(2)
        expect(beside.gapToRow).toBeGreaterThanOrEqual(0)
        expect(beside.overlapsTitle).toBe(false)
        const lifetime = await page.evaluate(() => Reflect.get(window, 'dshSessionsToastLifetime') as Promise<number>)
        expect(lifetime).toBeGreaterThan(3_500)
        expect(lifetime).toBeLessThan(5_500)
        expect(browser.errors).toEqual([])
      } finally {
        await browser.close()
      }
    })

    it('puts the toast at the height of whichever row it came from', async () => {
      const browser = await host.open()
      try {
        const page = browser.page
        await openApp(page, host.stack.web.url)
        const heights: number[] = []
        for (const title of ['Budget review', 'Orchard plans']) {
          await openRowMenu(page, title)
          await page.getByRole('menuitem', { name: 'Copy session ID' }).click()
          // Each toast replaces the one before, so the second may follow the first at once: the
          // clipboard and the toast's place tell them apart.
          await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(sessions.find(session => session.title === title)!.id)
          await page.getByRole('status').filter({ hasText: 'Session ID copied' }).waitFor()
          await expect.poll(async () => (await toastBeside(page, title)).centreOffset, { message: title }).toBeLessThanOrEqual(2)
          expect((await toastBeside(page, title)).overlapsTitle, title).toBe(false)
          heights.push((await page.locator('[data-dsh-sessions-toast]').boundingBox())!.y)
        }
        expect(heights[0]).not.toBe(heights[1])
      } finally {
        await browser.close()
      }
    })

    it('offers no menu on the blank New Session row', async () => {
      const browser = await host.open()
      try {
        const page = browser.page
        await openApp(page, host.stack.web.url)
        await startNewSession(page)
        const blank = rowOf(page, 'New Session')
        await blank.waitFor()
        expect(await blank.getByRole('button', { includeHidden: true }).count()).toBe(0)
      } finally {
        await browser.close()
      }
    })

    it('shows the failure toast when both clipboard paths refuse', async () => {
      const browser = await host.open()
      try {
        const page = browser.page
        await browser.context.addInitScript(() => {
          document.execCommand = () => false
          Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } })
        })
        await openApp(page, host.stack.web.url)
        await openRowMenu(page, 'Budget review')
        await page.getByRole('menuitem', { name: 'Copy session ID' }).click()
        await page.getByRole('status').filter({ hasText: 'Could not copy the session ID' }).waitFor()
        expect(await page.locator('[data-dsh-sessions-toast="failed"]').count()).toBe(1)
      } finally {
        await browser.close()
      }
    })

    it('speaks Chinese with the UI in Chinese', async () => {
      const browser = await host.open({ locale: 'zh-CN' })
      try {
        const page = browser.page
        await openApp(page, host.stack.web.url)
        const items = await openRowMenu(page, 'Orchard plans', '会话“Orchard plans”的操作')
        expect(items.slice(-2)).toEqual(['复制会话 ID', '复制引用'])
        await page.getByRole('menuitem', { name: '复制会话 ID' }).click()
        await page.getByRole('status').filter({ hasText: '已复制会话 ID' }).waitFor()
        expect((await toastBeside(page, 'Orchard plans')).centreOffset).toBeLessThanOrEqual(2)
      } finally {
        await browser.close()
      }
    })
  }),
}
