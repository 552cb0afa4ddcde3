/**
 * Quoting the conversation in the real host: select part of a model reply,
 * "Add to chat", see the chip on a line of its own and the quote bar; a
 * second quote; remove the first from the bar and bring it back with undo;
 * send, and the model reads each quote as a Markdown quote block followed by
 * an empty line, then the typed text with no space in front (compared line
 * by line, untrimmed). Labels never repeat after a removal. Text typed before
 * a quote stays its own line, and the copied and the reloaded draft read as
 * what is sent. A selection in the composer offers no button; a
 * 20,000-character selection arrives truncated with the marker.
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { userTexts } from '../harness/requests.ts'
import { note } from '../../../dev/timing.ts'
import { composer, frames, openApp, selectText, send, startSessionWithTurn } from '../../../dev/web-ui.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'

const BUTTON = '[data-dsh-sessions-quote-button]'
const BAR = '[data-dsh-sessions-quote-bar]'

/**
 * Presses "Add to chat" and lets the next frames pass, in which the composer
 * takes the focus and the caret: a selection made before then would be moved
 * into the composer by it, faster than anyone selects.
 */
async function addQuote(page: Page): Promise<void> {
  await page.locator(BUTTON).click()
  await frames(page)
}

async function barEntries(page: Page): Promise<string[]> {
  if (await page.locator(BAR).count() === 0) return []
  return page.locator(`${BAR} li`).allInnerTexts()
}

