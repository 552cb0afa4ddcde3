/**
 * Part references and long sessions, in one run:
 *
 * - long sessions through the real dsh host, one home: a stored session of
 *   5,000 messages (2,500 turns of realistic text from `dev/corpus.ts`, half
 *   with tool calls, one late message mixing Chinese, emoji and a literal
 *   `</referenced-sessions>`) referenced whole. The bare rc.8 host (its own
 *   official listener: prompt to model request) first, then the plugin added
 *   and the host restarted: the plugin's pre-step (prompt to model request),
 *   its preflight route, and the chip's size and token estimate in Chromium
 *   (the option's click to the reference dock showing them), each with the
 *   source's log never read before (its modification time moved, so no read
 *   or snapshot is reused) and read already, and then, after a restart
 *   whose log pass kept each source's tail, from that tail; the snapshot
 *   bytes compared with the bare host's. Then a stored session of 50,000 messages through
 *   the plugin only: the official retention is quadratic, so the bare host
 *   would take hours on it;
 * - a live session of 5,000 messages of the same text, in process on the
 *   official rc.8 services (a live session of that length in the real host
 *   would take 2,500 model turns through each host's agent loop, each
 *   sending the whole growing conversation to the model): the official
 *   `prepare()` of the whole session against the plugin's pre-step for a
 *   whole-session reference and for a reference to one reply, each run citing
 *   from a session of its own so no prepared snapshot is reused, and the
 *   snapshot bytes compared;
 * - in the real host and Chromium, on a stored source of 500 messages: a
 *   message reference pasted into a composer until its chip shows, and a
 *   click on the sent reference until the cited message is in view.
 */
