/**
 * A session's history as another browser loads it from the host: a session
 * that cited the same unchanged source in two messages (the second send
 * reuses the kept snapshot) and then had the model call a session tool must
 * load whole, every message and both references shown, with no history
 * error.
 */
import { describe, expect, it } from 'vitest'
import { hostDir } from '../../../dev/pinned-host.ts'
import { type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import { openApp, send, sendAndAwaitReply } from '../../../dev/web-ui.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'
import { until } from '../harness/wait.ts'

let kiwi: StoredSession

export const history: Topic = {
  seed: async home => { kiwi = (await writeSessionStore(hostDir(), home, [{ cwd: home.project('alpha'), title: 'Kiwi plans', text: 'kiwi text' }]))[0]! },
  tests: group => describe('a session\'s history, loaded again', () => {
    const host = useTopic(group, { workspace: 'alpha' })

    it('loads whole after two messages cited the same source and a tool was called', async () => {
      const page = host.browser.page
      await sendAndAwaitReply(page, `compare with ${kiwi.id} please`)
      await sendAndAwaitReply(page, `and again ${kiwi.id} please`)
      const before = host.stack.model.turns().length
      await send(page, 'CALL_TOOL search_sessions {"query":"kiwi"}')
      await until(() => host.stack.model.turns().length >= before + 2, 'the tool turn')
      const snapshots = host.stack.model.turns().slice(-3).map(turn => turn.body.messages.filter(message => message.role === 'user' && JSON.stringify(message.content).includes('## Referenced sessions')).length)
      expect(snapshots).toEqual([2, 2, 2])
      const fresh = await host.open()
      try {
        await openApp(fresh.page, host.stack.web.url)
        await fresh.page.locator('[role=tree]').getByText('Title compare with', { exact: false }).first().click()
        await fresh.page.locator('[data-dsh-sessions-tool="search_sessions"]').waitFor()
        const text = await fresh.page.locator('body').innerText()
        expect(text).not.toMatch(/Failed to load history|more than one start/)
        expect(text.match(/Referenced session · Kiwi plans/g)).toHaveLength(2)
        expect(text).toContain('and again')
        expect(fresh.errors).toEqual([])
      } finally {
        await fresh.close()
      }
    })
  }),
}
