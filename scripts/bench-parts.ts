/**
 * Part references, side by side with whole-session ones, in one run:
 *
 * - the pre-step (resolution and attachment through the official service)
 *   of a part reference against a whole-session one, and against the
 *   official `prepare()` of the whole session alone, on one source of 5,000
 *   messages (in process, official rc.8 services); each run cites from a
 *   session of its own, so no prepared snapshot is reused;
 * - what each gives the model: the snapshot's bytes and token estimate;
 * - in the real host and Chromium, on a stored source of 500 messages:
 *   a message reference pasted into a composer until its chip shows, and a
 *   click on the sent reference until the cited message is in view.
 */
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { launchBrowser } from '../dev/browser.ts'
import { type DshOptions, dshPlugin, startWeb } from '../dev/dsh-process.ts'
import { createHome } from '../dev/home.ts'
import { createHostHarness } from '../dev/in-process-host.ts'
import { percentile } from '../dev/percentile.ts'
import { hostDir } from '../dev/pinned-host.ts'
import { writeSessionStore } from '../dev/session-store.ts'
import { startModel } from '../dev/stand-in-model.ts'
import { chooseWorkspace, composer, openApp, startNewSession } from '../dev/web-ui.ts'
import { Config } from '../src/config.ts'
import { ScopedMentionResolver } from '../src/host/references/mention-resolver.ts'
import { SendCheck } from '../src/host/references/send-check.ts'
import { SnapshotPreparer } from '../src/host/references/snapshot-preparer.ts'
import { SurfaceCache } from '../src/host/references/surface-cache.ts'
import { SessionIndex } from '../src/host/sessions/session-index.ts'
import { formatMessageReference } from '../src/shared/message-reference.ts'
import { currentSessionInPage, installApplyProbe, openSessionInPage } from '../dev/apply-probe.ts'

interface Percentiles { p50: number; p95: number }

const percentiles = (samples: number[]): Percentiles => ({ p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) })

/** The figures. */
export interface PartFigures {
  readonly messages: number
  readonly whole: Percentiles
  readonly part: Percentiles
  readonly official: Percentiles
  readonly wholeBytes: number
  readonly partBytes: number
  readonly wholeTokens?: number
  readonly partTokens?: number
  readonly browserMessages: number
  readonly pasteToChip: Percentiles
  readonly openAtMessage: Percentiles
  readonly openedNumber: number
  /** A message four pages of history back, opened once. */
  readonly deepNumber: number
  readonly deepMs?: number
  /** Whether rc.8's paging reported a discontinuous page of history. */
  readonly discontinuous: boolean
}

function question(n: number): string {
  return `Question ${n}: how should the ingest worker handle batch ${n % 97}? We saw retries pile up when the queue ran dry, and the log said \`backoff=${n % 13}s\`.`
}

function answer(n: number): string {
  return `Answer ${n}: keep the worker idempotent and bound the retries.\n\n\`\`\`ts\nexport async function drain(queue: Queue): Promise<void> {\n  for (let attempt = 0; attempt < ${3 + (n % 4)}; attempt += 1) {\n    const batch = await queue.take(${50 + (n % 50)})\n    if (batch.length === 0) return\n    await process(batch)\n  }\n}\n\`\`\`\nThen watch the dead-letter queue for batch ${n % 97}.`
}

