/**
 * Content search in the real host's `@` menu: a rare word of a message body
 * (not a title) finds its session with an excerpt, and picking that row
 * sends its snapshot to the model; two words need both (typed in the open
 * quoted form `@"two words`, since the menu closes an unquoted query at a
 * space and a closed quote ends the token); the last
 * word works as a prefix; Chinese matches without spaces; another
 * workspace's session is hidden under `workspace` and shown under `all`; a
 * new message's words are findable within seconds; after a restart the saved
 * index answers at once without reading the logs again; the Chinese UI marks
 * matches its own way.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { hostDir } from '../../../dev/pinned-host.ts'
import { writeSessionStore } from '../../../dev/session-store.ts'
import { chooseWorkspace, composer, openApp, sendAndAwaitReply, startNewSession } from '../../../dev/web-ui.ts'
import { citation } from '../harness/requests.ts'
import { sessionMenuRows } from '../harness/menu.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'
import { untilAsync as until } from '../harness/wait.ts'
import { installApplyProbe, openSessionInPage } from '../../../dev/apply-probe.ts'
import { PLUGIN } from '../../../dev/stack.ts'
import { logRevision } from '../../../src/host/search/worker-protocol.ts'

/** The topic's own workspaces: the sidebar's topic keeps alpha's group to itself. */
const OWN = 'gamma'
const OTHER = 'delta'

const SOURCES = [
  { project: OWN, title: 'Weekly sync', text: 'We planned the billing migration for Q3.', reply: 'The migration needs a freeze window.' },
  { project: OWN, title: 'Billing notes', text: 'Where are the invoices kept?', reply: 'In the finance folder.' },
  { project: OWN, title: 'Old chat', text: 'The quetzalcoatl codename came up once.', reply: 'Noted.' },
  { project: OWN, title: '发布评审', text: '我们讨论了发布流程和灰度策略', reply: '好的，灰度先从百分之五开始。' },
  { project: OTHER, title: 'Elsewhere', text: 'The zanzibar billing migration in another repo.', reply: 'ok' },
] as const

/** The log revisions the files of a session's folder would have now, whichever file is its log. */
function logRevisionsOf(dshHome: string, id: string): string[] {
  const root = join(dshHome, 'sessions')
  for (const project of readdirSync(root)) {
    const folder = join(root, project, id)
    if (!existsSync(folder)) continue
    return readdirSync(folder, { recursive: true, encoding: 'utf8' }).map(name => statSync(join(folder, name))).filter(info => info.isFile()).map(logRevision)
  }
  return []
}

interface Status {
  ready: boolean
  start: string
  reads: number
  catalog: { listed: boolean; restored: number }
  sessions: number
  passes: number
}


/** The session rows of a menu, as "name | description". */
async function sessionRows(page: Page, text: string): Promise<string[]> {
  return (await sessionMenuRows(page, text)).map(row => row.split('\n').join(' | '))
}

