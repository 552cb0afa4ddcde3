/**
 * "Copy reference" in the real host: the session row menu item copies the
 * session's canonical mention, exactly what the official
 * `formatSessionReferenceMention` makes of its id and title, and shows its
 * own toast beside the row; pasted into a composer of the same workspace the
 * mention reaches the model as `@Title` followed by the session's snapshot,
 * like a chip; pasted into another workspace's composer it stays readable
 * text without a snapshot. The session header carries both copy actions, so
 * they work without the sidebar. A failed lookup shows the failure toast.
 * The same in Chinese.
 */
import { formatSessionReferenceMention } from '@deepseek-ai/dsh-session-reference'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { hostDir } from '../../../dev/pinned-host.ts'
import { citation } from '../harness/requests.ts'
import type { Stack } from '../../../dev/stack.ts'
import { type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import { chooseWorkspace, composer, openApp, startNewSession } from '../../../dev/web-ui.ts'
import { untilAsync as until } from '../harness/wait.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'
import { openRowMenu, rowOf } from '../harness/session-rows.ts'

const ALPHA_TITLE = 'Winter pears'
const ALPHA_TEXT = 'Pears need a cold winter'
const BETA_TITLE = 'Beta numbers'

const mentionOf = (session: StoredSession) => formatSessionReferenceMention({ sessionId: session.id as never, label: session.title })
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

async function sendAndCite(stack: Stack, page: Page, text: string, marker: string): Promise<ReturnType<typeof citation>> {
  const before = stack.model.turns().length
  await composer(page).fill(text)
  await page.getByRole('button', { name: /^(Send message|发送消息)$/ }).click()
  await expect.poll(() => stack.model.turns().length, { timeout: 30_000 }).toBe(before + 1)
  return citation(stack.model.turns().at(-1)!, marker)
}

let alpha: StoredSession
let beta: StoredSession

export const copyReference: Topic = {
  seed: async home => {
    // Beta first: the sidebar opens the workspace of the newest session, alpha.
    [beta, alpha] = await writeSessionStore(hostDir(), home, [
      { cwd: home.project('beta'), title: BETA_TITLE, text: 'Numbers for beta' },
      { cwd: home.project('alpha'), title: ALPHA_TITLE, text: ALPHA_TEXT },
    ]) as [StoredSession, StoredSession]
  },
  tests: group => describe('Copy reference in the row menu and the session header', () => {
    const host = useTopic(group, { browser: false })

    beforeAll(async () => {
      // Wait until the plugin's index has listed the stored sessions (2 s after its start, or at the first request).
      await until(async () => {
        const res = await fetch(`${host.stack.web.url}/dsh-sessions/mention`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sourceId: alpha.id }),
        })
        return res.ok && (await res.json() as { label: string }).label === ALPHA_TITLE
      }, 'titles in the host cache')
    })

    it('copies the canonical mention from the row menu, with its own toast beside the row', async () => {
      const browser = await host.open()
      try {
        const page = browser.page
        await openApp(page, host.stack.web.url)
        expect((await openRowMenu(page, ALPHA_TITLE)).slice(-2)).toEqual(['Copy session ID', 'Copy reference'])
        await page.getByRole('menuitem', { name: 'Copy reference' }).click()
        await page.getByRole('status').filter({ hasText: 'Reference copied' }).waitFor()
        expect(await clipboard(page)).toBe(mentionOf(alpha))
        const row = (await rowOf(page, ALPHA_TITLE).boundingBox())!
        const toast = (await page.locator('[data-dsh-sessions-toast="done"]').boundingBox())!
        expect(Math.abs((toast.y + toast.height / 2) - (row.y + row.height / 2))).toBeLessThanOrEqual(2)
        expect(toast.x).toBeGreaterThanOrEqual(row.x + row.width)

        // The sidebar lists a workspace's sessions once the workspace is opened. The first toast may
        // still show (each replaces the one before): the clipboard tells the second copy apart.
        await startNewSession(page)
        await chooseWorkspace(page, 'beta')
        await openRowMenu(page, BETA_TITLE)
        await page.getByRole('menuitem', { name: 'Copy reference' }).click()
        await expect.poll(() => clipboard(page)).toBe(mentionOf(beta))
        await page.getByRole('status').filter({ hasText: 'Reference copied' }).waitFor()
        expect(browser.errors).toEqual([])
      } finally {
        await browser.close()
      }
    })

    it('resolves a pasted reference like a chip in the same workspace, and not outside it', async () => {
      const browser = await host.open()
      try {
        const page = browser.page
        await openApp(page, host.stack.web.url)
        await startNewSession(page)
        await chooseWorkspace(page, 'alpha')
        const inScope = await sendAndCite(host.stack, page, `paste marker ${mentionOf(alpha)} what do pears need?`, 'paste marker')
        expect(inScope.direct).toBe(`paste marker @${ALPHA_TITLE} what do pears need?`)
        expect(inScope.following).toContain(ALPHA_TEXT)
        expect(inScope.snapshots).toBe(1)

        await page.getByText(/You said: paste marker/).first().waitFor({ timeout: 30_000 })
        const outside = await sendAndCite(host.stack, page, `outside marker ${mentionOf(beta)}`, 'outside marker')
        expect(outside.direct).toBe(`outside marker @${BETA_TITLE}`)
        expect(outside.following).toBeUndefined()
      } finally {
        await browser.close()
      }
    })

    it('copies the id and the reference from the session header, with the toast below the button', async () => {
      const browser = await host.open()
      try {
        const page = browser.page
        await openApp(page, host.stack.web.url)
        await rowOf(page, ALPHA_TITLE).click()
        const header = page.locator('[data-dsh-sessions-header-copy]')
        await header.waitFor()
        const idButton = header.getByRole('button', { name: 'Copy session ID' })
        await idButton.click()
        await page.getByRole('status').filter({ hasText: 'Session ID copied' }).waitFor()
        expect(await clipboard(page)).toBe(alpha.id)
        const button = (await idButton.boundingBox())!
        const toast = (await page.locator('[data-dsh-sessions-toast="done"]').boundingBox())!
        expect(toast.y).toBeGreaterThanOrEqual(button.y + button.height)
        expect(toast.x).toBeLessThanOrEqual(button.x + button.width / 2)
        expect(toast.x + toast.width).toBeGreaterThanOrEqual(button.x + button.width / 2)

        // The next toast replaces this one; its own text tells it apart.
        await header.getByRole('button', { name: 'Copy reference' }).click()
        await page.getByRole('status').filter({ hasText: 'Reference copied' }).waitFor()
        expect(await clipboard(page)).toBe(mentionOf(alpha))
      } finally {
        await browser.close()
      }
    })

    it('shows the failure toast when the host cannot give the reference', async () => {
      const browser = await host.open()
      try {
        const page = browser.page
        await page.route('**/dsh-sessions/mention', route => route.abort())
        await openApp(page, host.stack.web.url)
        await openRowMenu(page, ALPHA_TITLE)
        await page.evaluate(() => navigator.clipboard.writeText('untouched'))
        await page.getByRole('menuitem', { name: 'Copy reference' }).click()
        await page.getByRole('status').filter({ hasText: 'Could not copy the reference' }).waitFor()
        expect(await page.locator('[data-dsh-sessions-toast="failed"]').count()).toBe(1)
        expect(await clipboard(page)).toBe('untouched')
      } finally {
        await browser.close()
      }
    })

    it('speaks Chinese with the UI in Chinese', async () => {
      const browser = await host.open({ locale: 'zh-CN' })
      try {
        const page = browser.page
        await openApp(page, host.stack.web.url)
        expect((await openRowMenu(page, ALPHA_TITLE, `会话“${ALPHA_TITLE}”的操作`)).slice(-2)).toEqual(['复制会话 ID', '复制引用'])
        await page.getByRole('menuitem', { name: '复制引用' }).click()
        await page.getByRole('status').filter({ hasText: '已复制引用' }).waitFor()
        expect(await clipboard(page)).toBe(mentionOf(alpha))

        await rowOf(page, ALPHA_TITLE).click()
        const header = page.locator('[data-dsh-sessions-header-copy]')
        await header.waitFor()
        expect(await header.getByRole('button').evaluateAll(buttons => buttons.map(button => button.getAttribute('aria-label')))).toEqual(['复制会话 ID', '复制引用'])
        await page.locator('[data-dsh-sessions-toast]').waitFor({ state: 'detached', timeout: 8_000 })
        await header.getByRole('button', { name: '复制会话 ID' }).click()
        await page.getByRole('status').filter({ hasText: '已复制会话 ID' }).waitFor()
        expect(await clipboard(page)).toBe(alpha.id)
      } finally {
        await browser.close()
      }
    })
  }),
}