async function inProcess(messages: number, runs: number): Promise<Omit<PartFigures, 'browserMessages' | 'pasteToChip' | 'openAtMessage' | 'openedNumber' | 'deepNumber' | 'deepMs' | 'discontinuous'>> {
  const harness = await createHostHarness()
  const index = new SessionIndex(harness.ctx)
  const preparer = new SnapshotPreparer(harness.ctx, new SurfaceCache(harness.ctx, index), index)
  const check = new SendCheck({ resolver: new ScopedMentionResolver(index), preparer })
  const source = 'session-source'
  harness.session(source, { cwd: '/w/alpha', title: 'Ingest worker notes' })
  const writing = performance.now()
  for (let turn = 0; turn < messages / 2; turn += 1) harness.turn(source, question(turn), answer(turn))
  console.log(`source of ${messages} messages written in ${(performance.now() - writing).toFixed(0)} ms`)
  const surface = await harness.ctx.sessionQuery.readSurface(source as never)
  const replies = surface.events.filter(event => event.type === 'assistant/message')
  const cited = replies[Math.floor(replies.length / 2)]!.seq
  const targets = Array.from({ length: runs + 5 }, (_, n) => harness.session(`session-citing-${n}`, { cwd: '/w/alpha' }))
  await index.ready()
  const config = Config({})
  const whole = `compare @[Ingest worker notes](dsh-session:${Buffer.from(JSON.stringify(source)).toString('base64url')}) please`
  const part = `compare ${formatMessageReference({ sessionId: source, selection: [[cited, cited]], label: 'Ingest worker notes · #n' })} please`
  const samples = { whole: [] as number[], part: [] as number[], official: [] as number[] }
  let bytes = { whole: 0, part: 0 }
  for (const [n, target] of targets.entries()) {
    const who = { id: target, cwd: '/w/alpha' }
    let started = performance.now()
    const wholeCheck = await check.message(who, [{ type: 'text', text: whole }], config)
    const wholeMs = performance.now() - started
    started = performance.now()
    const partCheck = await check.message(who, [{ type: 'text', text: part }], config)
    const partMs = performance.now() - started
    started = performance.now()
    await harness.ctx.sessionReferenceResolver.prepare({ id: `${target}-official` } as never, [{ type: 'text', text: 'compare please' }], [{ sessionId: source as never, label: 'Ingest worker notes' }])
    const officialMs = performance.now() - started
    if (wholeCheck.prepared?.additionalContext === undefined || partCheck.prepared?.additionalContext === undefined) throw new Error('a reference was not attached')
    const size = (check: typeof wholeCheck) => Buffer.byteLength(check.prepared!.additionalContext!.content.map(block => (block.type === 'text' ? block.text : '')).join(''), 'utf8')
    bytes = { whole: size(wholeCheck), part: size(partCheck) }
    console.log(`pre-step run ${n + 1}/${targets.length}: whole ${wholeMs.toFixed(0)} ms, part ${partMs.toFixed(0)} ms, official ${officialMs.toFixed(0)} ms`)
    if (n < 5) continue
    samples.whole.push(wholeMs)
    samples.part.push(partMs)
    samples.official.push(officialMs)
  }
  const measured = await Promise.all([
    preparer.measure({ id: 'session-measure', cwd: '/w/alpha' }, { sessionId: source as never, label: 'Ingest worker notes' }),
    preparer.measure({ id: 'session-measure', cwd: '/w/alpha' }, { sessionId: source as never, label: 'Ingest worker notes', selection: [[cited, cited]] }),
  ])
  await harness.dispose()
  return {
    messages,
    whole: percentiles(samples.whole),
    part: percentiles(samples.part),
    official: percentiles(samples.official),
    wholeBytes: bytes.whole,
    partBytes: bytes.part,
    ...(measured[0].tokens === undefined ? {} : { wholeTokens: measured[0].tokens }),
    ...(measured[1].tokens === undefined ? {} : { partTokens: measured[1].tokens }),
  }
}

