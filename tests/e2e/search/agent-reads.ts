/**
 * References the agent reads on demand, in the real host: a session chip
 * turned into "Let the agent read it" from the dock sends the model a
 * pointer (what the session is and how to read it, in the official frame)
 * instead of the session's snapshot; the stand-in model follows it with
 * `read_session` and a query (the phrase the person quoted, in another form
 * of its words than the session's), gets the one message that holds the
 * planted decision, and answers with it; the sent
 * pointer opens its source. The tests read every request the model got,
 * byte for byte. Without the session
 * tools the choice is shown disabled with its reason; under `referenceMode`
 * `agent` a picked session becomes a pointer at once.
 */
import { basename } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { hostDir } from '../../../dev/pinned-host.ts'
import { type StoredSession, writeSessionStore } from '../../../dev/session-store.ts'
import { textOf, type RecordedRequest } from '../../../dev/stand-in-model.ts'
import { composer } from '../../../dev/web-ui.ts'
import { snapshotFraming } from '../../../src/host/official/session-reference.ts'
import { formatMessageReference } from '../../../src/shared/message-reference.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'
import { currentSessionInPage, installApplyProbe, openSessionInPage } from '../../../dev/apply-probe.ts'
import { PLUGIN } from '../../../dev/stack.ts'
import { until, untilAsync } from '../harness/wait.ts'

/** The topic's own workspace. */
const OWN = 'meadow'

/** A long session: 400 turns, the decision in the person's message of turn 251 (message 501). */
const TURNS = Array.from({ length: 400 }, (_, n) => ({
  user: n === 0 ? 'Plan the meadow survey with me: plots, dates, who counts what.' : n === 250 ? 'We decided the quetzal flag stays off until the 灰度 review ends.' : `Meadow question ${n + 1}: what about plot ${n % 17}?`,
  reply: `Meadow answer ${n + 1}: ${'survey notes and counts '.repeat(12)}`,
}))
const DECISION = 501

let meadow: StoredSession

