/**
 * Find in session in the real host: a stored session of 1,000 messages, one
 * word said near its start and once near its end. The person opens it, presses
 * the shortcut, types another form of the words, and steps with Enter: the
 * first step opens the conversation at a message the page had not drawn (some
 * twenty pages of history above the end), shows it in view with its words
 * highlighted, and says "1 of 2"; the next step goes to the late one, Shift+Enter
 * back; Escape closes the bar and leaves the view. The route's refusals are
 * checked on the same host.
 */
import { request } from 'node:http'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { hostDir } from '../../../dev/pinned-host.ts'
import { type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import { markedTexts } from '../harness/highlights.ts'
import { typeSidebarQuery } from '../harness/sidebar-query.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'
import { untilAsync } from '../harness/wait.ts'

const TURNS = 500
const TITLE = 'Heron ledger'
const EARLY = 'The CORMORANT gateway crashed twice last night'
const LATE = 'Yes, the cormorant gateway keeps crashing under load.'

let stored: StoredSession | undefined

function turns(): { user: string; reply: string }[] {
  return Array.from({ length: TURNS }, (_, n) => ({
    user: n === 1 ? EARLY : `Question ${n} about the ledger`,
    reply: n === TURNS - 20 ? LATE : `Answer ${n}: the ledger balances.`,
  }))
}

export const findInSession: Topic = {
  seed: async home => {
    [stored] = await writeSessionStore(hostDir(), home, [{ cwd: home.project('gamma'), title: TITLE, text: 'Question 0 about the ledger', turns: turns() }], { titleCache: false })
  },
  tests: group => describe('find in session', () => {
    const host = useTopic(group)

    beforeAll(async () => {
      await untilAsync(async () => ((await (await fetch(`${host.stack.web.url}/dsh-sessions/content-index`)).json()) as { ready: boolean }).ready, 'the content index built')
    })

    const bar = (page: Page) => page.locator('[data-dsh-sessions-find-bar]')
    const count = (page: Page) => bar(page).locator('[data-dsh-sessions-find-count]')
    const row = (page: Page, text: string) => page.locator('[data-chat-anchor-key]:visible').filter({ hasText: text }).first()
    const inView = (page: Page, text: string) => async () => (await row(page, text).count()) > 0 && row(page, text).evaluate(element => {
      const box = element.getBoundingClientRect()
      return box.top >= 0 && box.bottom <= window.innerHeight
    })

    it('finds every form of the words in the whole session and steps to a message the page had not drawn', async () => {
      const page = host.browser.page
      await typeSidebarQuery(page, 'heron ledger')
      await page.getByRole('tree', { name: 'Search results' }).getByRole('treeitem').filter({ hasText: TITLE }).first().click()
      const opener = page.locator('[data-dsh-sessions-find-open]:visible')
      await opener.waitFor({ timeout: 30_000 })
      await expect.poll(() => row(page, `Answer ${TURNS - 1}:`).count(), { timeout: 30_000 }).toBe(1)
      // Not drawn yet: the page holds the latest history only.
      expect(await row(page, EARLY).count()).toBe(0)

      await page.locator('body').press('Control+Shift+F')
      // One bar, the on-screen header's, though the page keeps other views mounted.
      await expect.poll(() => bar(page).count()).toBe(1)
      const input = bar(page).getByRole('searchbox')
      await expect.poll(() => input.evaluate(element => element === document.activeElement)).toBe(true)
      await input.fill('cormorant gateway crashes')
      await expect.poll(() => count(page).innerText(), { timeout: 15_000 }).toBe('2 matches')

      const started = Date.now()
      await input.press('Enter')
      await expect.poll(() => count(page).innerText()).toBe('1 of 2')
      // rc.8 loads older history 50 messages a page and draws every loaded row: a far step takes a page load per 50 messages.
      await expect.poll(inView(page, EARLY), { timeout: 60_000 }).toBe(true)
      console.log(`[e2e] find step to message 3 of ${TURNS * 2}: ${Date.now() - started} ms`)
      await expect.poll(() => markedTexts(row(page, EARLY), 'dsh-sessions-find')).toEqual([expect.stringContaining('The «CORMORANT» «gateway» «crashed» twice')])

      await input.press('Enter')
      await expect.poll(() => count(page).innerText()).toBe('2 of 2')
      await expect.poll(inView(page, LATE), { timeout: 30_000 }).toBe(true)
      await expect.poll(() => markedTexts(row(page, LATE), 'dsh-sessions-find')).toEqual([expect.stringContaining('the «cormorant» «gateway» keeps «crashing»')])

      await input.press('Shift+Enter')
      await expect.poll(() => count(page).innerText()).toBe('1 of 2')
      await expect.poll(inView(page, EARLY), { timeout: 30_000 }).toBe(true)

      await input.press('Escape')
      await expect.poll(() => bar(page).count()).toBe(0)
      expect(await markedTexts(row(page, EARLY), 'dsh-sessions-find')).toEqual([expect.not.stringContaining('«')])
      expect(await inView(page, EARLY)()).toBe(true)
    })

    it('says so when nothing matches, and refuses what is not a find', async () => {
      const page = host.browser.page
      await page.locator('[data-dsh-sessions-find-open]:visible').click()
      await bar(page).getByRole('searchbox').fill('quetzal')
      await expect.poll(() => count(page).innerText(), { timeout: 15_000 }).toBe('No matches')
      await bar(page).getByRole('searchbox').press('Escape')

      const ask = async (body: unknown) => {
        const res = await fetch(`${host.stack.web.url}/dsh-sessions/find`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        return [res.status, ((await res.json()) as { error?: { code: string } }).error?.code ?? 'ok'] as const
      }
      expect(await ask({ sessionId: stored!.id, query: 'cormorant', after: 3 })).toEqual([200, 'ok'])
      expect(await ask({ query: 'cormorant' })).toEqual([400, 'bad-request'])
      expect(await ask({ sessionId: stored!.id, query: 'x'.repeat(257) })).toEqual([400, 'bad-request'])
      expect(await ask({ sessionId: stored!.id, query: 'cormorant', after: -1 })).toEqual([400, 'bad-request'])
      expect(await ask({ sessionId: 'session-nowhere', query: 'cormorant' })).toEqual([404, 'not-found'])
      expect(await ask({ sessionId: stored!.id, query: '\u0000\u0007"' })).toEqual([200, 'ok'])
      // Behind the host's trust fence, as every route: a page of another origin is refused before its body is read.
      const { port } = new URL(host.stack.web.url)
      const fenced = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/dsh-sessions/find', method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://evil.example' } }, res => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.end(JSON.stringify({ sessionId: stored!.id, query: 'cormorant' }))
      })
      expect(fenced).toBe(403)
    })
  }),
}