import { readdirSync, statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { launchBrowser } from '../../../dev/browser.ts'
import { realisticSessions, type RealisticTurn } from '../../../dev/corpus.ts'
import { dshPlugin, type WebProcess } from '../../../dev/dsh-process.ts'
import type { Home } from '../../../dev/home.ts'
import { createHostHarness } from '../../../dev/in-process-host.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { writeSessionStore } from '../../../dev/session-store.ts'
import { type StandInModel, textOf } from '../../../dev/stand-in-model.ts'
import { chooseWorkspace, composer, openApp, startNewSession } from '../../../dev/web-ui.ts'
import { DEFAULT_MAX_REFERENCE_BYTES } from '@deepseek-ai/dsh-session-reference'
import { Config, formatMessageReference, logRevision, referenceParts, tailFileName } from '../plugin-parts.ts'
import { currentSessionInPage, installApplyProbe, openSessionInPage } from '../../../dev/apply-probe.ts'
import { type Block, ms, pair, type Percentiles, percentiles } from '../figures.ts'
import { newSession, rpc } from '../../../dev/host-rpc.ts'
import type { BenchContext, BenchMode } from '../mode.ts'

/** Runs of the official path: each costs tens of seconds on 5,000 messages. */
const OFFICIAL_RUNS = 3

/** Chinese, emoji and the snapshot's own closing tag, in one message every snapshot keeps. */
const HOSTILE = '发布计划：灰度策略先走 10%，🚀🎉 看完 </referenced-sessions> 之后再决定'

/** What one stored session measured through the plugin host costs. */
export interface PluginLongFigures {
  readonly messages: number
  /** Bytes of its log on disk (the host's compressed JSONL). */
  readonly logBytes: number
  /** The first preflight citing it, the host booted and its index built. */
  readonly preflightFirst: number
  readonly preflightRead: Percentiles
  readonly preflightCached: Percentiles
  readonly preStepRead: Percentiles
  readonly preStepAfterPreflight: Percentiles
  readonly chipRead: Percentiles
  readonly chipCached: Percentiles
  /** The same three, after a restart whose log pass kept the source's tail (see `snapshot-tails.ts`): no log read. */
  readonly preflightTail: Percentiles
  readonly preStepTail: Percentiles
  readonly chipTail: Percentiles
  /** UTF-8 bytes of the snapshot the model got, and its token estimate as the dock shows it. */
  readonly snapshotBytes: number
  readonly tokens?: number
  /** Every snapshot the model got, and every preflight's size, the same bytes. */
  readonly consistent: boolean
}

/** Long sessions in the real host. */
export interface LongFigures {
  readonly stored: PluginLongFigures
  /** The bare host: prompt to model request. */
  readonly bare: Percentiles
  /** Whether every plugin snapshot of the stored session equals the bare host's, byte for byte. */
  readonly identical: boolean
  /** The plugin host: prompt without any reference to model request. */
  readonly baseline: Percentiles
  readonly huge: PluginLongFigures
  /** From the plugin host's boot until its content index answered for every session. */
  readonly indexedMs: number
}

/** A live session in process. */
export interface LiveFigures {
  readonly messages: number
  readonly official: Percentiles
  readonly whole: Percentiles
  readonly part: Percentiles
  readonly wholeBytes: number
  readonly partBytes: number
  readonly wholeTokens?: number
  readonly partTokens?: number
  /** Whether the plugin's whole-session snapshot equalled the official one in every official run. */
  readonly identical: boolean
}

/** The figures. */
export interface PartFigures {
  readonly live: LiveFigures
  readonly long: LongFigures
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

/**
 * Turns of realistic text, with their tool calls, the hostile text as the
 * third-last user message (so every snapshot keeps it).
 * @param count - how many turns (two messages each).
 * @param seed - the corpus seed.
 * @returns the turns, oldest first.
 */
function longTurns(count: number, seed: number): RealisticTurn[] {
  const turns: RealisticTurn[] = []
  for (const spec of realisticSessions(hostDir(), { sessions: Number.MAX_SAFE_INTEGER, workspaces: 1, seed })) {
    for (const turn of spec.turns) {
      if (turns.length === count) break
      turns.push(turn)
    }
    if (turns.length === count) break
  }
  turns[count - 3] = { ...turns[count - 3]!, user: HOSTILE }
  return turns
}

const mentionOf = (sessionId: string, label: string) => `@[${label}](dsh-session:${Buffer.from(JSON.stringify(sessionId)).toString('base64url')})`

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8')

async function liveInProcess(messages: number, runs: number): Promise<LiveFigures> {
  const harness = await createHostHarness()
  const { catalog: index, preparer, check } = referenceParts(harness.ctx)
  const source = 'session-source'
  const label = 'Ingest worker notes'
  harness.session(source, { cwd: '/w/alpha', title: label })
  const writing = performance.now()
  for (const turn of longTurns(messages / 2, 33)) harness.turn(source, turn.user, turn.reply)
  console.log(`live source of ${messages} messages written in ${(performance.now() - writing).toFixed(0)} ms`)
  const surface = await harness.ctx.sessionQuery.readSurface(source as never)
  const replies = surface.events.filter(event => event.type === 'assistant/message')
  const cited = replies[Math.floor(replies.length / 2)]!.seq
  let citing = 0
  const nextTarget = () => ({ id: harness.session(`session-citing-${citing++}`, { cwd: '/w/alpha' }) as string, cwd: '/w/alpha' })
  await index.ready()
  const config = Config({})
  const whole = `compare ${mentionOf(source, label)} please`
  const part = `compare ${formatMessageReference({ sessionId: source, selection: [[cited, cited]], label: `${label} · #n` })} please`
  const textOfCheck = (result: Awaited<ReturnType<typeof check.message>>) => {
    if (result.prepared?.additionalContext === undefined) throw new Error('a reference was not attached')
    return result.prepared.additionalContext.content.map(block => (block.type === 'text' ? block.text : '')).join('')
  }
  const samples = { whole: [] as number[], part: [] as number[], official: [] as number[] }
  let bytes = { whole: 0, part: 0 }
  for (let n = 0; n < runs + 5; n += 1) {
    let started = performance.now()
    const wholeText = textOfCheck(await check.message({ target: nextTarget(), content: [{ type: 'text', text: whole }] }, config))
    const wholeMs = performance.now() - started
    started = performance.now()
    const partText = textOfCheck(await check.message({ target: nextTarget(), content: [{ type: 'text', text: part }] }, config))
    const partMs = performance.now() - started
    bytes = { whole: utf8(wholeText), part: utf8(partText) }
    if (n < 5) continue
    samples.whole.push(wholeMs)
    samples.part.push(partMs)
  }
  console.log(`live, plugin pre-step: whole p50 ${ms(percentiles(samples.whole).p50)}, part p50 ${ms(percentiles(samples.part).p50)}`)
  let identical = true
  for (let n = 0; n < OFFICIAL_RUNS; n += 1) {
    const target = nextTarget()
    const started = performance.now()
    const official = await harness.ctx.sessionReferenceResolver.prepare({ id: target.id } as never, [{ type: 'text', text: 'compare please' }], [{ sessionId: source as never, label }])
    samples.official.push(performance.now() - started)
    const officialText = official.additionalContext!.content.map(block => (block.type === 'text' ? block.text : '')).join('')
    const ours = textOfCheck(await check.message({ target: nextTarget(), content: [{ type: 'text', text: whole }] }, config))
    identical &&= ours === officialText
    console.log(`live, official prepare() run ${n + 1}/${OFFICIAL_RUNS}: ${ms(samples.official.at(-1)!)}; plugin snapshot ${ours === officialText ? 'identical' : 'DIFFERENT'} (${utf8(officialText)} bytes)`)
  }
  const measured = await Promise.all([
    preparer.measure({ id: 'session-measure', cwd: '/w/alpha' }, { sessionId: source as never, label }),
    preparer.measure({ id: 'session-measure', cwd: '/w/alpha' }, { sessionId: source as never, label, selection: [[cited, cited]] }),
  ])
  await harness.dispose()
  return {
    messages,
    official: percentiles(samples.official),
    whole: percentiles(samples.whole),
    part: percentiles(samples.part),
    wholeBytes: bytes.whole,
    partBytes: bytes.part,
    identical,
    ...(measured[0].tokens === undefined ? {} : { wholeTokens: measured[0].tokens }),
    ...(measured[1].tokens === undefined ? {} : { partTokens: measured[1].tokens }),
  }
}

/** The log file of a stored session: `<sessions>/<workspace>/<id>/session.jsonl…`. */
function logFileOf(home: Home, id: string): string {
  const root = join(home.dshHome, 'sessions')
  for (const workspace of readdirSync(root)) {
    const folder = join(root, workspace, id)
    try {
      const file = readdirSync(folder).find(name => name.startsWith('session.jsonl'))
      if (file !== undefined) return join(folder, file)
    } catch {
      // not in this workspace
    }
  }
  throw new Error(`no log of ${id} under ${root}`)
}

/** Moves a log's modification time to one it never had: the plugin reads it again and prepares its snapshot again, as for a source never read. */
function makeUnread(file: string): void {
  touched += 1
  const when = new Date(Date.UTC(2026, 0, 1) + touched * 1000)
  utimesSync(file, when, when)
}
let touched = 0

/** Sends a message in a session through the host's own prompt method; the time until the model's request for it, and the snapshot after the message. */
async function promptToRequest(web: WebProcess, model: StandInModel, sessionId: string, text: string): Promise<{ ms: number; snapshot?: string }> {
  const started = performance.now()
  await rpc(web.url, 'session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text }] })
  for (;;) {
    const request = model.turns().find(turn => turn.sessionId === sessionId)
    if (request !== undefined) {
      const elapsed = performance.now() - started
      const texts = request.body.messages.filter(message => message.role === 'user').map(textOf)
      const at = texts.findIndex(message => message === text || message.startsWith(text.split(' ')[0]!))
      const next = texts[at + 1]
      return { ms: elapsed, ...(next?.startsWith('## Referenced sessions') === true ? { snapshot: next } : {}) }
    }
    if (performance.now() - started > 600_000) throw new Error(`no model request for ${sessionId} in 10 minutes`)
    await new Promise(resolve => setTimeout(resolve, 5))
  }
}

interface PreflightSource { ok: boolean; bytes?: number; tokens?: number; code?: string }

async function preflight(url: string, sessionId: string, text: string, chips: readonly string[]): Promise<{ ms: number; source: PreflightSource }> {
  const started = performance.now()
  const res = await fetch(`${url}/dsh-sessions/preflight`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ citingSessionId: sessionId, text, chips }) })
  const json = await res.json() as { ok: boolean; sources: PreflightSource[] }
  const elapsed = performance.now() - started
  if (res.status !== 200 || json.ok !== true || json.sources[0]?.ok !== true) throw new Error(`preflight refused: ${res.status} ${JSON.stringify(json).slice(0, 500)}`)
  return { ms: elapsed, source: json.sources[0] }
}