export const contentSearch: Topic = {
  seed: async home => {
    // Without the host's title cache: the titles below come from the plugin's log pass, which also builds the index.
    await writeSessionStore(hostDir(), home, SOURCES.map(({ project, ...source }) => ({ cwd: home.project(project), ...source })), { titleCache: false })
  },
  tests: group => describe('content search in the @ menu of the real host', () => {
    const host = useTopic(group, { workspace: OWN })
    /** The session an earlier test sent a new message in. */
    let adopted = ''

    const status = async (): Promise<Status> => (await (await fetch(`${host.stack.web.url}/dsh-sessions/content-index`)).json()) as Status

    beforeAll(async () => {
      await until(async () => (await status()).ready, 'the content index built')
    })

    it('finds a rare word of a message body with an excerpt, and the picked row sends that session', async () => {
      const page = host.browser.page
      // A session the page has just created may be unknown to the plugin for a moment: the menu is read until it is known.
      await expect.poll(() => sessionRows(page, 'Ask @quetzal'), { timeout: 15_000 }).toHaveLength(1)
      const rows = await sessionRows(page, 'Ask @quetzal')
      expect(rows[0]).toMatch(/^Old chat \| The «quetzal»coatl codename came up once\. · .*ago$/)
      await page.getByRole('listbox').getByRole('option', { name: /^Old chat/ }).click()
      await expect.poll(() => composer(page).inputValue()).toBe('Ask @Old chat ')
      await composer(page).press('End')
      await composer(page).pressSequentially('what was it?')
      const before = host.stack.model.turns().length
      await page.getByRole('button', { name: 'Send message' }).click()
      await expect.poll(() => host.stack.model.turns().length, { timeout: 30_000 }).toBe(before + 1)
      const cited = citation(host.stack.model.turns().at(-1)!, 'Ask @Old chat')
      expect(cited.following).toContain('The quetzalcoatl codename came up once.')
      expect(cited.snapshots).toBe(1)
      await page.getByText('You said: Ask @Old chat', { exact: false }).first().waitFor({ timeout: 30_000 })
    })

    it('needs both words of a quoted two-word query, takes the last word as a prefix, and matches Chinese without spaces', async () => {
      const page = host.browser.page
      await startNewSession(page)
      await chooseWorkspace(page, OWN)
      await expect.poll(() => sessionRows(page, '@"billing migration'), { timeout: 15_000 }).toEqual([
        expect.stringMatching(/^Weekly sync \| We planned the «billing» «migration» for Q3\. · /),
      ])
      // Title matches come first and look as they always did; content-only matches follow.
      const billing = await sessionRows(page, '@billing')
      expect(billing.map(row => row.split(' | ')[0])).toEqual(['Billing notes', 'Weekly sync'])
      // A title match shows its age alone: the same workspace needs no name.
      expect(billing[0]).toMatch(/^Billing notes \| \d+ (seconds?|minutes?) ago$/)
      expect(await sessionRows(page, '@freeze win')).toEqual([])
      expect(await sessionRows(page, '@"freeze win')).toEqual([expect.stringMatching(/^Weekly sync \| .*«freeze» «win»dow/)])
      expect(await sessionRows(page, '@灰度策略')).toEqual([expect.stringMatching(/^发布评审 \| 我们讨论了发布流程和«灰度策略» · /)])
      await composer(page).fill('')
    })

    it('hides another workspace\'s session under workspace and shows it under all', async () => {
      const page = host.browser.page
      expect(await sessionRows(page, '@zanzibar')).toEqual(['No sessions match “zanzibar”'])
      const post = (scope: string) => fetch(`${host.stack.web.url}/dsh-sessions/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scope }) })
      expect((await post('all')).status).toBe(200)
      try {
        expect(await sessionRows(page, '@zanzibar')).toEqual([expect.stringMatching(/^Elsewhere \| The «zanzibar» billing migration in another repo\. · /)])
      } finally {
        await post('workspace')
      }
      await composer(page).fill('')
    })

    it('finds a new message\'s words within seconds', async () => {
      const page = host.browser.page
      await startNewSession(page)
      await chooseWorkspace(page, OWN)
      // Past the first five words, so the session's title does not hold it.
      await sendAndAwaitReply(page, 'we adopted a small pet: an axolotl called Brisket')
      adopted = host.stack.model.turns().at(-1)!.sessionId!
      const sent = performance.now()
      await startNewSession(page)
      await chooseWorkspace(page, OWN)
      await expect.poll(async () => (await sessionRows(page, '@axolotl')).length, { timeout: 10_000, interval: 250 }).toBe(1)
      const foundMs = performance.now() - sent
      console.log(`[content-search] a new message was findable ${foundMs.toFixed(0)} ms after its reply rendered`)
      expect((await sessionRows(page, '@axolotl'))[0]).toMatch(/^Title we adopted a small \| …small pet: an «axolotl» called Brisket · /)
      await composer(page).fill('')
    })

    it('answers from the saved index at once after a restart, reading again only logs the file does not hold', async () => {
      const file = join(host.stack.home.dshHome, 'dsh-sessions', 'content-index.sqlite')
      await until(async () => existsSync(file), 'the index file')
      // What the last listing said is kept too, so the restarted host answers before its first listing of the store.
      const catalog = join(host.stack.home.dshHome, 'dsh-sessions', 'session-catalog.json.gz')
      await until(async () => existsSync(catalog), 'the session catalog file')
      const restarted = performance.now()
      await host.stack.halt()
      // The file as the stopped host left it. Text of sessions that were live is kept with their event count, not a
      // log revision: only those, and sessions the file does not hold yet, are read again.
      const db = new DatabaseSync(file, { readOnly: true })
      const saved = { sessions: (db.prepare('SELECT id, revision FROM sessions').all() as { id: string; revision: string | null }[]).map(row => [row.id, { revision: row.revision ?? undefined }] as const) }
      db.close()
      const wasLive = saved.sessions.filter(([, entry]) => entry.revision?.startsWith('live:') === true).length
      expect(saved.sessions.length - wasLive).toBeGreaterThanOrEqual(SOURCES.length)
      // Of the rows kept with a log revision, those whose log is still as the row says: the stopped host left them
      // unchanged. (A session another topic opened may have been written to since its row was kept.)
      const current = saved.sessions.filter(([id, entry]) => entry.revision !== undefined && !entry.revision.startsWith('live:')
        && logRevisionsOf(host.stack.home.dshHome, id).includes(entry.revision)).length
      await host.stack.start()
      const booted = performance.now()
      await until(async () => (await status()).catalog.restored >= SOURCES.length, 'the restored session catalog')
      await until(async () => (await status()).ready, 'the restored index')
      const readyMs = performance.now() - booted
      const after = await status()
      expect(after.start).toBe('restored')
      const browser = await host.open()
      try {
        await openApp(browser.page, host.stack.web.url)
        await startNewSession(browser.page)
        await chooseWorkspace(browser.page, OWN)
        await expect.poll(() => sessionRows(browser.page, '@quetzal'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^Old chat \| /)])
        expect(await sessionRows(browser.page, '@axolotl')).toHaveLength(1)
      } finally {
        await browser.close()
      }
      // The Chinese UI shows the same rows with its own marks.
      const zh = await host.open({ locale: 'zh-CN' })
      try {
        // In a session of the topic's workspace, one an earlier test started.
        await installApplyProbe(zh.context, PLUGIN, 'dsh-sessions')
        await openApp(zh.page, host.stack.web.url)
        // The page knows the session once its list of sessions has come.
        await expect.poll(() => openSessionInPage(zh.page, adopted).then(() => true, () => false), { timeout: 30_000 }).toBe(true)
        await zh.page.getByText('You said: we adopted a small pet', { exact: false }).first().waitFor()
        const rows = await sessionMenuRows(zh.page, '@灰度策略')
        expect(rows.map(row => row.split('\n').join(' | '))).toEqual([
          expect.stringMatching(/^发布评审 \| 我们讨论了发布流程和«灰度策略» · .*前$/),
        ])
      } finally {
        await zh.close()
      }
      await until(async () => (await status()).passes >= 1, 'the first pass after the restart')
      const settled = await status()
      expect(settled.reads).toBeLessThanOrEqual(settled.sessions - current)
      console.log(`[content-search] restart: boot ${(booted - restarted).toFixed(0)} ms, index ready ${readyMs.toFixed(0)} ms after boot, ${(await status()).reads} logs read again`)
    })
  }),
}
