/**
 * The sidebar's Search sessions box and rows in the real host, on a store
 * that other dsh processes wrote before `dsh web` started (its sessions have
 * no titles in the host's projection cache, so rc.8 shows their workspace's
 * name): one session written by a headless `dsh` run, the others by the
 * pinned host's own session store without the cache. The rows show their
 * titles; a body word, a Chinese substring, a title word and a session of
 * another workspace are found, with excerpts; a content result opens its
 * session at the matching message even when it starts far out of view; a
 * message sent a moment ago is found; hostile queries never show an error;
 * the host's own `session.search` (what every client of the host asks)
 * answers from the same index; and a found session's row bears its title from
 * the search's own answer, before the rows' titles have come.
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { dshHeadless } from '../../../dev/dsh-process.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import { chooseWorkspace, composer, openApp, sendAndAwaitReply, SIDEBAR_ROWS, startNewSession } from '../../../dev/web-ui.ts'
import { sessionMenuRows } from '../harness/menu.ts'
import { typeSidebarQuery } from '../harness/sidebar-query.ts'
import { citation } from '../harness/requests.ts'
import { hostSearchInPage, installApplyProbe } from '../../../dev/apply-probe.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'
import { untilAsync } from '../harness/wait.ts'
import { PLUGIN } from '../../../dev/stack.ts'
import { markedTexts } from '../harness/highlights.ts'

const LONG_TURNS = 40

function longTurns(): { user: string; reply: string }[] {
  return Array.from({ length: LONG_TURNS }, (_, n) => ({
    user: n === 1 ? 'Where did we leave the OBSIDIAN key?' : `Question ${n} about the garden`,
    reply: Array.from({ length: 8 }, (_, line) => `Line ${line} of answer ${n}: the garden needs water and light.`).join('\n'),
  }))
}

let stored: StoredSession[] = []

/** Messages whose match stands far into them, in English and in Chinese. */
const LATE_ENGLISH = 'Some long introduction that we wrote at length before we finally planned the rollout of the TAMARIND service for the quarter, with many more words after it.'
const LATE_CHINESE = '这是一段很长的开场白，我们先介绍了项目的背景和目标，然后讨论了上线步骤和金丝雀部署的细节以及后续的安排。'