/** Picks a session from the `@` menu of a fresh draft; the time from the pick until the reference dock shows its size and token estimate. */
async function chipEstimate(page: Page, url: string, word: string, title: string): Promise<number> {
  // A fresh page: the dock of a page that measured the same chip before would show that measure at once.
  await openApp(page, url)
  await startNewSession(page)
  await chooseWorkspace(page, 'alpha')
  await composer(page).fill('size marker')
  await composer(page).press('End')
  await composer(page).pressSequentially(` @${word}`)
  const option = page.getByRole('listbox').getByRole('option', { name: new RegExp(`^${title}`) })
  try {
    await option.waitFor({ timeout: 30_000 })
  } catch (error) {
    const shown = await page.getByRole('option').allInnerTexts().catch(() => [])
    throw new Error(`no "${title}" option in 30 s; the menu shows ${JSON.stringify(shown.map(text => text.split('\n')[0]))}; the composer holds ${JSON.stringify(await composer(page).inputValue())}`, { cause: error })
  }
  const shown = page.evaluate(name => new Promise<number>((resolve, reject) => {
    // The menu takes the pick as the pointer goes down (the option is gone before a click could reach it).
    let pickedAt: number | undefined
    const onPick = (event: Event) => {
      if (event.target instanceof Element && event.target.closest('[role=option]') !== null) pickedAt ??= performance.now()
    }
    document.addEventListener('pointerdown', onPick, { capture: true })
    const dock = () => [...document.querySelectorAll('[data-dsh-sessions-reference-dock] li')].map(row => row.textContent ?? '')
    const estimated = () => dock().some(row => row.includes(name) && /(kB|byte).*≈[\d,]+/.test(row))
    const observer = new MutationObserver(() => {
      if (pickedAt === undefined || !estimated()) return
      observer.disconnect()
      document.removeEventListener('pointerdown', onPick, { capture: true })
      resolve(performance.now() - pickedAt)
    })
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
    setTimeout(() => reject(new Error(`no size estimate within 60 s (picked: ${pickedAt !== undefined}; dock: ${JSON.stringify(dock())})`)), 60_000)
  }), title)
  await option.click()
  return shown
}

