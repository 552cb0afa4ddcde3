/**
 * Related sessions while drafting, in the real host: sessions written
 * before the boot in the kestrel workspace (one about Stripe's webhook, one
 * about signing callbacks) and one in another workspace holding the same
 * words. A draft that continues the Stripe work offers that session (and not
 * the other workspace's); one click attaches it as a chip, and the model
 * receives its snapshot, nothing else. Nothing is offered for a draft about
 * nothing in the store; the row can be dismissed for a draft and comes back
 * for the next; with `suggestRelated` off the row goes and the route answers
 * nothing. The route's
 * refusals and bounds are checked on the same host.
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { hostDir } from '../../../dev/pinned-host.ts'
import { type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import { chooseWorkspace, composer, startNewSession } from '../../../dev/web-ui.ts'
import { citation } from '../harness/requests.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'
import { untilAsync } from '../harness/wait.ts'

const STRIPE = 'Stripe webhook retries'
const SIGNING = '回调签名校验'
const ELSEWHERE = 'Stripe invoices elsewhere'

let stored: StoredSession[] = []

export const related: Topic = {
  seed: async home => {
    stored = await writeSessionStore(hostDir(), home, [
      { cwd: home.project('kestrel'), title: STRIPE, text: 'Stripe keeps retrying the invoice.paid webhook even though the endpoint answers 200', turns: [
        { user: 'Stripe keeps retrying the invoice.paid webhook even though the endpoint answers 200', reply: 'Acknowledge first and process the event in a background job; store the event id so duplicate deliveries are skipped.' },
      ] },
      { cwd: home.project('kestrel'), title: SIGNING, text: '回调接口需要先校验签名，签名算法是 HMAC-SHA256', turns: [
        { user: '回调接口需要先校验签名，签名算法是 HMAC-SHA256', reply: '在中间件里统一校验签名，时间戳超过五分钟的请求直接拒绝，防止重放攻击。' },
      ] },
      { cwd: home.project('plover'), title: ELSEWHERE, text: 'Stripe invoice webhook events deduplicated in a background job', turns: [
        { user: 'Stripe invoice webhook events deduplicated in a background job', reply: 'The events are stored by id.' },
      ] },
    ], { titleCache: false })
  },
  tests: group => describe('related sessions while drafting', () => {
    const host = useTopic(group)
    const idOf = (title: string) => stored.find(session => session.title === title)!.id
    const row = (page: Page) => page.locator('[data-dsh-sessions-related]')
    const asked: string[] = []

    beforeAll(async () => {
      await untilAsync(async () => ((await (await fetch(`${host.stack.web.url}/dsh-sessions/content-index`)).json()) as { ready: boolean }).ready, 'the content index built')
      host.browser.page.on('request', request => { if (request.url().endsWith('/dsh-sessions/related')) asked.push(request.postData() ?? '') })
      await startNewSession(host.browser.page)
      await chooseWorkspace(host.browser.page, 'kestrel')
    })

    it('offers the session a draft continues, attaches it in one click, and the model receives it', async () => {
      const page = host.browser.page
      await composer(page).fill('RELATED-1 Stripe is sending the invoice webhook twice again. Where do we dedupe the events?')
      const offered = row(page).locator('[data-dsh-sessions-related-session]')
      await expect.poll(() => offered.evaluateAll(items => items.map(item => item.getAttribute('data-dsh-sessions-related-session'))), { timeout: 15_000 }).toEqual([idOf(STRIPE)])
      expect(await row(page).innerText()).toContain(STRIPE)
      // One request for the paused draft, none per keystroke.
      expect(asked).toHaveLength(1)
      expect(JSON.parse(asked[0]!)).toMatchObject({ text: 'RELATED-1 Stripe is sending the invoice webhook twice again. Where do we dedupe the events?', except: [] })

      await offered.first().click()
      // The chip is in the draft; the session is no longer offered.
      await expect.poll(() => row(page).count()).toBe(0)
      const before = host.stack.model.turns().length
      await page.getByRole('button', { name: 'Send message' }).click()
      await expect.poll(() => host.stack.model.turns().length, { timeout: 30_000 }).toBe(before + 1)
      const cited = citation(host.stack.model.turns().at(-1)!, 'RELATED-1')
      expect(cited.snapshots).toBe(1)
      expect(cited.following).toContain(idOf(STRIPE))
      expect(cited.following).not.toContain(idOf(ELSEWHERE))
    })

    it('offers nothing for a draft about nothing in the store, and can be dismissed for a draft', async () => {
      const page = host.browser.page
      const before = asked.length
      await composer(page).fill('Plan a three day trip to Lisbon with a budget for food and museums')
      await expect.poll(() => asked.length, { timeout: 15_000 }).toBe(before + 1)
      expect(await row(page).count()).toBe(0)

      await composer(page).fill('回调的签名校验要支持密钥轮换，旧密钥和新密钥同时有效一段时间')
      await expect.poll(() => row(page).innerText(), { timeout: 15_000 }).toContain(SIGNING)
      await row(page).getByRole('button', { name: 'Dismiss for this draft' }).click()
      expect(await row(page).count()).toBe(0)
      const dismissedAt = asked.length
      await composer(page).fill('回调的签名校验要支持密钥轮换，旧密钥和新密钥同时有效一段时间，重放攻击也要检查')
      // Another draft may be offered again, even written over the dismissed one with no empty composer between.
      await composer(page).fill('签名校验的中间件要记录每次失败的原因，方便排查回调问题')
      // The new draft is asked about, and the dismissed draft, grown, was not.
      await expect.poll(() => asked.slice(dismissedAt).map(body => (JSON.parse(body) as { text: string }).text), { timeout: 15_000 }).toEqual(['签名校验的中间件要记录每次失败的原因，方便排查回调问题'])
      await expect.poll(() => row(page).innerText(), { timeout: 15_000 }).toContain(SIGNING)
      await composer(page).fill('')
    })

    it('hides the row and answers nothing while suggestRelated is off', async () => {
      const page = host.browser.page
      const set = (value: boolean) => fetch(`${host.stack.web.url}/dsh-sessions/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ suggestRelated: value }) })
      await composer(page).fill('Stripe is sending the invoice webhook twice again, where do we dedupe the events')
      await expect.poll(() => row(page).innerText(), { timeout: 15_000 }).toContain(STRIPE)
      expect((await set(false)).status).toBe(200)
      try {
        // The page follows the setting as the card does: the row goes.
        await expect.poll(() => row(page).count(), { timeout: 15_000 }).toBe(0)
        const answer = await fetch(`${host.stack.web.url}/dsh-sessions/related`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ citingSessionId: idOf(SIGNING), text: 'Stripe invoice webhook dedupe events background job' }) })
        expect(await answer.json()).toEqual({ sessions: [] })
      } finally {
        expect((await set(true)).status).toBe(200)
      }
      await expect.poll(() => row(page).innerText(), { timeout: 15_000 }).toContain(STRIPE)
      await composer(page).fill('')
    })

    it('refuses what is not a draft and bounds what it reads', async () => {
      const ask = async (body: unknown) => {
        const res = await fetch(`${host.stack.web.url}/dsh-sessions/related`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        return [res.status, ((await res.json()) as { error?: { code: string } }).error?.code ?? 'ok'] as const
      }
      const citing = idOf(SIGNING)
      expect(await ask({ citingSessionId: citing, text: `${'Stripe webhook '.repeat(3_000)}` })).toEqual([200, 'ok'])
      expect(await ask({ citingSessionId: citing, text: '\u0000\u0007 Stripe \u202e webhook' })).toEqual([200, 'ok'])
      expect(await ask({ citingSessionId: citing })).toEqual([400, 'bad-request'])
      expect(await ask({ citingSessionId: citing, text: 'x', except: 'session-a' })).toEqual([400, 'bad-request'])
      expect(await ask({ citingSessionId: citing, text: 'x', except: Array.from({ length: 65 }, (_, n) => `session-${n}`) })).toEqual([400, 'bad-request'])
      expect(await ask({ citingSessionId: 'session-nowhere', text: 'Stripe webhook' })).toEqual([404, 'not-found'])
      // The other workspace's session is out of scope for a kestrel draft, and the draft's own session is never offered.
      const answer = await fetch(`${host.stack.web.url}/dsh-sessions/related`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ citingSessionId: idOf(STRIPE), text: 'Stripe invoice webhook events dedupe background job twice' }) })
      const ids = ((await answer.json()) as { sessions: { sessionId: string }[] }).sessions.map(session => session.sessionId)
      expect(ids).not.toContain(idOf(ELSEWHERE))
      expect(ids).not.toContain(idOf(STRIPE))
    })
  }),
}