export const quotes: Topic = {
  tests: group => describe('quoting the conversation in the real host', () => {
    const host = useTopic(group)

    beforeAll(async () => {
      await startSessionWithTurn(host.browser.page, 'alpha', 'Tell me about pears')
    })

    it('adds two quotes, removes one from the bar, undoes, and sends each as a quote block ending in an empty line', async () => {
      const page = host.browser.page
      await selectText(page, 'You said: Tell me')
      await page.locator(BUTTON).waitFor()
      expect(await page.locator(BUTTON).innerText()).toBe('Add to chat')
      await page.locator(BUTTON).click()
      await expect.poll(() => composer(page).inputValue()).toBe('@Quote 1\n')
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA')
      expect(await composer(page).evaluate(textarea => (textarea as HTMLTextAreaElement).selectionStart)).toBe(9)
      await expect.poll(() => barEntries(page)).toEqual([expect.stringMatching(/^Quote 1\s*You said: Tell me/)])
      expect(await page.locator(BUTTON).count()).toBe(0)

      await selectText(page, 'Stand-in reply')
      await page.locator(BUTTON).click()
      await expect.poll(() => composer(page).inputValue()).toBe('@Quote 1\n@Quote 2\n')
      await expect.poll(async () => (await barEntries(page)).length).toBe(2)
      // Drawn as a session chip is: the host's session glyph in place of the @, then the label.
      const chips = page.locator('[data-decoration="chip"]')
      expect(await chips.evaluateAll(all => all.map(chip => [chip.getAttribute('data-reference-appearance'), chip.textContent]))).toEqual([['session', '@Quote 1'], ['session', '@Quote 2']])
      await page.locator(`${BAR} li`).first().getByRole('button', { name: 'Expand' }).click()
      expect(await page.locator(`${BAR} pre`).innerText()).toBe('You said: Tell me')

      await page.getByRole('button', { name: 'Remove: Quote 1' }).click()
      await expect.poll(() => composer(page).inputValue()).toBe('\n@Quote 2\n')
      await expect.poll(() => barEntries(page)).toEqual([expect.stringMatching(/^Quote 2\s*Stand-in reply/)])
      await composer(page).focus()
      await page.keyboard.press('Control+z')
      await expect.poll(() => composer(page).inputValue()).toBe('@Quote 1\n@Quote 2\n')
      await expect.poll(async () => (await barEntries(page)).length).toBe(2)

      await composer(page).press('Control+End')
      await composer(page).pressSequentially('compare these')
      expect(await composer(page).inputValue()).toBe('@Quote 1\n@Quote 2\ncompare these')
      const before = host.stack.model.turns().length
      await page.getByRole('button', { name: 'Send message' }).click()
      await expect.poll(() => host.stack.model.turns().length, { timeout: 30_000 }).toBe(before + 1)
      const direct = userTexts(host.stack.model.turns().at(-1)!).find(text => text.includes('compare these'))!
      expect(direct.split('\n')).toEqual(['> You said: Tell me', '', '> Stand-in reply', '', 'compare these'])
      expect(direct).not.toContain('Quote 1')
      await expect.poll(() => barEntries(page)).toEqual([])
    })

    it('never repeats a label: a quote added after a removal takes the next number', async () => {
      const page = host.browser.page
      await composer(page).fill('')
      await selectText(page, 'You said: Tell me')
      await addQuote(page)
      await selectText(page, 'Stand-in reply')
      await addQuote(page)
      await expect.poll(() => composer(page).inputValue()).toBe('@Quote 1\n@Quote 2\n')
      await page.getByRole('button', { name: 'Remove: Quote 1' }).click()
      await expect.poll(() => barEntries(page)).toEqual([expect.stringMatching(/^Quote 2\s/)])
      await selectText(page, 'You said: Tell me')
      await addQuote(page)
      await expect.poll(() => composer(page).inputValue()).toBe('\n@Quote 2\n@Quote 3\n')
      const labels = (await barEntries(page)).map(entry => /^Quote \d+/.exec(entry)?.[0])
      expect(labels).toEqual(['Quote 2', 'Quote 3'])
      expect(new Set(labels).size).toBe(labels.length)
      await page.getByRole('button', { name: 'Remove: Quote 2' }).click()
      await page.getByRole('button', { name: 'Remove: Quote 3' }).click()
      await expect.poll(() => barEntries(page)).toEqual([])
      await composer(page).fill('')
    })

    it('keeps typed text before a quote on its own line, and copies and reloads the draft as it is sent', async () => {
      const page = host.browser.page
      await composer(page).fill('Look at this:')
      await selectText(page, 'You said: Tell me')
      await page.locator(BUTTON).click()
      await expect.poll(() => composer(page).inputValue()).toBe('Look at this:\n@Quote 1\n')
      await composer(page).press('Control+End')
      await composer(page).pressSequentially('Why?')
      const form = 'Look at this:\n> You said: Tell me\n\nWhy?'

      await composer(page).press('Control+a')
      await composer(page).press('Control+c')
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(form)

      await page.reload()
      await page.locator('[data-composer-card] textarea').waitFor({ timeout: 30_000 })
      await page.getByText('Title Tell me about pears').first().click()
      await expect.poll(() => composer(page).inputValue(), { timeout: 15_000 }).toBe(form)

      const before = host.stack.model.turns().length
      await page.getByRole('button', { name: 'Send message' }).click()
      await expect.poll(() => host.stack.model.turns().length, { timeout: 30_000 }).toBe(before + 1)
      const direct = userTexts(host.stack.model.turns().at(-1)!).find(text => text.startsWith('Look at this:'))!
      expect(direct.split('\n')).toEqual(['Look at this:', '> You said: Tell me', '', 'Why?'])
    })

    it('offers the button for a double-click selection and none for a selection in the composer', async () => {
      const page = host.browser.page
      await page.getByText(/^Stand-in reply #\d+\. You said: Tell me about pears/).first().dblclick({ position: { x: 20, y: 10 } })
      expect(await page.evaluate(() => document.getSelection()?.toString())).toBe('Stand')
      await page.locator(BUTTON).waitFor()
      await page.mouse.click(5, 5)
      await expect.poll(() => page.locator(BUTTON).count()).toBe(0)
      await composer(page).fill('draft text to select')
      await composer(page).evaluate(textarea => (textarea as HTMLTextAreaElement).select())
      // Resolves once the selection change has been dispatched and two frames have rendered what it caused.
      await page.evaluate(() => new Promise(resolve => {
        document.addEventListener('selectionchange', () => requestAnimationFrame(() => requestAnimationFrame(resolve)), { once: true })
        const range = document.createRange()
        range.selectNodeContents(document.querySelector('[data-composer-card]')!)
        document.getSelection()!.removeAllRanges()
        document.getSelection()!.addRange(range)
      }))
      expect(await page.locator(BUTTON).count()).toBe(0)
      await composer(page).fill('')
    })

    it('truncates a 20,000-character selection to 16,000 code points with the marker', async () => {
      const page = host.browser.page
      const long = Array.from({ length: 3000 }, (_, n) => `w${String(n).padStart(4, '0')}x`).join(' ').slice(0, 20_000)
      await send(page, long)
      await page.getByText(`You said: ${long.slice(0, 30)}`).first().waitFor({ timeout: 30_000 })
      await selectText(page, long)
      const elapsed = await page.evaluate(async () => {
        const button = document.querySelector<HTMLButtonElement>('[data-dsh-sessions-quote-button]')!
        const textarea = document.querySelector<HTMLTextAreaElement>('[data-composer-card] textarea')!
        const started = performance.now()
        button.click()
        for (;;) {
          if (textarea.value.includes('@Quote 1') && document.querySelector('[data-dsh-sessions-quote-bar]') !== null) return performance.now() - started
          await new Promise(resolve => requestAnimationFrame(resolve))
        }
      })
      note(`click to visible chip for a 16,000-code-point quote: ${elapsed.toFixed(1)} ms`)
      const before = host.stack.model.turns().length
      await page.getByRole('button', { name: 'Send message' }).click()
      await expect.poll(() => host.stack.model.turns().length, { timeout: 30_000 }).toBe(before + 1)
      const direct = userTexts(host.stack.model.turns().at(-1)!).find(text => text.startsWith('> w0000x'))!
      expect(direct.endsWith('… (truncated)')).toBe(true)
      expect(direct.slice(2, -'… (truncated)'.length)).toBe(long.slice(0, 16_000))
    })

    it('speaks Chinese with the UI in Chinese', async () => {
      const zh = await host.open({ locale: 'zh-CN' })
      try {
        const page = zh.page
        await openApp(page, host.stack.web.url)
        await page.getByText('Title Tell me about pears').first().click()
        await page.getByText(/^Stand-in reply #\d+\. You said: Tell me about pears/).first().waitFor()
        await selectText(page, 'You said: Tell me')
        await page.locator(BUTTON).waitFor()
        expect(await page.locator(BUTTON).innerText()).toBe('添加到对话')
        await page.locator(BUTTON).click()
        await expect.poll(() => composer(page).inputValue()).toBe('@摘录 1\n')
        await page.locator(`${BAR} li`).first().getByRole('button', { name: '展开' }).click()
        expect(await barEntries(page)).toEqual([expect.stringMatching(/^摘录 1\s*You said: Tell me\s*收起\s*移除/)])
        await selectText(page, 'Stand-in reply')
        await page.locator(BUTTON).click()
        await expect.poll(() => composer(page).inputValue()).toBe('@摘录 1\n@摘录 2\n')
        await page.getByRole('button', { name: '移除: 摘录 1' }).click()
        await selectText(page, 'You said: Tell me')
        await page.locator(BUTTON).click()
        await expect.poll(() => composer(page).inputValue()).toBe('\n@摘录 2\n@摘录 3\n')
        await composer(page).press('Control+End')
        await composer(page).pressSequentially('比较一下')
        const before = host.stack.model.turns().length
        await page.getByRole('button', { name: '发送消息' }).click()
        await expect.poll(() => host.stack.model.turns().length, { timeout: 30_000 }).toBe(before + 1)
        const direct = userTexts(host.stack.model.turns().at(-1)!).find(text => text.includes('比较一下'))!
        expect(direct.split('\n')).toEqual(['> Stand-in reply', '', '> You said: Tell me', '', '比较一下'])
        await expect.poll(() => barEntries(page)).toEqual([])
      } finally {
        await zh.close()
      }
    })
  }),
}