interface StoredSource { readonly id: string; readonly title: string; readonly word: string; readonly messages: number; readonly log: string }

/** The folder where the plugin keeps the tails of long sessions. */
const tailsDir = (home: Home) => join(home.dshHome, 'dsh-sessions', 'snapshot-tails')

/** Waits until the plugin's log pass has kept a tail of each source's current log (under the official default budget, which the bench keeps). */
async function tailsKept(home: Home, sources: readonly StoredSource[]): Promise<number> {
  const started = performance.now()
  for (;;) {
    let files: string[] = []
    try {
      files = readdirSync(tailsDir(home))
    } catch {
      // not made yet
    }
    if (sources.every(source => files.includes(tailFileName(source.id, logRevision(statSync(source.log)), DEFAULT_MAX_REFERENCE_BYTES)))) return performance.now() - started
    if (performance.now() - started > 600_000) throw new Error('the log pass kept no tail of the long sessions in 10 minutes')
    await new Promise(resolve => setTimeout(resolve, 250))
  }
}

/** The plugin host's figures for one stored source whose tail is kept: each run from a new session, the log untouched. */
async function tailFigures(web: WebProcess, model: StandInModel, home: Home, source: StoredSource, runs: number, browser: { page: Page }): Promise<{ preflightTail: Percentiles; preStepTail: Percentiles; chipTail: Percentiles; snapshots: string[]; sizes: number[] }> {
  const cwd = home.project('alpha')
  // Words before the mention keep the source's title out of the stand-in model's title of the citing session (its first four words): titles holding it would crowd the source out of the `@` menu's newest-first title matches.
  const text = (marker: string) => `${marker} about the plans, compare ${mentionOf(source.id, source.title)} please`
  const label = `${source.messages.toLocaleString('en')} messages`
  const snapshots: string[] = []
  const sizes: number[] = []
  const series = async (name: string, step: (n: number) => Promise<number>) => {
    const samples: number[] = []
    for (let n = 0; n < runs; n += 1) samples.push(await step(n))
    console.log(`${label}: ${name} ${pair(percentiles(samples))}`)
    return percentiles(samples)
  }
  const chipTail = await series('chip picked → size estimate shown, tail kept', () => chipEstimate(browser.page, web.url, source.word, source.title))
  const preflightTail = await series('preflight, tail kept', async () => {
    const { ms: elapsed, source: measured } = await preflight(web.url, await newSession(web.url, cwd), text('PREFLIGHT-T'), [source.id])
    sizes.push(measured.bytes!)
    return elapsed
  })
  const preStepTail = await series('prompt → model request, tail kept', async n => {
    const sent = await promptToRequest(web, model, await newSession(web.url, cwd), text(`STEP-T${n}`))
    if (sent.snapshot === undefined) throw new Error(`no snapshot followed the message (${label}, tail kept)`)
    snapshots.push(sent.snapshot)
    return sent.ms
  })
  return { preflightTail, preStepTail, chipTail, snapshots, sizes }
}