export async function inBrowser(hostBin: string, tarball: string, messages: number, runs: number): Promise<Pick<PartFigures, 'browserMessages' | 'pasteToChip' | 'openAtMessage' | 'openedNumber' | 'deepNumber' | 'deepMs' | 'discontinuous'>> {
  const model = await startModel()
  const home = createHome()
  try {
    const turns = Array.from({ length: messages / 2 }, (_, n) => ({ user: question(n), reply: answer(n) }))
    const [stored] = await writeSessionStore(hostDir(), home, [{ cwd: home.project('alpha'), title: 'Ingest worker notes', text: turns[0]!.user, turns }], { titleCache: false })
    const options: DshOptions = { home, hostBin, modelUrl: model.url, apiKey: 'sk-stand-in' }
    dshPlugin(options, ['add', tarball])
    const web = await startWeb(options, { cwd: home.project('alpha') })
    const browser = await launchBrowser()
    await installApplyProbe(browser.context, '@wishp3/dsh-sessions', 'dsh-sessions')
    try {
      const page = browser.page
      // rc.8's own paging reports a page of history that does not meet the one after it (and then stops loading older history).
      let discontinuous = false
      page.on('console', message => { if (message.text().includes('history page discontinuous')) discontinuous = true })
      await openApp(page, web.url)
      // The oldest message the route lists (the latest 200): older pages of history must load to reach it.
      const listing = await (await fetch(`${web.url}/dsh-sessions/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: 'session-00000000-0000-4000-8000-000000000000', cwd: home.project('alpha'), source: stored!.id }) })).json() as { messages: { seq: number; number: number; excerpt: string }[] }
      const target = listing.messages[listing.messages.length - 30]!
      const deep = listing.messages[0]!
      const reference = await (await fetch(`${web.url}/dsh-sessions/message-reference`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: stored!.id, seq: target.seq }) })).json() as { mention: string }
      await startNewSession(page)
      await chooseWorkspace(page, 'alpha')
      const chips = page.locator('[data-composer-card] [data-decoration="chip"]')
      const paste: number[] = []
      for (let run = 0; run < runs; run += 1) {
        await composer(page).fill('')
        await page.waitForTimeout(100)
        // Timed in the page: from the composer's input event to the frame that draws the chip.
        const drawn = page.evaluate(() => new Promise<number>((resolve, reject) => {
          const area = document.querySelector('[data-composer-card] textarea')
          if (area === null) return reject(new Error('no composer'))
          let inputAt: number | undefined
          area.addEventListener('input', () => { inputAt ??= performance.now() }, { capture: true, once: true })
          const observer = new MutationObserver(() => {
            if (inputAt === undefined || document.querySelector('[data-composer-card] [data-decoration="chip"]') === null) return
            observer.disconnect()
            requestAnimationFrame(() => resolve(performance.now() - inputAt!))
          })
          observer.observe(document.body, { childList: true, subtree: true })
          setTimeout(() => reject(new Error('no chip in 10 s')), 10_000)
        }))
        await composer(page).fill(`BENCH-MARK ${reference.mention}`)
        paste.push(await drawn)
        await chips.first().waitFor({ timeout: 10_000 })
      }
      await page.getByRole('button', { name: 'Send message' }).click()
      const sent = page.locator(`[data-ref-chip="session"][data-dsh-sessions-source="${stored!.id}"]`).first()
      await sent.waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
        await page.screenshot({ path: '/tmp/bench-parts-failure.png' })
        console.log(`turns: ${model.turns().length}; draft: ${await composer(page).inputValue()}`)
        throw error
      })
      const citing = (await currentSessionInPage(page))!
      const excerpt = target.excerpt.slice(0, 40)
      const open: number[] = []
      for (let run = 0; run < runs; run += 1) {
        if (run > 0) {
          await openSessionInPage(page, citing)
          await sent.waitFor({ timeout: 30_000 })
          await page.waitForTimeout(300)
        }
        const started = performance.now()
        await sent.click()
        // The page may hold hidden views of the session too: the message counts as seen when a copy of it with layout boxes is inside the viewport.
        const seen = () => page.evaluate(text => [...document.querySelectorAll('[data-chat-anchor-key]')].some(row => {
          if (row.getClientRects().length === 0 || !(row.textContent ?? '').includes(text)) return false
          const box = row.getBoundingClientRect()
          return box.bottom > 0 && box.top < window.innerHeight
        }), excerpt)
        for (;;) {
          if (await seen()) break
          if (performance.now() - started > 30_000) {
            await page.screenshot({ path: '/tmp/bench-parts-failure.png' })
            throw new Error(`the cited message never came into view (run ${run + 1})`)
          }
          await page.waitForTimeout(10)
        }
        open.push(performance.now() - started)
        console.log(`open at message #${target.number}, run ${run + 1}: ${(performance.now() - started).toFixed(0)} ms`)
      }
      // A message four pages of history back, once: rc.8's own paging must reach it.
      await openSessionInPage(page, citing)
      await composer(page).fill(`DEEP-MARK ${(await (await fetch(`${web.url}/dsh-sessions/message-reference`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: stored!.id, seq: deep.seq }) })).json() as { mention: string }).mention}`)
      await chips.first().waitFor({ timeout: 10_000 })
      await page.getByRole('button', { name: 'Send message' }).click()
      const deepSent = page.locator(`[data-ref-chip="session"][data-dsh-sessions-source="${stored!.id}"][data-dsh-sessions-seqs="${deep.seq}"]`).first()
      await deepSent.waitFor({ timeout: 60_000 })
      const deepStarted = performance.now()
      await deepSent.click()
      const deepText = deep.excerpt.slice(0, 40)
      let deepMs: number | undefined
      while (performance.now() - deepStarted < 30_000) {
        if (await page.evaluate(text => [...document.querySelectorAll('[data-chat-anchor-key]')].some(row => row.getClientRects().length > 0 && (row.textContent ?? '').includes(text) && row.getBoundingClientRect().bottom > 0 && row.getBoundingClientRect().top < window.innerHeight), deepText)) {
          deepMs = performance.now() - deepStarted
          break
        }
        await page.waitForTimeout(10)
      }
      return { browserMessages: messages, pasteToChip: percentiles(paste), openAtMessage: percentiles(open), openedNumber: target.number, deepNumber: deep.number, ...(deepMs === undefined ? {} : { deepMs }), discontinuous }
    } finally {
      await browser.close()
      await web.stop()
    }
  } finally {
    await model.stop()
    rmSync(home.home, { recursive: true, force: true })
  }
}

/**
 * Runs both halves.
 * @param hostBin - the pinned host's bin folder.
 * @param tarball - the packed plugin.
 * @param runs - samples per measure.
 * @returns the figures.
 */
export async function measureParts(hostBin: string, tarball: string, runs: number): Promise<PartFigures> {
  const inner = await inProcess(5_000, runs)
  const outer = await inBrowser(hostBin, tarball, 500, Math.max(3, Math.min(runs, 10)))
  return { ...inner, ...outer }
}

const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`)

/**
 * The report.
 * @param figures - the figures.
 * @returns its lines.
 */
export function partsReport(figures: PartFigures): string[] {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
  return [
    `Part references, one source of ${figures.messages.toLocaleString('en')} messages (pre-step p50 / p95):`,
    `  official prepare() of the whole session:  ${ms(figures.official.p50)} / ${ms(figures.official.p95)}`,
    `  plugin, whole-session reference:          ${ms(figures.whole.p50)} / ${ms(figures.whole.p95)}`,
    `  plugin, reference to one reply:           ${ms(figures.part.p50)} / ${ms(figures.part.p95)}   (target: p95 no more than the whole-session one)`,
    `  what the model gets: whole ${kb(figures.wholeBytes)}${figures.wholeTokens === undefined ? '' : ` ≈${figures.wholeTokens} tokens`} (cut to the budget), one reply ${kb(figures.partBytes)}${figures.partTokens === undefined ? '' : ` ≈${figures.partTokens} tokens`}`,
    `Real host and Chromium, one source of ${figures.browserMessages} messages:`,
    `  paste a message reference → chip drawn (input event to the frame that draws it): ${ms(figures.pasteToChip.p50)} / ${ms(figures.pasteToChip.p95)}   (target ≤ 50 ms)`,
    `  click the sent reference → message #${figures.openedNumber} in view: ${ms(figures.openAtMessage.p50)} / ${ms(figures.openAtMessage.p95)}   (target ≤ 1 s)`,
    `  click the sent reference → message #${figures.deepNumber} (four pages of history back) in view: ${figures.deepMs === undefined ? 'not reached in 30 s' : ms(figures.deepMs)}${figures.discontinuous ? '; rc.8 reported "history page discontinuous" and stopped loading older history' : ''}`,
  ]
}
