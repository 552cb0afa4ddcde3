/**
 * Typed `@Title` mentions in the real host, written the way CJK text is
 * written: `@发布计划总结一下` (a Chinese title followed directly by Chinese
 * text, with a shorter title `发布` also in scope) and `@Q3 OKR总结一下` (a
 * Latin title followed directly by Chinese text) each reach the model as
 * written, followed by exactly one snapshot of the right session; a title
 * typed in NFD matches the NFC title; an English UI and a Chinese UI send
 * alike.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from '../../../dev/browser.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { citation } from '../harness/requests.ts'
import { writeSessionStore } from '../../../dev/session-store.ts'
import { chooseWorkspace, composer, openApp, startNewSession } from '../../../dev/web-ui.ts'
import { untilAsync as until } from '../harness/wait.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'

const SOURCES = [
  { title: '发布计划', text: '发布计划正文：周五冻结代码' },
  { title: '发布', text: '只是发布这个词' },
  { title: 'Q3 OKR', text: 'OKR body: onboarding under five minutes' },
  { title: 'Caf\u00e9 notes', text: 'Coffee notes body' },
]

export const titleMentions: Topic = {
  seed: async home => {
    await writeSessionStore(hostDir(), home, SOURCES.map(source => ({ cwd: home.project('alpha'), ...source })))
  },
  tests: group => describe('@Title followed directly by CJK text, and in either Unicode form', () => {
    const host = useTopic(group, { browser: false })

    beforeAll(async () => {
      // Wait until the plugin's index has listed the stored sessions (2 s after its start, or at the first request).
      await until(async () => {
        const titled = await Promise.all(SOURCES.map(async ({ title }) => {
          const res = await fetch(`${host.stack.web.url}/dsh-sessions/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: title }) })
          return ((await res.json()) as { results: { title?: string }[] }).results.some(result => result.title === title)
        }))
        return titled.every(Boolean)
      }, 'titles in the host cache')
    })

    async function sendFrom(browser: Browser, text: string, send: RegExp): Promise<ReturnType<typeof citation>> {
      const before = host.stack.model.turns().length
      await composer(browser.page).fill(text)
      await browser.page.getByRole('button', { name: send }).click()
      await expect.poll(() => host.stack.model.turns().length, { timeout: 30_000 }).toBe(before + 1)
      const cited = citation(host.stack.model.turns().at(-1)!, text)
      await browser.page.getByText(`You said: ${text}`).first().waitFor({ timeout: 30_000 })
      return cited
    }

    it('resolves titles followed directly by Chinese text, from an English UI', async () => {
      const browser = await host.open()
      try {
        await openApp(browser.page, host.stack.web.url)
        await startNewSession(browser.page)
        await chooseWorkspace(browser.page, 'alpha')
        const chinese = await sendFrom(browser, '@发布计划总结一下', /^Send message$/)
        expect(chinese.direct).toBe('@发布计划总结一下')
        expect(chinese.following).toContain('发布计划正文')
        expect(chinese.following).not.toContain('只是发布这个词')
        expect(chinese.snapshots).toBe(1)

        const latin = await sendFrom(browser, '@Q3 OKR总结一下', /^Send message$/)
        expect(latin.direct).toBe('@Q3 OKR总结一下')
        expect(latin.following).toContain('OKR body')

        const decomposed = '@Cafe\u0301 notes, please'
        const nfd = await sendFrom(browser, decomposed, /^Send message$/)
        expect(nfd.direct).toBe(decomposed)
        expect(nfd.following).toContain('Coffee notes body')
      } finally {
        await browser.close()
      }
    })

    it('resolves the same from a Chinese UI, with the shorter title when the longer does not fit', async () => {
      const browser = await host.open({ locale: 'zh-CN' })
      try {
        await openApp(browser.page, host.stack.web.url)
        await browser.page.getByText(/^Title @发布计划总结一下/).first().click()
        await composer(browser.page).waitFor()
        const before = host.stack.model.turns().at(-1)!
        const shorter = await sendFrom(browser, '@发布会怎么安排', /^发送消息$/)
        expect(shorter.direct).toBe('@发布会怎么安排')
        expect(shorter.following).toContain('只是发布这个词')
        expect(shorter.following).not.toContain('发布计划正文')
        // The session's history carries its earlier snapshots; this message adds exactly one.
        expect(shorter.snapshots).toBe(citation(before, '@Cafe\u0301 notes, please').snapshots + 1)
      } finally {
        await browser.close()
      }
    })
  }),
}