/** The plugin host's figures for one stored source. */
async function pluginFigures(web: WebProcess, model: StandInModel, home: Home, source: StoredSource, runs: number, browser: { page: Page }, expected?: string): Promise<Omit<PluginLongFigures, 'preflightTail' | 'preStepTail' | 'chipTail'> & { snapshots: string[] }> {
  const cwd = home.project('alpha')
  // Words before the mention keep the source's title out of the stand-in model's title of the citing session (its first four words): titles holding it would crowd the source out of the `@` menu's newest-first title matches.
  const text = (marker: string) => `${marker} about the plans, compare ${mentionOf(source.id, source.title)} please`
  const chips = [source.id]
  const sizes = new Set<number>()
  const tokens = new Set<number>()
  const snapshots: string[] = []
  const label = `${source.messages.toLocaleString('en')} messages`
  makeUnread(source.log)
  const first = await preflight(web.url, await newSession(web.url, cwd), text('FIRST'), chips)
  sizes.add(first.source.bytes!)
  if (first.source.tokens !== undefined) tokens.add(first.source.tokens)
  console.log(`${label}: first preflight ${ms(first.ms)} (${first.source.bytes} bytes ≈${first.source.tokens} tokens)`)
  const series = async (name: string, unread: boolean, step: (n: number) => Promise<number>) => {
    const samples: number[] = []
    for (let n = 0; n < runs; n += 1) {
      if (unread) makeUnread(source.log)
      samples.push(await step(n))
    }
    console.log(`${label}: ${name} ${pair(percentiles(samples))}`)
    return percentiles(samples)
  }
  // Each preflight and each prompt from a new session of its own, so no prepared snapshot is reused.
  const preflightStep = async () => {
    const { ms: elapsed, source: measured } = await preflight(web.url, await newSession(web.url, cwd), text('PREFLIGHT'), chips)
    sizes.add(measured.bytes!)
    if (measured.tokens !== undefined) tokens.add(measured.tokens)
    return elapsed
  }
  const preStep = (after: boolean) => async (n: number) => {
    const session = await newSession(web.url, cwd)
    const message = text(`STEP-${after ? 'A' : 'R'}${n}`)
    if (after) await preflight(web.url, session, message, chips)
    const sent = await promptToRequest(web, model, session, message)
    if (sent.snapshot === undefined) throw new Error(`no snapshot followed the message (${label})`)
    snapshots.push(sent.snapshot)
    return sent.ms
  }
  const preflightRead = await series('preflight, log never read', true, preflightStep)
  const preflightCached = await series('preflight, log read already', false, preflightStep)
  const preStepRead = await series('prompt → model request, log never read', true, preStep(false))
  const preStepAfterPreflight = await series('prompt → model request after its preflight', false, preStep(true))
  const chipRead = await series('chip picked → size estimate shown, log never read', true, () => chipEstimate(browser.page, web.url, source.word, source.title))
  const chipCached = await series('chip picked → size estimate shown, log read already', false, () => chipEstimate(browser.page, web.url, source.word, source.title))
  const snapshotBytes = utf8(snapshots[0]!)
  const consistent = snapshots.every(snapshot => snapshot === snapshots[0]) && sizes.size === 1 && sizes.has(snapshotBytes) && tokens.size <= 1
  if (expected !== undefined) console.log(`${label}: plugin snapshots ${snapshots.every(snapshot => snapshot === expected) ? 'identical to' : 'DIFFERENT from'} the bare host's`)
  return {
    messages: source.messages,
    logBytes: statSync(source.log).size,
    preflightFirst: first.ms,
    preflightRead,
    preflightCached,
    preStepRead,
    preStepAfterPreflight,
    chipRead,
    chipCached,
    snapshotBytes,
    ...(tokens.size === 1 ? { tokens: [...tokens][0]! } : {}),
    consistent,
    snapshots,
  }
}

