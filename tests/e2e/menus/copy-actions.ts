/**
 * The two copy actions in the real host, "Copy session ID" and "Copy reference", each run through the
 * same steps: in the session row menu after the built-in items, it puts exactly its text on the
 * clipboard (the id; the canonical mention `formatSessionReferenceMention` makes of the id and title)
 * and shows a `role="status"` toast beside the row it came from; when it cannot copy, the failure
 * toast shows; in Chinese, its own words. Then what each does alone: the id's toast lasts 4 s at the
 * height of its row, the blank New Session row has no menu; a pasted reference reaches the model as
 * `@Title` and the session's snapshot in the same workspace, and stays text outside it; the session
 * header carries both actions.
 */
import { formatSessionReferenceMention } from '@deepseek-ai/dsh-session-reference'
import type { Page } from 'playwright-core'
import type { Browser } from '../../../dev/browser.ts'
import { beforeAll, describe, expect, it } from 'vitest'
import { hostDir } from '../../../dev/pinned-host.ts'
import type { Stack } from '../../../dev/stack.ts'
import { type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import { chooseWorkspace, composer, openApp, startNewSession } from '../../../dev/web-ui.ts'
import { citation } from '../harness/requests.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'
import { openRowMenu, rowOf, toastBeside } from '../harness/session-rows.ts'
import { untilAsync as until } from '../harness/wait.ts'

const ALPHA_TITLE = 'Winter pears'
const ALPHA_TEXT = 'Pears need a cold winter'
const BETA_TITLE = 'Beta numbers'

let alpha: StoredSession
let beta: StoredSession
let orchard: StoredSession
let budget: StoredSession

const mentionOf = (session: StoredSession) => formatSessionReferenceMention({ sessionId: session.id as never, label: session.title })
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

/** One copy action, as the person meets it in each language, and how a test makes it fail. */
interface CopyAction {
  readonly name: string
  readonly item: { readonly en: string; readonly zh: string }
  readonly copied: { readonly en: string; readonly zh: string }
  readonly failed: string
  /** The row it is tried on, and the text it must copy from that row's session. */
  readonly row: () => StoredSession
  readonly text: (session: StoredSession) => string
  /** Makes the action fail in this page, before the app opens. */
  refuse(browser: Browser): Promise<void>
  /** Whether the page can still read the clipboard once the action is refused (to see it left alone). */
  readonly readable: boolean
}

const ACTIONS: readonly CopyAction[] = [
  {
    name: 'Copy session ID',
    item: { en: 'Copy session ID', zh: '复制会话 ID' },
    copied: { en: 'Session ID copied', zh: '已复制会话 ID' },
    failed: 'Could not copy the session ID',
    row: () => orchard,
    text: session => session.id,
    // Both clipboard paths refuse.
    refuse: async ({ context }) => {
      await context.addInitScript(() => {
        document.execCommand = () => false
        Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } })
      })
    },
    readable: false,
  },
  {
    name: 'Copy reference',
    item: { en: 'Copy reference', zh: '复制引用' },
    copied: { en: 'Reference copied', zh: '已复制引用' },
    failed: 'Could not copy the reference',
    row: () => alpha,
    text: mentionOf,
    // The host cannot give the reference.
    refuse: async ({ page }) => { await page.route('**/dsh-sessions/mention', route => route.abort()) },
    readable: true,
  },
]

async function sendAndCite(stack: Stack, page: Page, text: string, marker: string): Promise<ReturnType<typeof citation>> {
  const before = stack.model.turns().length
  await composer(page).fill(text)
  await page.getByRole('button', { name: /^(Send message|发送消息)$/ }).click()
  await expect.poll(() => stack.model.turns().length, { timeout: 30_000 }).toBe(before + 1)
  return citation(stack.model.turns().at(-1)!, marker)
}

