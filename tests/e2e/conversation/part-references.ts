/**
 * Part references and the way back, in the real host: "Copy message
 * reference" on the second reply of a three-turn session puts a
 * `dsh-messages:` reference on the clipboard; pasted into a new session's
 * composer it becomes a chip, and the model gets that reply alone, with the
 * source's title and id. Clicking the sent reference opens the source with
 * that reply in view; once the source has a new message the sent reference
 * says "updated since". The same reference in another workspace's session,
 * under scope `workspace`, is refused before the send and the draft stays;
 * clicking its chip opens the source, and the draft is there on return.
 * A whole-session chip narrowed to the last turn sends only the last turn.
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { RecordedRequest } from '../../../dev/stand-in-model.ts'
import { PLUGIN } from '../../../dev/stack.ts'
import { chooseWorkspace, composer, sendAndAwaitReply, startNewSession, startSessionWithTurn } from '../../../dev/web-ui.ts'
import { citation } from '../harness/requests.ts'
import { currentSessionInPage, installApplyProbe, openSessionInPage } from '../../../dev/apply-probe.ts'
import { expectRefusedSend } from '../harness/prompts.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'

const MARKERS = ['KIWI-ONE', 'KIWI-TWO', 'KIWI-THREE'] as const

export const partReferences: Topic = {
  tests: group => describe('part references and the way back', () => {
    const host = useTopic(group, { browser: { prepare: launched => installApplyProbe(launched.context, PLUGIN, 'dsh-sessions') } })
    let sourceId: string
    let title: string
    let copied: string
    let citingId: string

    const page = (): Page => host.browser.page
    const turns = () => host.stack.model.turns()
    async function sendFromComposer(): Promise<RecordedRequest> {
      const before = turns().length
      await page().getByRole('button', { name: 'Send message' }).click()
      await expect.poll(() => turns().length, { timeout: 30_000 }).toBe(before + 1)
      return turns().at(-1)!
    }
    const clipboard = () => page().evaluate(() => navigator.clipboard.readText())

    beforeAll(async () => {
      // The title is made of the first words, so the markers stay out of it.
      await startSessionWithTurn(page(), 'alpha', `Plans for the kiwi orchard: ${MARKERS[0]} first question`)
      sourceId = turns().at(-1)!.sessionId!
      await sendAndAwaitReply(page(), `Then the watering: ${MARKERS[1]} second question`)
      await sendAndAwaitReply(page(), `And the harvest: ${MARKERS[2]} third question`)
      const res = await fetch(`${host.stack.web.url}/dsh-sessions/mention`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sourceId: sourceId }) })
      title = ((await res.json()) as { label: string }).label
    })

    it('copies the second reply\'s reference, which pasted becomes a chip and gives the model that reply alone', async () => {
      const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      // Every user message has the action too, beside the host's own copy button.
      const asked = page().locator('[data-dsh-sessions-user-action]').getByRole('button', { name: 'Copy message reference' })
      await expect.poll(() => asked.count(), { timeout: 30_000 }).toBe(3)
      await asked.nth(2).hover()
      await asked.nth(2).click()
      await expect.poll(clipboard, { timeout: 10_000 }).toMatch(new RegExp(`^@\\[${escaped} · #5\\]\\(dsh-messages:`))
      const action = page().locator('[data-turn-tail]').getByRole('button', { name: 'Copy message reference' })
      await expect.poll(() => action.count(), { timeout: 30_000 }).toBe(3)
      await action.nth(1).hover()
      await action.nth(1).click()
      await expect.poll(clipboard, { timeout: 10_000 }).toMatch(/ · #4\]/)
      await page().getByText('Message reference copied').first().waitFor({ timeout: 10_000 })
      copied = await clipboard()
      expect(copied).toMatch(new RegExp(`^@\\[${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · #4\\]\\(dsh-messages:[A-Za-z0-9_-]+/\\d+\\)$`))

      await startNewSession(page())
      await chooseWorkspace(page(), 'alpha')
      await composer(page()).fill(`PART-MARK what did you answer in ${copied}`)
      // The pasted reference becomes a chip labelled with the source's title and the message's number.
      await expect.poll(() => composer(page()).inputValue(), { timeout: 10_000 }).toBe(`PART-MARK what did you answer in @${title} · #4 `)
      await expect.poll(() => page().locator('[data-decoration="chip"]').count()).toBe(1)
      // Drawn as every chip that cites conversation text is: the host's session glyph, then the label.
      expect(await page().locator('[data-decoration="chip"]').getAttribute('data-reference-appearance')).toBe('session')
      const turn = await sendFromComposer()
      citingId = turn.sessionId!
      const cited = citation(turn, 'PART-MARK')
      expect(cited.direct).toBe(`PART-MARK what did you answer in @${title} · #4`)
      expect(cited.snapshots).toBe(1)
      expect(cited.following).toContain(`You said: Then the watering: ${MARKERS[1]} second question`)
      expect(cited.following).not.toContain(MARKERS[0])
      expect(cited.following).not.toContain(MARKERS[2])
      expect(cited.following).not.toContain('"role":"user"')
      expect(cited.following).toContain(`"sessionId":"${sourceId}"`)
      expect(cited.following).toContain(`"label":"${title} · #4"`)
    })

    it('opens the source at the referenced reply when the sent reference is clicked', async () => {
      const reference = page().locator(`[data-ref-chip="session"][data-dsh-sessions-source="${sourceId}"]`).first()
      await reference.waitFor({ timeout: 15_000 })
      await reference.click()
      await expect.poll(() => currentSessionInPage(page()), { timeout: 10_000 }).toBe(sourceId)
      const reply = page().getByText(`You said: Then the watering: ${MARKERS[1]} second question`).first()
      await reply.waitFor({ timeout: 10_000 })
      await expect.poll(async () => {
        const box = await reply.boundingBox()
        const viewport = page().viewportSize()!
        return box !== null && box.y >= 0 && box.y + box.height <= viewport.height
      }, { timeout: 10_000 }).toBe(true)
    })

    it('says "updated since" on the sent reference once the source has a new message, and opens the source at it', async () => {
      await sendAndAwaitReply(page(), 'KIWI-FOUR a later question')
      await openSessionInPage(page(), citingId)
      const marker = page().locator(`[data-dsh-sessions-since][data-dsh-sessions-source="${sourceId}"]`).first()
      await marker.waitFor({ timeout: 40_000 })
      expect(await marker.innerText()).toBe('updated since')
      expect(await marker.getAttribute('title')).toMatch(/^Referenced at .+; 2 new messages since/)
      await marker.click()
      await expect.poll(() => currentSessionInPage(page()), { timeout: 10_000 }).toBe(sourceId)
      await page().getByText('You said: KIWI-FOUR a later question').first().waitFor({ timeout: 10_000 })
    })

    it('refuses the same reference in another workspace under scope workspace, before the send, and keeps the draft', async () => {
      await startNewSession(page())
      await chooseWorkspace(page(), 'beta')
      await composer(page()).fill(`BETA-MARK ${copied}`)
      await expect.poll(() => composer(page()).inputValue(), { timeout: 10_000 }).toBe(`BETA-MARK @${title} · #4 `)
      const dock = page().locator('[data-dsh-sessions-reference-dock]')
      await expect.poll(() => dock.innerText(), { timeout: 15_000 }).toContain('isn\'t one of this workspace\'s sessions')
      const before = turns().length
      await expectRefusedSend(page(), () => page().getByRole('button', { name: 'Send message' }).click(), /isn't one of this workspace's sessions/)
      expect(turns().length).toBe(before)
      expect(await composer(page()).inputValue()).toBe(`BETA-MARK @${title} · #4 `)
      // Clicking the chip opens its source; the draft is there when the user comes back.
      const drafting = (await currentSessionInPage(page()))!
      const chip = page().locator('[data-composer-card] [data-decoration="chip"]').first()
      const box = (await chip.boundingBox())!
      await page().mouse.click(box.x + box.width / 2, box.y + box.height / 2)
      await expect.poll(() => currentSessionInPage(page()), { timeout: 10_000 }).toBe(sourceId)
      await openSessionInPage(page(), drafting)
      await expect.poll(() => composer(page()).inputValue(), { timeout: 10_000 }).toBe(`BETA-MARK @${title} · #4 `)
      await composer(page()).fill('')
    })

    it('narrows a whole-session chip to the last turn, which is all the model gets', async () => {
      await startNewSession(page())
      await chooseWorkspace(page(), 'alpha')
      await composer(page()).fill('NARROW-MARK ')
      await composer(page()).press('End')
      await composer(page()).pressSequentially('@kiwi')
      await page().getByRole('listbox').getByRole('option', { name: new RegExp(`^${title}`) }).first().click()
      await expect.poll(() => composer(page()).inputValue()).toBe(`NARROW-MARK @${title} `)
      const reach = page().getByRole('combobox', { name: 'What to reference' })
      await reach.waitFor({ timeout: 10_000 })
      await reach.selectOption('last-1')
      await expect.poll(() => composer(page()).inputValue(), { timeout: 10_000 }).toMatch(new RegExp(`^NARROW-MARK @${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · #7, #8 +$`))
      // The size shown is the narrowed chip's.
      await expect.poll(() => page().locator('[data-dsh-sessions-reference-dock] [role=status]').first().innerText(), { timeout: 15_000 }).toMatch(/bytes|kB/)
      const cited = citation(await sendFromComposer(), 'NARROW-MARK')
      expect(cited.snapshots).toBe(1)
      expect(cited.following).toContain('KIWI-FOUR a later question')
      for (const marker of MARKERS) expect(cited.following).not.toContain(marker)
    })
  }),
}