async function longInRealHost(context: BenchContext, runs: number): Promise<LongFigures> {
  let stored: StoredSource | undefined
  let huge: StoredSource | undefined
  // The bare host first: its own official listener resolves the canonical mention.
  const stack = await context.stack({
    beforeBoot: async home => {
      const cwd = home.project('alpha')
      const started = performance.now()
      const specs = [
        { title: 'Long ingest notes', word: 'Long', turns: longTurns(2_500, 33) },
        { title: 'Huge ingest notes', word: 'Huge', turns: longTurns(25_000, 34) },
      ]
      const written = await writeSessionStore(hostDir(), home, specs.map(spec => ({ cwd, title: spec.title, text: spec.turns[0]!.user, turns: spec.turns })), { titleCache: false })
      ;[stored, huge] = written.map((session, n): StoredSource => ({ id: session.id, title: specs[n]!.title, word: specs[n]!.word, messages: specs[n]!.turns.length * 2, log: logFileOf(home, session.id) }))
      specs.length = 0
      console.log(`stored sessions of ${stored!.messages} and ${huge!.messages} messages written in ${ms(performance.now() - started)} (logs ${(statSync(stored!.log).size / 1e6).toFixed(1)} MB and ${(statSync(huge!.log).size / 1e6).toFixed(1)} MB compressed)`)
    },
  })
  const { home, model, options } = stack
  try {
    const cwd = home.project('alpha')
    let web = stack.web
    const bare: number[] = []
    const bareSnapshots: string[] = []
    for (let n = 0; n < OFFICIAL_RUNS; n += 1) {
      const sent = await promptToRequest(web, model, await newSession(web.url, cwd), `BARE-${n} compare ${mentionOf(stored!.id, stored!.title)} please`)
      if (sent.snapshot === undefined) throw new Error('the bare host attached no snapshot')
      bare.push(sent.ms)
      bareSnapshots.push(sent.snapshot)
      console.log(`${stored!.messages} messages, bare rc.8 host run ${n + 1}/${OFFICIAL_RUNS}: prompt → model request ${ms(sent.ms)} (${utf8(sent.snapshot)} bytes)`)
    }
    await stack.halt()

    dshPlugin(options, ['add', context.tarball()])
    const started = performance.now()
    web = await stack.start()
    const browser = await launchBrowser()
    try {
      await openApp(browser.page, web.url)
      for (;;) {
        const status = await (await fetch(`${web.url}/dsh-sessions/content-index`)).json() as { ready: boolean }
        if (status.ready) break
        if (performance.now() - started > 900_000) throw new Error('the content index was not built in 15 minutes')
        await new Promise(resolve => setTimeout(resolve, 500))
      }
      const indexedMs = performance.now() - started
      console.log(`plugin host booted and its content index built in ${ms(indexedMs)}`)
      const baseline: number[] = []
      for (let n = 0; n < runs; n += 1) baseline.push((await promptToRequest(web, model, await newSession(web.url, cwd), `PLAIN-${n} no reference here`)).ms)
      const storedFigures = await pluginFigures(web, model, home, stored!, runs, browser, bareSnapshots[0])
      const hugeFigures = await pluginFigures(web, model, home, huge!, Math.min(runs, 10), browser)
      // Restarted: the log pass reads the logs touched above and keeps their tails; nothing of the runs before is in memory.
      await stack.halt()
      const restarted = performance.now()
      web = await stack.start()
      await openApp(browser.page, web.url)
      const keptMs = await tailsKept(home, [stored!, huge!])
      console.log(`plugin host restarted; the tails of both long sessions kept ${ms(performance.now() - restarted)} after the restart (${ms(keptMs)} after the app opened)`)
      const storedTail = await tailFigures(web, model, home, stored!, runs, browser)
      const hugeTail = await tailFigures(web, model, home, huge!, Math.min(runs, 10), browser)
      const identical = bareSnapshots.every(snapshot => snapshot === bareSnapshots[0])
        && [...storedFigures.snapshots, ...storedTail.snapshots].every(snapshot => snapshot === bareSnapshots[0])
        && storedTail.sizes.every(size => size === storedFigures.snapshotBytes)
      console.log(`${stored!.messages} messages: snapshots from the tail ${storedTail.snapshots.every(snapshot => snapshot === bareSnapshots[0]) ? 'identical to' : 'DIFFERENT from'} the bare host's`)
      const hugeConsistent = hugeFigures.consistent && hugeTail.snapshots.every(snapshot => snapshot === hugeFigures.snapshots[0]) && hugeTail.sizes.every(size => size === hugeFigures.snapshotBytes)
      const { snapshots: _stored, ...storedRest } = storedFigures
      const { snapshots: _huge, ...hugeRest } = hugeFigures
      const tails = (figures: typeof storedTail) => ({ preflightTail: figures.preflightTail, preStepTail: figures.preStepTail, chipTail: figures.chipTail })
      return {
        stored: { ...storedRest, ...tails(storedTail) },
        bare: percentiles(bare),
        identical,
        baseline: percentiles(baseline),
        huge: { ...hugeRest, ...tails(hugeTail), consistent: hugeConsistent },
        indexedMs,
      }
    } finally {
      await browser.close()
    }
  } finally {
    await stack.stop()
  }
}