export const sidebarSearch: Topic = {
  seed: async (home, options) => {
    // A separate headless dsh process, then a store written without the host's projection cache: both as another process leaves them.
    await dshHeadless(options, home.project('alpha'), 'Note the ZEPHYRINE checklist')
    stored = await writeSessionStore(hostDir(), home, [
      { cwd: home.project('alpha'), title: 'Long history', text: 'Question 0 about the garden', turns: longTurns() },
      { cwd: home.project('alpha'), title: 'Kiwi plans', text: 'We ship MARMOSET on Monday' },
      { cwd: home.project('alpha'), title: '梨计划', text: '我们讨论了验收流程和回滚预案的细节' },
      { cwd: home.project('beta'), title: 'Plum plans', text: 'The PLUMBAGO budget for beta' },
      // In the other workspace, so alpha's group still shows every session above.
      { cwd: home.project('beta'), title: 'Walnut notes', text: LATE_ENGLISH },
      { cwd: home.project('beta'), title: '枣计划', text: LATE_CHINESE },
    ], { titleCache: false })
  },
  tests: group => describe('the sidebar\'s Search sessions box and rows', () => {
    const host = useTopic(group, { browser: { prepare: launched => installApplyProbe(launched.context, PLUGIN, 'dsh-sessions') } })

    const idOf = (title: string) => stored.find(session => session.title === title)!.id

    beforeAll(async () => {
      // Until the plugin has read every log once: titles and what was said are then known.
      await untilAsync(async () => {
        const res = await fetch(`${host.stack.web.url}/dsh-sessions/content-index`)
        return ((await res.json()) as { ready: boolean }).ready
      }, 'the content index built')
    })

    function rowTitle(page: Page, sessionId: string) {
      return page.locator(`[data-dsh-session-row="${sessionId}"]`)
    }

    const search = typeSidebarQuery

    const results = (page: Page) => page.getByRole('tree', { name: 'Search results' }).getByRole('treeitem')

    /** A read of the result rows that types `query` again, every `everyMs` at most, while no row shows: the page does not ask again by itself for a query it has answered. `typed`: when the query was last typed. */
    function rowsTypedAgain(page: Page, query: string, everyMs: number, typed: number): () => Promise<string[]> {
      return async () => {
        const rows = await results(page).allInnerTexts()
        if (rows.length === 0 && Date.now() - typed > everyMs) {
          await search(page, '')
          await search(page, query)
          typed = Date.now()
        }
        return rows
      }
    }

    /** How many listings of the store the plugin's session catalog has made. */
    const catalogListings = async () => ((await (await fetch(`${host.stack.web.url}/dsh-sessions/content-index`)).json()) as { catalog: { listings?: number } }).catalog.listings

    it('shows the titles of sessions other processes wrote, not their workspace\'s name', async () => {
      const page = host.browser.page
      // The group opens by itself only when it holds the current session.
      const collapsed = page.locator('[role="treeitem"][aria-expanded="false"]').filter({ has: page.getByText('alpha', { exact: true }) })
      for (const title of ['Kiwi plans', '梨计划', 'Long history']) {
        const row = rowTitle(page, idOf(title))
        // The group may be drawn collapsed after a first look found none to open: it is opened whenever the row is not there.
        await expect.poll(async () => {
          if ((await row.count()) > 0) return row.innerText()
          if (await collapsed.count() > 0) await collapsed.first().click()
          return ''
        }, { timeout: 30_000 }).toContain(title)
      }
    })

    it('finds a session by a word of its message in any case, with an excerpt, and by a Chinese substring, a title word and in another workspace', async () => {
      const page = host.browser.page
      const asked = page.waitForRequest(request => request.url().endsWith('/dsh-sessions/search') && request.postDataJSON()?.query === 'marmoset')
      await search(page, 'marmoset')
      // The route is asked for as many sessions as rc.8's sidebar shows of an answer: an excerpt is made of each.
      expect((await asked).postDataJSON()).toEqual({ query: 'marmoset', limit: SIDEBAR_ROWS })
      // The excerpt is drawn as plain text, and its match highlighted in the theme's find colour, a token the host defines.
      await expect.poll(() => markedTexts(results(page)), { timeout: 15_000 }).toEqual([expect.stringMatching(/Kiwi plans[\s\S]*We ship «MARMOSET» on Monday/)])
      expect(await results(page).first().innerText()).toContain('We ship MARMOSET on Monday')
      expect(await page.locator('style[data-dsh-sessions-matches]').textContent()).toContain('::highlight(dsh-sessions-match)')
      expect(await page.evaluate(() => getComputedStyle(document.body).getPropertyValue('--dsw-alias-state-warn-tertiary').trim())).not.toBe('')
      for (const [query, title] of [['回滚', '梨计划'], ['验收流程', '梨计划'], ['kiwi', 'Kiwi plans'], ['plumbago', 'Plum plans'], ['zephyrine', undefined]] as const) {
        await search(page, query)
        await expect.poll(async () => (await results(page).allInnerTexts())[0] ?? '', { timeout: 15_000, message: query }).toMatch(title ?? /ZEPHYRINE/)
        // One session holds the query; any after it hold only some of its words, and say which they lack.
        for (const other of (await results(page).allInnerTexts()).slice(1)) expect(other, query).toMatch(/Missing: /)
      }
      expect(await page.getByText('Content search is temporarily unavailable').count()).toBe(0)
    })

    it('shows the match near the start of the excerpt, in view in the row, for an English and a Chinese query', async () => {
      const page = host.browser.page
      for (const [query, title, shown] of [['tamarind', 'Walnut notes', 'TAMARIND'], ['金丝雀', '枣计划', '金丝雀']] as const) {
        await search(page, query)
        await expect.poll(async () => (await results(page).allInnerTexts()).join('\n'), { timeout: 15_000, message: query }).toContain(title)
        const row = results(page).filter({ hasText: title })
        const text = await row.innerText()
        // The excerpt is the row's line that holds the match; it starts a few words before it.
        const line = text.split('\n').find(part => part.includes(shown))
        expect([query, line]).toEqual([query, expect.any(String)])
        expect(line!.indexOf(shown), `${query}: ${line}`).toBeLessThan(20)
        expect(line!.startsWith('…'), line).toBe(true)
        // Drawn inside the row, not cut off at its edge.
        const box = await row.evaluate((element, wanted) => {
          const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
          for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
            const at = (node.textContent ?? '').indexOf(wanted)
            if (at < 0) continue
            const range = document.createRange()
            range.setStart(node, at)
            range.setEnd(node, at + wanted.length)
            const match = range.getBoundingClientRect()
            const frame = element.getBoundingClientRect()
            return { matchRight: match.right, rowRight: frame.right, width: match.width }
          }
          return undefined
        }, shown)
        expect(box, query).toBeDefined()
        expect(box!.width, query).toBeGreaterThan(0)
        expect(box!.matchRight, query).toBeLessThanOrEqual(box!.rowRight)
      }
    })

    it('opens a content result at its matching message, far above the end of a long session', async () => {
      const page = host.browser.page
      await search(page, 'obsidian')
      const result = results(page).filter({ hasText: 'Long history' })
      await result.waitFor({ timeout: 15_000 })
      await result.click()
      const opened = Date.now()
      // The conversation view is the visible one (rc.8 keeps other views of the session in the page).
      const message = page.locator('[data-chat-anchor-key]:visible').filter({ hasText: 'Where did we leave the OBSIDIAN key?' })
      const inView = async () => (await message.count()) > 0 && await message.first().isVisible() ? message.first().evaluate(element => {
        const box = element.getBoundingClientRect()
        return box.top >= 0 && box.bottom <= window.innerHeight
      }) : false
      try {
        await expect.poll(inView, { timeout: 30_000 }).toBe(true)
      } catch (error) {
        // What the page showed instead, for the log.
        const rows = await page.locator('[data-chat-anchor-key]:visible').evaluateAll(elements => elements.map(element => `${Math.round(element.getBoundingClientRect().top)} ${(element.textContent ?? '').slice(0, 50)}`))
        console.log(`[e2e] sidebar open-at-match failed; ${rows.length} rows, first ${JSON.stringify(rows.slice(0, 3))}, last ${JSON.stringify(rows.slice(-2))}`)
        throw error
      }
      console.log(`[e2e] sidebar result to its message in view: ${Date.now() - opened} ms`)
      // It started out of view: the last answer is far below it.
      const last = page.locator('[data-chat-anchor-key]:visible').filter({ hasText: `Line 7 of answer ${LONG_TURNS - 1}` }).first()
      expect(await last.evaluate(element => element.getBoundingClientRect().top > window.innerHeight)).toBe(true)
    })

    it('moves through the results with the arrow keys and opens one with Enter', async () => {
      const page = host.browser.page
      // Quoted, so the word stands as typed: other sessions that say plan or planned are not answered too, whenever the page's list learns of them.
      await search(page, '"plans"')
      await expect.poll(() => results(page).count(), { timeout: 15_000 }).toBe(2)
      await page.getByPlaceholder('Search sessions...').press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      const focused = await page.evaluate(() => document.activeElement?.textContent ?? '')
      expect(focused).toMatch(/Kiwi plans|Plum plans/)
      await page.keyboard.press('Enter')
      await expect.poll(() => page.locator('[data-chat-anchor-key]').allInnerTexts(), { timeout: 15_000 }).toEqual(expect.arrayContaining([expect.stringMatching(/MARMOSET|PLUMBAGO/)]))
    })

    it('finds a message sent a moment ago within seconds', async () => {
      const page = host.browser.page
      await page.getByPlaceholder('Search sessions...').press('Escape')
      await startNewSession(page)
      await chooseWorkspace(page, 'alpha')
      await sendAndAwaitReply(page, 'Remember the VERMILLION gate')
      const sent = Date.now()
      await search(page, 'vermillion')
      await expect.poll(() => results(page).allInnerTexts(), { timeout: 10_000 }).toEqual([expect.stringMatching(/VERMILLION/)])
      expect(Date.now() - sent).toBeLessThan(10_000)
    })

    it('finds a session another process writes while dsh web runs within 5 s: in the sidebar, the @ menu and as a bare id', async () => {
      const page = host.browser.page
      await page.getByPlaceholder('Search sessions...').press('Escape')
      await startNewSession(page)
      await chooseWorkspace(page, 'alpha')
      const listings = await catalogListings()
      // Written as a terminal dsh writes it: by the host's own session store, in another process's store object, while this host runs.
      const [fresh] = await writeSessionStore(hostDir(), host.stack.home, [
        { cwd: host.stack.home.project('alpha'), title: 'Terminal capybara', text: 'We measured the KINKAJOU cache from the terminal' },
      ], { titleCache: false })
      const written = Date.now()
      // Found within 5 s by the plugin's own answers: by a word said (the sidebar's route) and by its id (the per-id route).
      const route = (path: string, body: unknown) => fetch(`${host.stack.web.url}/dsh-sessions/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(res => res.json())
      await expect.poll(async () => ((await route('search', { query: 'kinkajou', limit: 5 })) as { results: { sessionId: string }[] }).results.map(result => result.sessionId), { timeout: 5_000, interval: 50 }).toEqual([fresh!.id])
      await expect.poll(async () => ((await route('since', { sources: [{ sessionId: fresh!.id, capturedThroughSeq: null }] })) as { sources: { newMessages: number }[] }).sources[0]!.newMessages, { timeout: 5_000, interval: 50 }).toBeGreaterThan(0)
      expect(Date.now() - written).toBeLessThan(5_000)
      // Then as a person meets it. A search answered before the session was found shows no row and is not asked again by itself: it is typed again, every second at most.
      await expect.poll(rowsTypedAgain(page, 'kinkajou', 1_000, 0), { timeout: 15_000 }).toEqual([expect.stringMatching(/Terminal capybara[\s\S]*KINKAJOU/)])
      await expect.poll(() => sessionMenuRows(page, '@capybara'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^Terminal capybara/)])
      await composer(page).fill('')
      const before = host.stack.model.turns().length
      await sendAndAwaitReply(page, `What did ${fresh!.id} measure?`)
      expect(host.stack.model.turns()).toHaveLength(before + 1)
      const cited = citation(host.stack.model.turns().at(-1)!, 'What did')
      expect(cited.snapshots).toBe(1)
      expect(cited.following).toContain('We measured the KINKAJOU cache from the terminal')
      // Found without listing the store again.
      expect(await catalogListings()).toBe(listings)
    })

    it('answers hostile queries with results or "No matching sessions", never an error', async () => {
      const page = host.browser.page
      for (const query of ['"', '*', 'NEAR(', '-', ':', '😀', 'kiwi'.repeat(500)]) {
        await search(page, query)
        await expect.poll(async () => await page.getByText('No matching sessions').isVisible() || await results(page).count() > 0, { timeout: 15_000, message: query }).toBe(true)
        expect(await page.getByText('Content search is temporarily unavailable').count()).toBe(0)
      }
    })

    it('serves the host\'s own session.search from the same index, Chinese inside a sentence included', async () => {
      const page = host.browser.page
      const answer = await hostSearchInPage(page, '回滚')
      expect(answer.ok).toBe(true)
      expect(answer.value!.items.map(item => item.sessionId)).toEqual([idOf('梨计划')])
      const marmoset = await hostSearchInPage(page, 'marmo')
      expect(marmoset.value!.items).toEqual([{ sessionId: idOf('Kiwi plans'), snippet: 'We ship MARMOSET on Monday' }])
    })

    it('titles a found session\'s row from the search\'s own answer, before the rows\' titles have come', async () => {
      const page = host.browser.page
      // The rows' own titles never come in this page: only the search's answer can name the session.
      await page.route('**/dsh-sessions/titles', route => route.abort())
      try {
        await openApp(page, host.stack.web.url)
        // A session no test has opened, so the host has never read its title either.
        await search(page, '回滚')
        // A query typed before the freshly opened page wired the plugin's search (a busy machine) is answered by the host alone, and kept: it is typed again, every 3 s at most, while no row shows.
        await expect.poll(rowsTypedAgain(page, '回滚', 3_000, Date.now()), { timeout: 30_000 }).toEqual([expect.stringMatching(/^梨计划[\s\S]*回滚/)])
      } finally {
        await page.unroute('**/dsh-sessions/titles')
      }
    })
  }),
}
