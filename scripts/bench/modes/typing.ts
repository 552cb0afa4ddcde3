/**
 * `--only typing`: whether the related-sessions row slows typing in the
 * composer. One host with the plugin, its store the relevance bench's 18
 * planted conversations; a new session's draft that continues one of them,
 * so the row shows. Each keystroke is timed in the page from its `keydown`
 * to the first task after the next frame (its paint), for the keys typed
 * after the row has shown, with `suggestRelated` on and off, runs
 * interleaved.
 */
import { launchBrowser } from '../../../dev/browser.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { PLANTED } from '../../../dev/relevance.ts'
import { writeSessionStore } from '../../../dev/session-store.ts'
import { chooseWorkspace, composer, openApp, startNewSession } from '../../../dev/web-ui.ts'
import { ms, pair, type Percentiles, percentiles, table } from '../figures.ts'
import type { BenchMode } from '../mode.ts'

/** The draft typed first, then the keys timed. */
const DRAFT = 'Stripe is sending the invoice webhook twice again, where do we dedupe the events'
const TIMED = ' and should the background job check the event id before it writes anything at all'

/** The keystroke-to-paint times of the row on and off. */
export interface TypingFigures {
  readonly on: Percentiles
  readonly off: Percentiles
  /** Whether the row showed before the timed keys, in every run with it on. */
  readonly shown: boolean
}

export const typing: BenchMode = {
  name: 'typing',
  summary: 'keystroke to paint in the composer with the related-sessions row on and off, in Chromium',
  async run(context) {
    const runs = Math.max(2, Math.min(context.settings.runs, 10))
    let cwd = ''
    const stack = await context.stack({
      tarball: context.tarball(),
      beforeBoot: async home => {
        cwd = home.project('alpha')
        await writeSessionStore(hostDir(), home, PLANTED.map(spec => ({ cwd, title: spec.key, text: spec.turns[0]!.user, turns: spec.turns })), { titleCache: false })
      },
    })
    const browser = await launchBrowser()
    try {
      const url = stack.web.url
      for (;;) {
        if ((await (await fetch(`${url}/dsh-sessions/content-index`)).json() as { ready: boolean }).ready) break
        await new Promise(resolve => setTimeout(resolve, 200))
      }
      const page = browser.page
      await openApp(page, url)
      await startNewSession(page)
      await chooseWorkspace(page, 'alpha')
      // Each keystroke's time from its keydown to the first task after the next frame.
      await page.evaluate(() => {
        const times: number[] = []
        ;(window as unknown as { keyTimes: number[] }).keyTimes = times
        document.addEventListener('keydown', event => {
          const start = event.timeStamp
          requestAnimationFrame(() => { setTimeout(() => { times.push(performance.now() - start) }, 0) })
        }, true)
      })
      const samples: { on: number[]; off: number[] } = { on: [], off: [] }
      let shown = true
      const setRow = (value: boolean) => fetch(`${url}/dsh-sessions/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ suggestRelated: value }) })
      for (let run = 0; run < runs * 2; run += 1) {
        const on = run % 2 === 0
        await setRow(on)
        await composer(page).fill('')
        await composer(page).fill(DRAFT)
        const row = page.locator('[data-dsh-sessions-related]')
        if (on) {
          try {
            await row.waitFor({ timeout: 10_000 })
          } catch {
            shown = false
          }
        } else {
          // As long as the row would take to come: the draft is answered with the row off too.
          await page.waitForTimeout(900)
        }
        await page.evaluate(() => { (window as unknown as { keyTimes: number[] }).keyTimes.length = 0 })
        await composer(page).press('End')
        await page.keyboard.type(TIMED, { delay: 40 })
        await page.waitForTimeout(100)
        const times = await page.evaluate(() => [...(window as unknown as { keyTimes: number[] }).keyTimes])
        samples[on ? 'on' : 'off'].push(...times)
        context.progress(`run ${run + 1}: row ${on ? 'on' : 'off'}, ${times.length} keys, p95 ${ms(percentiles(times).p95)}`)
      }
      await setRow(true)
      const figures: TypingFigures = { on: percentiles(samples.on), off: percentiles(samples.off), shown }
      return {
        mode: 'typing',
        settings: { runs, keys: TIMED.length },
        figures,
        units: { on: 'ms', off: 'ms' },
        blocks: [table({
          title: `Typing in the composer with the related-sessions row, through the real host in Chromium: ${TIMED.length} keys typed after the row showed, ${runs} runs each way, keydown to the next frame (p50 / p95)`,
          columns: ['row', 'keystroke to paint', 'target'],
          rows: [
            ['off (`suggestRelated: false`)', pair(figures.off), '—'],
            [figures.shown ? 'on, showing' : 'on (it did not show in every run)', pair(figures.on), `p95 at most 5 ms over off: ${(figures.on.p95 - figures.off.p95).toFixed(1)} ms`],
          ],
        })],
      }
    } finally {
      await browser.close()
      await stack.stop()
    }
  },
}