export const copyActions: Topic = {
  seed: async home => {
    // Beta first: the sidebar opens the workspace of the newest session, in alpha.
    [beta, alpha, orchard, budget] = await writeSessionStore(hostDir(), home, [
      { cwd: home.project('beta'), title: BETA_TITLE, text: 'Numbers for beta' },
      { cwd: home.project('alpha'), title: ALPHA_TITLE, text: ALPHA_TEXT },
      { cwd: home.project('alpha'), title: 'Orchard plans', text: 'pears' },
      { cwd: home.project('alpha'), title: 'Budget review', text: 'numbers' },
    ]) as [StoredSession, StoredSession, StoredSession, StoredSession]
  },
  tests: group => describe('Copy session ID and Copy reference, in the row menu and the session header', () => {
    const host = useTopic(group, { browser: false })

    /** Runs `steps` on a fresh page of the app (in Chinese when asked), `before` set up ahead of its opening; the page is closed after. */
    const onApp = async (steps: (page: Page, browser: Browser) => Promise<void>, options: { readonly locale?: string; readonly before?: (browser: Browser) => Promise<void> } = {}): Promise<void> => {
      const browser = await host.open(options.locale === undefined ? {} : { locale: options.locale })
      try {
        await options.before?.(browser)
        await openApp(browser.page, host.stack.web.url)
        await steps(browser.page, browser)
      } finally {
        await browser.close()
      }
    }

    beforeAll(async () => {
      // Wait until the plugin's session catalog has listed the stored sessions (at its first request at the latest).
      await until(async () => {
        const res = await fetch(`${host.stack.web.url}/dsh-sessions/mention`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sourceId: alpha.id }),
        })
        return res.ok && (await res.json() as { label: string }).label === ALPHA_TITLE
      }, 'titles in the host cache')
    })

    it.each(ACTIONS)('$name copies its text from the row menu, after the built-in items, with a status toast beside the row', async action => {
      await onApp(async (page, browser) => {
        const title = action.row().title
        expect(await openRowMenu(page, title)).toEqual(['Rename', 'Fork session', 'Archive session', 'Copy session ID', 'Copy reference'])
        await page.getByRole('menuitem', { name: action.item.en }).click()
        await page.getByRole('status').filter({ hasText: action.copied.en }).waitFor()
        expect(await clipboard(page)).toBe(action.text(action.row()))
        const beside = await toastBeside(page, title)
        expect(beside.centreOffset).toBeLessThanOrEqual(2)
        expect(beside.gapToRow).toBeGreaterThanOrEqual(0)
        expect(beside.overlapsTitle).toBe(false)
        expect(browser.errors).toEqual([])
      })
    })

    it.each(ACTIONS)('$name shows the failure toast and leaves the clipboard alone when it cannot copy', async action => {
      await onApp(async page => {
        await openRowMenu(page, action.row().title)
        if (action.readable) await page.evaluate(() => navigator.clipboard.writeText('untouched'))
        await page.getByRole('menuitem', { name: action.item.en }).click()
        await page.getByRole('status').filter({ hasText: action.failed }).waitFor()
        expect(await page.locator('[data-dsh-sessions-toast="failed"]').count()).toBe(1)
        if (action.readable) expect(await clipboard(page)).toBe('untouched')
      }, { before: action.refuse })
    })

    it.each(ACTIONS)('$name speaks Chinese with the UI in Chinese', async action => {
      await onApp(async page => {
        const title = action.row().title
        expect((await openRowMenu(page, title, `会话“${title}”的操作`)).slice(-2)).toEqual(['复制会话 ID', '复制引用'])
        await page.getByRole('menuitem', { name: action.item.zh }).click()
        await page.getByRole('status').filter({ hasText: action.copied.zh }).waitFor()
        expect(await clipboard(page)).toBe(action.text(action.row()))
        expect((await toastBeside(page, title)).centreOffset).toBeLessThanOrEqual(2)
      }, { locale: 'zh-CN' })
    })

    it('keeps the id\'s toast 4 s', async () => {
      await onApp(async page => {
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
        await openRowMenu(page, orchard.title)
        await page.getByRole('menuitem', { name: 'Copy session ID' }).click()
        const lifetime = await page.evaluate(() => Reflect.get(window, 'dshSessionsToastLifetime') as Promise<number>)
        expect(lifetime).toBeGreaterThan(3_500)
        expect(lifetime).toBeLessThan(5_500)
      })
    })

    it('puts the id\'s toast at the height of whichever row it came from', async () => {
      await onApp(async page => {
        const heights: number[] = []
        for (const session of [budget, orchard]) {
          await openRowMenu(page, session.title)
          await page.getByRole('menuitem', { name: 'Copy session ID' }).click()
          // Each toast replaces the one before, so the second may follow the first at once: the
          // clipboard and the toast's place tell them apart.
          await expect.poll(() => clipboard(page)).toBe(session.id)
          await page.getByRole('status').filter({ hasText: 'Session ID copied' }).waitFor()
          await expect.poll(async () => (await toastBeside(page, session.title)).centreOffset, { message: session.title }).toBeLessThanOrEqual(2)
          expect((await toastBeside(page, session.title)).overlapsTitle, session.title).toBe(false)
          heights.push((await page.locator('[data-dsh-sessions-toast]').boundingBox())!.y)
        }
        expect(heights[0]).not.toBe(heights[1])
      })
    })

    it('offers no menu on the blank New Session row', async () => {
      await onApp(async page => {
        await startNewSession(page)
        const blank = rowOf(page, 'New Session')
        await blank.waitFor()
        expect(await blank.getByRole('button', { includeHidden: true }).count()).toBe(0)
      })
    })

    it('copies the other workspace\'s reference once its sessions are listed', async () => {
      await onApp(async page => {
        // The sidebar lists a workspace's sessions once the workspace is opened.
        await startNewSession(page)
        await chooseWorkspace(page, 'beta')
        await openRowMenu(page, BETA_TITLE)
        await page.getByRole('menuitem', { name: 'Copy reference' }).click()
        await expect.poll(() => clipboard(page)).toBe(mentionOf(beta))
        await page.getByRole('status').filter({ hasText: 'Reference copied' }).waitFor()
      })
    })

    it('resolves a pasted reference like a chip in the same workspace, and not outside it', async () => {
      await onApp(async page => {
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
      })
    })

    it.each(['en', 'zh'] as const)('copies the id and the reference from the session header (%s), the toast below the button', async language => {
      await onApp(async page => {
        await rowOf(page, ALPHA_TITLE).click()
        const header = page.locator('[data-dsh-sessions-header-copy]')
        await header.waitFor()
        const [id, reference] = ACTIONS as [CopyAction, CopyAction]
        expect(await header.getByRole('button').evaluateAll(buttons => buttons.map(button => button.getAttribute('aria-label')))).toEqual([id.item[language], reference.item[language]])
        const idButton = header.getByRole('button', { name: id.item[language] })
        await idButton.click()
        await page.getByRole('status').filter({ hasText: id.copied[language] }).waitFor()
        expect(await clipboard(page)).toBe(alpha.id)
        const button = (await idButton.boundingBox())!
        const toast = (await page.locator('[data-dsh-sessions-toast="done"]').boundingBox())!
        expect(toast.y).toBeGreaterThanOrEqual(button.y + button.height)
        expect(toast.x).toBeLessThanOrEqual(button.x + button.width / 2)
        expect(toast.x + toast.width).toBeGreaterThanOrEqual(button.x + button.width / 2)

        // The next toast replaces this one; its own text tells it apart.
        await header.getByRole('button', { name: reference.item[language] }).click()
        await page.getByRole('status').filter({ hasText: reference.copied[language] }).waitFor()
        expect(await clipboard(page)).toBe(mentionOf(alpha))
      }, { ...(language === 'zh' ? { locale: 'zh-CN' } : {}) })
    })
  }),
}