export const agentReads: Topic = {
  seed: async home => {
    meadow = (await writeSessionStore(hostDir(), home, [{ cwd: home.project(OWN), title: 'Meadow survey', text: TURNS[0]!.user, turns: TURNS }]))[0]!
  },
  tests: group => describe('references the agent reads on demand, in the real host', () => {
    const host = useTopic(group, { workspace: OWN, browser: { prepare: launched => installApplyProbe(launched.context, PLUGIN, 'dsh-sessions') } })
    const page = (): Page => host.browser.page
    const turns = () => host.stack.model.turns()
    const writeSettings = (patch: object) => fetch(`${host.stack.web.url}/dsh-sessions/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(patch) })
    const reach = () => page().getByRole('combobox', { name: 'What to reference' })

    /** Types the text, then picks the session from the `@` menu as a chip. */
    async function pickMeadow(text: string): Promise<void> {
      await composer(page()).fill(text)
      await composer(page()).press('End')
      await composer(page()).pressSequentially('@meadow')
      await page().getByRole('listbox').getByRole('option', { name: /^Meadow survey/ }).first().click()
      await expect.poll(() => composer(page()).inputValue()).toBe(`${text}@Meadow survey `)
      await reach().waitFor({ timeout: 10_000 })
    }

    beforeAll(async () => {
      await untilAsync(async () => (await (await fetch(`${host.stack.web.url}/dsh-sessions/content-index`)).json() as { ready: boolean }).ready, 'the content index')
    })

    it('sends a pointer in place of the snapshot; the model searches the session with read_session and answers with the planted message', async () => {
      const framing = await snapshotFraming()
      // The person writes flags; the session said flag: read_session matches other forms of a word, as the search does.
      await pickMeadow('What did we decide about "quetzal flags" in ')
      await reach().selectOption('agent')
      await expect.poll(() => reach().inputValue(), { timeout: 10_000 }).toBe('agent')
      // The dock shows what the pointer costs: a few hundred bytes.
      await expect.poll(() => page().locator('[data-dsh-sessions-reference-dock] [role=status]').first().innerText(), { timeout: 15_000 }).toMatch(/^\d+ bytes · ≈\d+ tokens$/)
      const before = turns().length
      await page().getByRole('button', { name: 'Send message' }).click()
      await until(() => turns().length >= before + 2, 'the pointer turn and the turn after read_session')
      const [asked, answered] = turns().slice(before, before + 2) as [RecordedRequest, RecordedRequest]

      // What the model got for the reference: the pointer, in the official frame, and nothing of the session's messages.
      const snapshot = asked.body.messages.map(textOf).find(text => text.startsWith('## Referenced sessions'))!
      const entry = JSON.parse(snapshot.slice(framing.before.length, snapshot.length - framing.after.length)) as Record<string, unknown>[]
      expect(entry).toEqual([{
        sessionId: meadow.id, title: 'Meadow survey', workspace: basename(meadow.cwd),
        created: expect.stringMatching(/^20\d\d-\d\d-\d\dT\d\d:\d\dZ$/), lastActive: expect.stringMatching(/^20\d\d-/), messages: 800, firstMessage: `${[...TURNS[0]!.user].slice(0, 40).join('').trimEnd()}…`,
        read: 'read_session reads and searches it',
      }])
      expect(snapshot).toBe(`${framing.before}${JSON.stringify(entry).replaceAll('<', '\\u003c')}${framing.after}`)
      expect(Buffer.byteLength(snapshot)).toBeLessThan(1_500)
      expect(snapshot).not.toContain('survey notes')
      expect(asked.reply).toBe('CALL read_session')

      // What the tool gave back: the planted message first, byte for byte in the same frame.
      const result = textOf(answered.body.messages.at(-1)!)
      const found = JSON.parse(result.slice(framing.before.length, result.length - framing.after.length)) as { matches: { n: number; role: string; time: string; excerpt: string }[] }
      expect(found).toEqual({ found: true, sessionId: meadow.id, title: 'Meadow survey', workspace: meadow.cwd, matches: [{ n: DECISION, role: 'user', time: expect.stringMatching(/^20\d\d-/), excerpt: TURNS[250]!.user }] })
      expect(result).toBe(`${framing.before}${JSON.stringify(found).replaceAll('<', '\\u003c')}${framing.after}`)
      expect(answered.reply).toBe(`In Meadow survey, message #${DECISION} says: ${TURNS[250]!.user}`)
      await page().getByText(`message #${DECISION} says`).first().waitFor({ timeout: 15_000 })
      // The row of the call says what was searched.
      await expect.poll(() => page().locator('[data-dsh-sessions-tool="read_session"]').last().innerText(), { timeout: 10_000 }).toMatch(/^Searched Meadow survey for "quetzal flags": 1 message$/)
      // The sent pointer leads back to its source, as a snapshot's reference does.
      const sent = page().locator(`[data-ref-chip="session"][data-dsh-sessions-source="${meadow.id}"]`).first()
      await sent.waitFor({ timeout: 15_000 })
      const citing = await currentSessionInPage(page())
      await sent.click()
      await expect.poll(() => currentSessionInPage(page()), { timeout: 10_000 }).toBe(meadow.id)
      await openSessionInPage(page(), citing!)
      await expect.poll(() => currentSessionInPage(page()), { timeout: 10_000 }).toBe(citing)
    })

    it('shows the choice disabled with its reason while the session tools are off, and refuses a pointer written by hand', async () => {
      expect((await writeSettings({ agentTools: false })).status).toBe(200)
      try {
        await page().reload()
        await pickMeadow('OFF-MARK ')
        const option = page().getByRole('option', { name: 'Let the agent read it (needs the session tools)' })
        expect(await option.isDisabled()).toBe(true)
        await composer(page()).fill(`OFF-MARK ${formatMessageReference({ sessionId: meadow.id, selection: [], agent: true, label: 'Meadow survey' })} `)
        await expect.poll(() => page().locator('[data-dsh-sessions-reference-dock]').innerText(), { timeout: 15_000 }).toContain('needs the session tools on')
        await composer(page()).fill('')
      } finally {
        expect((await writeSettings({ agentTools: true })).status).toBe(200)
      }
    })

    /** Under `referenceMode` agent, picks Meadow after `mark` (then types `after`), sends, and gives the first request the model got that carries `mark`. */
    async function sendPointer(mark: string, after = ''): Promise<RecordedRequest> {
      expect((await writeSettings({ referenceMode: 'agent' })).status).toBe(200)
      try {
        await page().reload()
        await pickMeadow(`${mark} `)
        await expect.poll(() => reach().inputValue(), { timeout: 10_000 }).toBe('agent')
        if (after !== '') {
          await composer(page()).press('End')
          await page().keyboard.insertText(after)
        }
        const before = turns().length
        const carries = (request: RecordedRequest) => request.body.messages.some(message => textOf(message).includes(mark))
        await page().getByRole('button', { name: 'Send message' }).click()
        await until(() => turns().slice(before).some(carries), 'the turn that carries the pointer')
        return turns().slice(before).find(carries)!
      } finally {
        expect((await writeSettings({ referenceMode: 'snapshot' })).status).toBe(200)
      }
    }

    it('makes a picked session a pointer at once under referenceMode agent', async () => {
      const sent = await sendPointer('MODE-MARK')
      const snapshot = sent.body.messages.map(textOf).find(text => text.startsWith('## Referenced sessions'))!
      expect(snapshot).toContain('"read":"read_session reads and searches it"')
      expect(snapshot).not.toContain('survey notes')
    })

    it('sends one pointer and no snapshot for a pointer chip whose session the text names again by its id, and says so in the dock', async () => {
      const sent = await sendPointer('TWICE-MARK', `and its id ${meadow.id}`)
      // What this message added: the messages from its own on (the session's earlier turns come before it).
      const texts = sent.body.messages.map(textOf)
      const referenced = texts.slice(texts.findIndex(text => text.includes('TWICE-MARK'))).filter(text => text.startsWith('## Referenced sessions'))
      expect(referenced).toHaveLength(1)
      const framing = await snapshotFraming()
      const entries = JSON.parse(referenced[0]!.slice(framing.before.length, referenced[0]!.length - framing.after.length)) as Record<string, unknown>[]
      expect(entries).toEqual([expect.objectContaining({ sessionId: meadow.id, read: 'read_session reads and searches it' })])
      expect(referenced[0]).not.toContain('survey notes')
      // The id stays in the text the model reads, as typed.
      expect(texts.find(text => text.includes('TWICE-MARK'))).toContain(`and its id ${meadow.id}`)
      await expect.poll(() => page().locator('[data-dsh-sessions-reference-dock] [role=status]').allInnerTexts(), { timeout: 15_000 })
        .toContainEqual(expect.stringContaining('Your message also names Meadow survey by id or title: the same source as its chip, sent once, as the chip cites it.'))
    })
  }),
}