export async function inBrowser(context: BenchContext, messages: number, runs: number): Promise<Pick<PartFigures, 'browserMessages' | 'pasteToChip' | 'openAtMessage' | 'openedNumber' | 'deepNumber' | 'deepMs' | 'discontinuous'>> {
  let stored: { id: string } | undefined
  const stack = await context.stack({
    tarball: context.tarball(),
    beforeBoot: async home => {
      const turns = Array.from({ length: messages / 2 }, (_, n) => ({ user: question(n), reply: answer(n) }))
      ;[stored] = await writeSessionStore(hostDir(), home, [{ cwd: home.project('alpha'), title: 'Ingest worker notes', text: turns[0]!.user, turns }], { titleCache: false })
    },
  })
  const { home, model, web } = stack
  try {
    const browser = await launchBrowser()
    await installApplyProbe(browser.context, '@wishp3/dsh-sessions', 'dsh-sessions')
    try {
      const page = browser.page
      // rc.8's own paging reports a page of history that does not meet the one after it (and then stops loading older history).
      let discontinuous = false
      page.on('console', message => { if (message.text().includes('history page discontinuous')) discontinuous = true })
      await openApp(page, web.url)
      // The oldest message the route lists (the latest 200): older pages of history must load to reach it.
      // Asked for a draft of the source's workspace: the route takes the citing session's workspace from the host.
      const draft = await newSession(web.url, home.project('alpha'))
      const listing = await (await fetch(`${web.url}/dsh-sessions/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ citingSessionId: draft, sourceId: stored!.id }) })).json() as { messages: { seq: number; number: number; excerpt: string }[] }
      const target = listing.messages[listing.messages.length - 30]!
      const deep = listing.messages[0]!
      const reference = await (await fetch(`${web.url}/dsh-sessions/message-reference`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sourceId: stored!.id, seq: target.seq }) })).json() as { mention: string }
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
      await composer(page).fill(`DEEP-MARK ${(await (await fetch(`${web.url}/dsh-sessions/message-reference`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sourceId: stored!.id, seq: deep.seq }) })).json() as { mention: string }).mention}`)
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
    }
  } finally {
    await stack.stop()
  }
}

/**
 * Runs every part: long sessions in the real host, a live one in process, part references in Chromium.
 * @param context - the bench's set-up.
 * @param runs - samples per measure (the real-host series take at most 20, the 50,000-message ones 10, the official path 3).
 * @returns the figures.
 */
export async function measureParts(context: BenchContext, runs: number): Promise<PartFigures> {
  const long = await longInRealHost(context, Math.min(runs, 20))
  const live = await liveInProcess(5_000, runs)
  const outer = await inBrowser(context, 500, Math.max(3, Math.min(runs, 10)))
  return { live, long, ...outer }
}

/**
 * The report as tables: the long sessions through the real host, the live
 * session in process, the browser's part references.
 * @param figures - the figures.
 * @returns its blocks.
 */
export function partsBlocks(figures: PartFigures): Block[] {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
  const yes = (value: boolean) => (value ? 'yes' : 'NO')
  const { long, live } = figures
  const { stored, huge } = long
  const count = (n: number) => n.toLocaleString('en')
  const model = (source: PluginLongFigures) => `${kb(source.snapshotBytes)}${source.tokens === undefined ? '' : ` ≈${count(source.tokens)} tokens`}`
  const runs = (p: Percentiles) => `${pair(p)} (${p.runs} runs)`
  return [
    {
      kind: 'table',
      table: {
        title: `Long sessions through the real host (dsh 0.1.0-rc.8, one home, the bare host first, then the plugin added), a whole-session reference of a stored session, p50 / p95; logs ${mb(stored.logBytes)} and ${mb(huge.logBytes)} compressed; the plugin's content index covered both ${ms(long.indexedMs)} after its boot`,
        columns: ['What', `${count(stored.messages)} messages`, `${count(huge.messages)} messages`, 'Target'],
        rows: [
          ['bare rc.8 host, prompt → model request (its official listener)', runs(long.bare), 'not run (quadratic: hours)', '—'],
          ['plugin host, prompt → model request, log never read', runs(stored.preStepRead), runs(huge.preStepRead), '≤ 200 ms; 50,000 messages ≤ 2 s'],
          ['plugin host, prompt → model request after the draft\'s preflight', pair(stored.preStepAfterPreflight), pair(huge.preStepAfterPreflight), '≤ 200 ms'],
          ['preflight route, log never read', pair(stored.preflightRead), pair(huge.preflightRead), '≤ 200 ms; 50,000 messages ≤ 2 s'],
          ['preflight route, log read already', pair(stored.preflightCached), pair(huge.preflightCached), '≤ 200 ms'],
          ['first preflight after the host\'s boot and index build', ms(stored.preflightFirst), ms(huge.preflightFirst), '—'],
          ['chip picked → the dock shows its size and tokens, log never read', pair(stored.chipRead), pair(huge.chipRead), '≤ 300 ms'],
          ['chip picked → the dock shows its size and tokens, log read already', pair(stored.chipCached), pair(huge.chipCached), '≤ 300 ms'],
          ['plugin host, prompt → model request, tail kept by the log pass', runs(stored.preStepTail), runs(huge.preStepTail), '≤ 200 ms; 50,000 messages ≤ 2 s'],
          ['preflight route, tail kept by the log pass', pair(stored.preflightTail), pair(huge.preflightTail), '≤ 200 ms; 50,000 messages ≤ 2 s'],
          ['chip picked → the dock shows its size and tokens, tail kept by the log pass', pair(stored.chipTail), pair(huge.chipTail), '≤ 300 ms'],
          ['plugin host, a prompt without any reference → model request', pair(long.baseline), '—', '—'],
          ['what the model gets', `${model(stored)}; identical to the bare host's in every run: ${yes(long.identical)}`, `${model(huge)}; the same bytes in every run and preflight: ${yes(huge.consistent)}`, 'identical'],
        ],
      },
    },
    {
      kind: 'table',
      table: {
        title: `A live session of ${count(live.messages)} messages (the same realistic text, without tool calls), in process on the official rc.8 services, each run citing from a session of its own, p50 / p95`,
        columns: ['What', 'Measured', 'Target'],
        rows: [
          ['official prepare() of the whole session', runs(live.official), '—'],
          ['plugin, whole-session reference', runs(live.whole), '≤ 200 ms'],
          ['plugin, reference to one reply', runs(live.part), 'p95 no more than the whole-session one'],
          ['what the model gets', `whole ${kb(live.wholeBytes)}${live.wholeTokens === undefined ? '' : ` ≈${count(live.wholeTokens)} tokens`} (cut to the budget), one reply ${kb(live.partBytes)}${live.partTokens === undefined ? '' : ` ≈${count(live.partTokens)} tokens`}; whole identical to the official prepare()'s in every run: ${yes(live.identical)}`, 'identical'],
        ],
      },
    },
    {
      kind: 'table',
      table: {
        title: `Part references in the real host and Chromium, one source of ${count(figures.browserMessages)} messages, p50 / p95`,
        columns: ['What', 'Measured', 'Target'],
        rows: [
          ['paste a message reference → chip drawn (input event to the frame that draws it)', pair(figures.pasteToChip), '≤ 50 ms'],
          [`click the sent reference → message #${figures.openedNumber} in view`, pair(figures.openAtMessage), '≤ 1 s'],
          [`click the sent reference → message #${figures.deepNumber} (four pages of history back) in view, once`, `${figures.deepMs === undefined ? 'not reached in 30 s' : ms(figures.deepMs)}${figures.discontinuous ? '; rc.8 reported "history page discontinuous"' : ''}`, '—'],
        ],
      },
    },
  ]
}

/** `--only parts`: long sessions and part references, in the real host, in process and in Chromium. */
export const parts: BenchMode = {
  name: 'parts',
  summary: 'long sessions (5,000 and 50,000 messages) and part references, bare host beside the plugin',
  async run(context) {
    const runs = Math.min(context.settings.runs, 30)
    const figures = await measureParts(context, runs)
    return {
      mode: 'parts',
      settings: { runs, realHostRuns: Math.min(runs, 20), hugeRuns: Math.min(runs, 10), officialRuns: OFFICIAL_RUNS, browserRuns: Math.max(3, Math.min(runs, 10)) },
      figures,
      units: {
        messages: 'count', logBytes: 'bytes', snapshotBytes: 'bytes', wholeBytes: 'bytes', partBytes: 'bytes', tokens: 'tokens', wholeTokens: 'tokens', partTokens: 'tokens',
        preflightFirst: 'ms', indexedMs: 'ms', deepMs: 'ms', openedNumber: 'message number', deepNumber: 'message number', browserMessages: 'count',
      },
      blocks: partsBlocks(figures),
    }
  },
}
