/**
 * Finding what a person means, in the real host, on each surface: another form of a word (`deploys
 * failing` finds "the deploy failed"), Chinese words in another order (`签名校验` finds 校验签名), a query
 * with a word the session never used (ranked, with a "Missing" note), a quoted phrase, and filters (`in:`,
 * `from:`).
 * The sidebar's Search sessions box and the `@` menu are read as the person sees them; `search_sessions`
 * as the stand-in model receives its answer.
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { hostDir } from '../../../dev/pinned-host.ts'
import { type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import { textOf, type RecordedRequest } from '../../../dev/stand-in-model.ts'
import { send } from '../../../dev/web-ui.ts'
import { sessionMenuRows } from '../harness/menu.ts'
import { typeSidebarQuery } from '../harness/sidebar-query.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'
import { until, untilAsync } from '../harness/wait.ts'

/** The topic's own workspaces. */
const OWN = 'epsilon'
const OTHER = 'zeta'

let stored: StoredSession[] = []

export const meaning: Topic = {
  seed: async home => {
    stored = await writeSessionStore(hostDir(), home, [
      { cwd: home.project(OTHER), title: 'Zeta rollout', text: 'The deploy failed in zeta as well, after the TAPIR import.', reply: 'Noted for zeta.' },
      { cwd: home.project(OWN), title: 'Staging trouble', text: 'The deploy failed again on staging, the TAPIR health check never passes', reply: 'The readiness probe hits the health endpoint before the TAPIR migrations finish.' },
      { cwd: home.project(OWN), title: '回调接口', text: '回调接口需要先校验签名，再处理业务逻辑。', reply: '好的，时间戳也要一起校验。' },
      { cwd: home.project(OWN), title: 'Orders table', text: 'Our Postgres orders table grew while autovacuum never catches up.', reply: 'Dead tuples pile up faster than the vacuum cleans them.' },
    ], { titleCache: false })
  },
  tests: group => describe('finding what a person means, on every surface', () => {
    const host = useTopic(group, { workspace: OWN })
    const idOf = (title: string) => stored.find(session => session.title === title)!.id

    beforeAll(async () => {
      await untilAsync(async () => (await (await fetch(`${host.stack.web.url}/dsh-sessions/content-index`)).json() as { ready: boolean }).ready, 'the content index built')
    })

    async function sidebar(page: Page, query: string): Promise<string[]> {
      await typeSidebarQuery(page, query)
      const results = page.getByRole('tree', { name: 'Search results' }).getByRole('treeitem')
      await expect.poll(() => results.count(), { timeout: 15_000, message: query }).toBeGreaterThan(0)
      return (await results.allInnerTexts()).map(row => row.split('\n').join(' | '))
    }

    it('finds other forms of a word and Chinese words in another order in the sidebar, and narrows by workspace', async () => {
      const page = host.browser.page
      await expect.poll(async () => (await sidebar(page, 'deploys failing')).sort(), { timeout: 15_000 }).toEqual([
        expect.stringMatching(/^Staging trouble \| .*deploy failed/),
        expect.stringMatching(/^Zeta rollout \| .*deploy failed/),
      ])
      await expect.poll(() => sidebar(page, 'deploys failing in:zeta'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^Zeta rollout/)])
      await expect.poll(() => sidebar(page, '签名校验'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^回调接口 \| .*校验签名/)])
      // A quoted phrase stands as written; a session with only the other word says it lacks the phrase.
      await expect.poll(() => sidebar(page, '"health check" tapir'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^Staging trouble \| .*health check/), expect.stringMatching(/^Zeta rollout \| .*Missing: health check · /)])
      // A malformed filter is words: no session holds "yesterdayish", so the TAPIR sessions come first and say what they lack.
      const rows = await sidebar(page, 'tapir after:yesterdayish')
      expect(rows.slice(0, 2).map(row => row.split(' | ')[0]).sort()).toEqual(['Staging trouble', 'Zeta rollout'])
      for (const row of rows) expect(row).toMatch(/Missing: .*yesterdayish/)
    })

    it('ranks a session holding most of the words when none holds them all, and says which word is missing', async () => {
      const page = host.browser.page
      await expect.poll(() => sidebar(page, 'postgres vacuum bloat'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^Orders table \| .*Missing: bloat · .*Postgres/)])
    })

    it('answers the @ menu the same way, in English and in Chinese', async () => {
      const page = host.browser.page
      const rows = async (text: string) => (await sessionMenuRows(page, text)).map(row => row.split('\n').join(' | '))
      await expect.poll(() => rows('@"postgres vacuum bloat'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^Orders table \| Missing: bloat · .*«Postgres».* · /)])
      await expect.poll(() => rows('@"deploys failing'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^Staging trouble \| .*«deploy» «failed»/)])
      await expect.poll(() => rows('@签名校验'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^回调接口 \| .*校验.*签名/)])
    })

    it('gives the model the same ranking through search_sessions, with what is missing, and keeps from: to what one side said', async () => {
      const turns = () => host.stack.model.turns()
      const call = async (args: object): Promise<{ sessions: { sessionId: string; missing?: string[] }[] }> => {
        const before = turns().length
        await send(host.browser.page, `CALL_TOOL search_sessions ${JSON.stringify(args)}`)
        await until(() => turns().length >= before + 2, 'the model\'s turn after search_sessions')
        const answered = turns()[before + 1] as RecordedRequest
        const result = textOf(answered.body.messages.at(-1)!)
        return JSON.parse(result.slice(result.indexOf('{'), result.lastIndexOf('}') + 1)) as { sessions: { sessionId: string; missing?: string[] }[] }
      }
      expect((await call({ query: 'postgres vacuum bloat' })).sessions).toEqual([expect.objectContaining({ sessionId: idOf('Orders table'), missing: ['bloat'] })])
      // Under the workspace scope, the zeta session is not found; the person said "deploy", the model did not.
      expect((await call({ query: 'deploys failing' })).sessions.map(session => session.sessionId)).toEqual([idOf('Staging trouble')])
      expect((await call({ query: 'deploy', from: 'me' })).sessions.map(session => session.sessionId)).toEqual([idOf('Staging trouble')])
      expect((await call({ query: 'readiness', from: 'agent' })).sessions.map(session => session.sessionId)).toEqual([idOf('Staging trouble')])
      expect((await call({ query: 'from:agent deploy' })).sessions).toEqual([])
    })
  }),
}
