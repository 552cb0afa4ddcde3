/**
 * `npm run screenshots`: every picture in `docs/screenshots/`, made again
 * from the real host. It boots the pinned `dsh web` 0.1.0-rc.8 with the
 * plugin from its packed tarball, `npm start`'s demo sessions (plus a few
 * the pictures need) and the stand-in model, on a throwaway home, then drives
 * one English and one Chinese browser (the page's locale picks the UI
 * language) through each feature and saves a cropped PNG of each, at most
 * 150 KB. The Chinese pictures need a CJK font (`fc-list :lang=zh`); the
 * toolchain installs `fonts-wqy-microhei` through apt when there is none.
 * Pictures the command no longer makes are deleted, so the folder holds only
 * what it made.
 *
 *   npm run screenshots [-- --only <name>[,<name>…]] [-- --out <folder>]
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import type { Locator, Page } from 'playwright-core'
import { installApplyProbe, openSessionInPage } from '../dev/apply-probe.ts'
import { type Browser, launchBrowser } from '../dev/browser.ts'
import { dshPlugin, startWeb, type WebProcess } from '../dev/dsh-process.ts'
import { createHome } from '../dev/home.ts'
import { repoRoot } from '../dev/paths.ts'
import { ensureHost, hostDir } from '../dev/pinned-host.ts'
import { packPlugin } from '../dev/plugin-tarball.ts'
import { type StoredSession, writeSessionStore } from '../dev/session-store.ts'
import { PLUGIN } from '../dev/stack.ts'
import { humanText, startModel, type ToolCall, toolAnswersSinceHuman, type WireMessage } from '../dev/stand-in-model.ts'
import { chooseWorkspace, composer, frames, openApp, selectText, startNewSession } from '../dev/web-ui.ts'
import { demoReply } from './demo/reply.ts'
import { demoSessions } from './demo/sessions.ts'

/** Largest picture, in bytes. */
export const PICTURE_LIMIT = 150 * 1024

/** Every picture the command makes, each in English and Chinese (`<name>-en.png`, `<name>-zh.png`). */
export const PICTURES = [
  'at-menu', 'content-search', 'reference-dock', 'part-reference', 'quote-button', 'quote-bar', 'row-menu', 'copy-reference',
  'header-copy', 'sidebar-search', 'partial-match', 'filter-search', 'settings-card', 'agent-tools', 'updated-since', 'not-attached', 'preflight-failure',
  'related-sessions', 'find-bar',
] as const
type Picture = (typeof PICTURES)[number]
type Lang = 'en' | 'zh'

const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } })
const out = values.out ?? join(repoRoot, 'docs', 'screenshots')
const only = values.only === undefined ? undefined : new Set(values.only.split(','))

/** A session of many turns: the pictures of part references, the agent's tools and "updated since" cite it. */
const KIWI_TURNS = [
  { user: 'Plans for the kiwi orchard: which varieties should we plant?', reply: 'Hayward for the main rows, with one Tomuri male for every eight female vines.' },
  { user: 'How should we water them in the first summer?', reply: 'Drip irrigation, 20 litres per vine twice a week, and mulch against the heat.' },
  { user: 'When can we expect the first harvest?', reply: 'In the third autumn, once the fruit reaches 6.2 °Brix; pick before the first frost.' },
  { user: 'The QUETZAL rollout waits for the 灰度策略 review; note it here.', reply: 'Noted: QUETZAL ships after the staged-rollout (灰度策略) review.' },
] as const

/** What each language types and looks for. */
const UI = {
  en: {
    sessions: 'Sessions',
    send: 'Send message',
    contentQuery: '@quetzal',
    contentHit: 'Old chat',
    pickLead: 'Compare with ',
    pickQuery: '@Release',
    pickTitle: 'Release plan',
    narrow: 'What to reference',
    agentRead: 'Let the agent read it',
    partLead: 'What did you answer in ',
    quoteSource: 'Release plan',
    quotes: ['code freeze Friday, QA on Monday, release Tuesday morning', 'Ana owns the build'],
    quoteQuestion: 'Can we move QA to Friday?',
    row: 'Release plan',
    rowButton: (title: string) => `Session actions for ${title}`,
    copyReference: 'Copy reference',
    copied: 'Reference copied',
    searchButton: 'Search sessions',
    searchBox: 'Search sessions...',
    searchQuery: 'quetzal',
    partialQuery: 'release freeze rollback',
    missing: 'Missing: rollback',
    filterQuery: 'release from:me in:alpha',
    filtered: 'Release plan',
    results: 'Search results',
    toolQuery: 'quetzal',
    toolAsk: 'Where did the QUETZAL rollout come up? Read me what was decided there.',
    toolAnswer: 'It came up in Kiwi plans: QUETZAL ships only after the staged-rollout review. Old chat mentions the quetzalcoatl codename, nothing about the rollout.',
    citing: (mention: string) => `What did you answer in ${mention} about watering?`,
    later: 'One more question for the orchard: do the vines need netting?',
    atMenu: 'Compare @',
    header: 'Copy reference',
    headerDone: 'Reference copied',
    settings: /^Settings$/,
    plugins: /^Plugins$/,
    pluginTab: /Plugin configuration/,
    expand: /Expand: Session references/,
    notAttached: 'Sent without these references',
    outOfScope: (mention: string) => `Compare our plan with ${mention}`,
    deleted: 'was deleted or cannot be read',
    deletedTitle: 'Old chat',
    deletedQuery: '@Old',
    deletedLead: 'What was the codename in ',
    relatedDraft: 'Back to the kiwi orchard: the Hayward vines need drip irrigation again this summer',
    findQuery: 'vines',
    findHit: 'female vines',
  },
  zh: {
    sessions: '会话',
    send: '发送消息',
    contentQuery: '@灰度策略',
    contentHit: '发布评审',
    pickLead: '对比一下 ',
    pickQuery: '@发布计',
    pickTitle: '发布计划',
    narrow: '引用内容',
    agentRead: '让智能体按需读取',
    partLead: '你在这里是怎么回答的：',
    quoteSource: '发布计划',
    quotes: ['周五冻结代码，周一测试，周二上午发布', '小王负责构建'],
    quoteQuestion: '测试能挪到周五吗？',
    row: '发布计划',
    rowButton: (title: string) => `会话“${title}”的操作`,
    copyReference: '复制引用',
    copied: '已复制引用',
    searchButton: '搜索会话',
    searchBox: '搜索会话…',
    searchQuery: '灰度策略',
    partialQuery: '冻结代码 回滚',
    missing: '未包含：回滚',
    filterQuery: '发布 from:me in:alpha',
    filtered: '发布计划',
    results: '搜索结果',
    toolQuery: '灰度策略',
    toolAsk: '灰度策略是在哪个会话里讨论的？读一下当时是怎么定的。',
    toolAnswer: '在「发布评审」里讨论过：灰度先从百分之五开始。另外「Kiwi plans」提到，QUETZAL 要等灰度策略评审之后再发布。',
    citing: (mention: string) => `你在 ${mention} 里说的浇水安排是什么？`,
    later: '果园还有一个问题：藤架需要防鸟网吗？',
    atMenu: '对比 @',
    header: '复制引用',
    headerDone: '已复制引用',
    settings: /^设置$/,
    plugins: /^插件$/,
    pluginTab: /插件配置/,
    expand: /展开: 会话引用/,
    notAttached: '消息已发送，但以下引用未附带',
    outOfScope: (mention: string) => `把我们的计划和 ${mention} 对比一下`,
    deleted: '该会话已被删除或无法读取',
    deletedTitle: '发布评审',
    deletedQuery: '@发布评',
    deletedLead: '灰度从多少开始，见 ',
    relatedDraft: '发布计划里的代码冻结还是周五吗？小王负责的构建要提前准备好',
    findQuery: '灰度策略',
    findHit: 'QUETZAL rollout waits',
  },
} as const

const made: { file: string; bytes: number }[] = []

function wanted(name: Picture): boolean {
  return only === undefined || only.has(name)
}

/**
 * Saves the part of the page that holds every given element, with a margin.
 * @param page - the page.
 * @param name - the picture.
 * @param lang - its language.
 * @param regions - the elements it must show.
 * @param margin - CSS pixels around them, on every side or per side.
 */
async function shoot(page: Page, name: Picture, lang: Lang, regions: readonly Locator[], margin: number | Partial<Record<'top' | 'right' | 'bottom' | 'left', number>> = 16): Promise<void> {
  const around = typeof margin === 'number' ? { top: margin, right: margin, bottom: margin, left: margin } : { top: 16, right: 16, bottom: 16, left: 16, ...margin }
  const boxes = []
  for (const region of regions) {
    const box = await region.boundingBox()
    if (box !== null) boxes.push(box)
  }
  if (boxes.length === 0) throw new Error(`${name}-${lang}: nothing to photograph`)
  const viewport = page.viewportSize()!
  const left = Math.max(0, Math.floor(Math.min(...boxes.map(box => box.x)) - around.left))
  const top = Math.max(0, Math.floor(Math.min(...boxes.map(box => box.y)) - around.top))
  const right = Math.min(viewport.width, Math.ceil(Math.max(...boxes.map(box => box.x + box.width)) + around.right))
  const bottom = Math.min(viewport.height, Math.ceil(Math.max(...boxes.map(box => box.y + box.height)) + around.bottom))
  const file = join(out, `${name}-${lang}.png`)
  await page.screenshot({ path: file, clip: { x: left, y: top, width: right - left, height: bottom - top }, animations: 'disabled', caret: 'hide' })
  const bytes = statSync(file).size
  if (bytes > PICTURE_LIMIT) throw new Error(`${name}-${lang}.png is ${bytes} bytes, over ${PICTURE_LIMIT}: crop it tighter`)
  made.push({ file, bytes })
  process.stderr.write(`[screenshots] ${name}-${lang}.png ${(bytes / 1024).toFixed(1)} KB\n`)
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check().catch(() => false)) return
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 250))
  }
}

const dock = (page: Page) => page.locator('[data-dsh-sessions-reference-dock]').first()
const rowOf = (page: Page, title: string) => page.locator('[data-dsh-session-row]').filter({ has: page.getByText(title, { exact: true }) }).first()

async function post<T>(url: string, path: string, body: object): Promise<T> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as T
}

/** The reference "Copy message reference" copies for the `number`th message of `source`, its seq asked as the dock asks from a session of the same workspace. */
async function messageReference(url: string, citing: string, source: string, number: number): Promise<string> {
  const { messages } = await post<{ messages: { seq: number; number: number }[] }>(url, '/dsh-sessions/messages', { citingSessionId: citing, sourceId: source })
  const message = messages.find(entry => entry.number === number)
  if (message === undefined) throw new Error(`${source} has no message #${number}`)
  return (await post<{ mention: string }>(url, '/dsh-sessions/message-reference', { sourceId: source, seq: message.seq })).mention
}

const hostBin = await ensureHost()
const home = createHome()
/** The agent-tools pictures' turns: a person's request, the calls the stand-in makes for it one after another, and its answer. */
const toolTurns = new Map<string, { readonly calls: readonly ToolCall[]; readonly answer: string }>()
const toolTurn = (messages: readonly WireMessage[]) => toolTurns.get(humanText(messages))
const model = await startModel({
  reply: demoReply,
  toolCall: messages => toolTurn(messages)?.calls[toolAnswersSinceHuman(messages)],
  toolReply: messages => toolTurn(messages)?.answer,
})
const options = { home, hostBin, modelUrl: model.url, apiKey: 'sk-stand-in' }
const browsers: Browser[] = []
let web: WebProcess | undefined
try {
  const tarball = packPlugin()
  dshPlugin(options, ['add', tarball])
  rmSync(dirname(tarball), { recursive: true, force: true })
  const alpha = home.project('alpha')
  const stored = await writeSessionStore(hostDir(), home, [
    { cwd: alpha, title: 'Old chat', text: 'The quetzalcoatl codename came up once, in the first planning call.', reply: 'Noted.' },
    { cwd: alpha, title: '发布评审', text: '我们讨论了发布流程和灰度策略', reply: '好的，灰度先从百分之五开始。' },
    { cwd: alpha, title: 'Kiwi plans', text: KIWI_TURNS[0].user, turns: KIWI_TURNS },
    ...demoSessions(home),
  ])
  const id = (title: string): string => stored.find((session: StoredSession) => session.title === title)!.id
  web = await startWeb(options, { cwd: alpha })
  const url = web.url
  const sessionDir = (sessionId: string): string => {
    const root = join(home.dshHome, 'sessions')
    for (const project of readdirSync(root)) {
      if (readdirSync(join(root, project)).includes(sessionId)) return join(root, project, sessionId)
    }
    throw new Error(`no directory for ${sessionId}`)
  }
  await until('the content index', async () => ((await (await fetch(`${url}/dsh-sessions/content-index`)).json()) as { ready: boolean }).ready, 120_000)
  mkdirSync(out, { recursive: true })

  const open = async (lang: Lang): Promise<Page> => {
    const browser = await launchBrowser({ locale: lang === 'zh' ? 'zh-CN' : 'en-US' })
    browsers.push(browser)
    await browser.context.addInitScript(() => {
      // No blinking caret or hover transitions in a still picture.
      document.addEventListener('DOMContentLoaded', () => {
        const style = document.createElement('style')
        style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; caret-color: transparent !important; }'
        document.head.append(style)
      })
    })
    await installApplyProbe(browser.context, PLUGIN, 'dsh-sessions')
    await browser.page.setViewportSize({ width: 1200, height: 760 })
    await openApp(browser.page, url)
    return browser.page
  }
  const pages = { en: await open('en'), zh: await open('zh') }
  const mentions: Partial<Record<Lang, string>> = {}

  // The pictures of a quiet store first: the sessions made below for the later pictures would crowd the sidebar.
  for (const lang of ['en', 'zh'] as const) {
    const page = pages[lang]
    const ui = UI[lang]
    const input = composer(page)

    // The @ menu: the files group as dsh has it, then the sessions of this workspace.
    if (wanted('at-menu')) {
      await input.fill(ui.atMenu)
      await page.getByRole('listbox').getByText(ui.sessions, { exact: true }).waitFor({ timeout: 15_000 })
      await page.waitForTimeout(400)
      await shoot(page, 'at-menu', lang, [page.getByRole('listbox'), composer(page)], { top: 16, right: 16, bottom: 4, left: 16 })
      await input.fill('')
    }

    // The @ menu: a session found by what was said in it, with its excerpt.
    if (wanted('content-search')) {
      await input.fill(ui.contentQuery)
      const hit = page.getByRole('listbox').getByRole('option', { name: new RegExp(`^${ui.contentHit}`) })
      await hit.waitFor({ timeout: 15_000 })
      await page.waitForTimeout(400)
      await shoot(page, 'content-search', lang, [page.getByRole('listbox'), composer(page)], { top: 16, right: 16, bottom: 4, left: 16 })
      await input.fill('')
    }

    // A chip with its size and the narrowing choice in the reference dock.
    if (wanted('reference-dock')) {
      await input.fill(ui.pickLead)
      await input.press('End')
      await input.pressSequentially(ui.pickQuery)
      await page.getByRole('listbox').getByRole('option', { name: new RegExp(`^${ui.pickTitle}`) }).first().click()
      await dock(page).getByRole('combobox', { name: ui.narrow }).waitFor({ timeout: 15_000 })
      await until('the chip measured', async () => /tokens/.test(await dock(page).innerText()))
      // The dock's fourth choice: a pointer the agent reads on demand, measured as what it sends.
      await dock(page).getByRole('combobox', { name: ui.narrow }).selectOption({ label: ui.agentRead })
      await until('the pointer measured', async () => (await dock(page).getByRole('combobox', { name: ui.narrow }).inputValue()) !== '' && /tokens/.test(await dock(page).innerText()))
      await page.mouse.move(0, 0)
      await shoot(page, 'reference-dock', lang, [dock(page), composer(page)], 8)
      await input.fill('')
    }

    // A pasted message reference becomes a part-reference chip, measured in the dock.
    mentions[lang] = await messageReference(url, id('Q3 OKR'), id('Kiwi plans'), 4)
    if (wanted('part-reference')) {
      await input.fill(`${ui.partLead}${mentions[lang]}`)
      await until('the part-reference chip', async () => (await page.locator('[data-composer-card] [data-decoration="chip"]').count()) === 1)
      await until('the part measured', async () => /tokens/.test(await dock(page).innerText()))
      await page.mouse.move(0, 0)
      await shoot(page, 'part-reference', lang, [dock(page), composer(page)], 8)
      await input.fill('')
    }

    // "Add to chat" over a selection in a reply, then the quote bar with two quotes.
    if (wanted('quote-button') || wanted('quote-bar')) {
      await openSessionInPage(page, id(ui.quoteSource))
      const reply = page.locator('[data-conversation-scroll]').getByText(ui.quotes[0], { exact: false }).last()
      await reply.waitFor({ timeout: 15_000 })
      await selectText(page, ui.quotes[0])
      const button = page.locator('[data-dsh-sessions-quote-button]')
      await button.waitFor()
      if (wanted('quote-button')) await shoot(page, 'quote-button', lang, [button, reply])
      await button.click()
      await frames(page)
      await selectText(page, ui.quotes[1])
      await button.click()
      await frames(page)
      const bar = page.locator('[data-dsh-sessions-quote-bar]')
      await until('two quotes in the bar', async () => (await bar.locator('li').count()) === 2)
      await composer(page).press('Control+End')
      await composer(page).pressSequentially(ui.quoteQuestion)
      await page.mouse.move(0, 0)
      if (wanted('quote-bar')) await shoot(page, 'quote-bar', lang, [bar, composer(page)], 8)
      await composer(page).fill('')
      await until('the quote bar gone', async () => (await bar.count()) === 0)
    }

    // The row menu with its copy items, then the toast of Copy reference beside the row.
    if (wanted('row-menu') || wanted('copy-reference')) {
      const row = rowOf(page, ui.row)
      await row.waitFor({ timeout: 15_000 })
      await row.hover()
      await page.getByRole('button', { name: ui.rowButton(ui.row) }).click()
      const menu = page.getByRole('menu')
      await menu.waitFor()
      if (wanted('row-menu')) await shoot(page, 'row-menu', lang, [row, menu], { top: 4, right: 16, bottom: 16, left: 16 })
      await menu.getByRole('menuitem', { name: ui.copyReference }).click()
      const toast = page.locator('[data-dsh-sessions-toast]')
      await page.getByRole('status').filter({ hasText: ui.copied }).waitFor()
      await page.mouse.move(0, 0)
      if (wanted('copy-reference')) await shoot(page, 'copy-reference', lang, [row, toast], { top: 60, bottom: 60 })
      await toast.waitFor({ state: 'detached', timeout: 10_000 })
    }

    // A partial match in the sidebar (no session holds every word, so the one holding most says what it lacks), and a query with filters.
    for (const [name, query, shown] of [['partial-match', ui.partialQuery, ui.missing], ['filter-search', ui.filterQuery, ui.filtered]] as const) {
      if (!wanted(name)) continue
      const box = page.getByPlaceholder(ui.searchBox)
      await page.getByRole('button', { name: ui.searchButton }).first().click()
      await box.waitFor({ state: 'visible' })
      await box.pressSequentially(query)
      const results = page.getByRole('tree', { name: ui.results })
      await until(`the results of ${query}`, async () => (await results.getByRole('treeitem').allInnerTexts()).some(text => text.includes(shown)), 15_000)
      await page.waitForTimeout(500)
      await page.mouse.move(0, 0)
      await shoot(page, name, lang, [box, results])
      await box.fill('')
      await box.press('Escape')
    }

    // The sidebar's Search sessions box: title and content matches with their excerpts.
    if (wanted('sidebar-search')) {
      // The box opens from the magnifier, as a user opens it; typed into while closed it would search unseen.
      const box = page.getByPlaceholder(ui.searchBox)
      await page.getByRole('button', { name: ui.searchButton }).first().click()
      await box.waitFor({ state: 'visible' })
      await box.pressSequentially(ui.searchQuery)
      const results = page.getByRole('tree', { name: ui.results })
      await until('the search results', async () => (await results.getByRole('treeitem').count()) >= 2, 15_000)
      await page.waitForTimeout(500)
      await page.mouse.move(0, 0)
      await shoot(page, 'sidebar-search', lang, [box, results])
      await box.fill('')
      await box.press('Escape')
    }

    // Both copy actions on the session header, with the toast below the button.
    if (wanted('header-copy')) {
      await openSessionInPage(page, id(ui.row))
      const header = page.locator('[data-dsh-sessions-header-copy]')
      await header.waitFor({ timeout: 15_000 })
      await header.getByRole('button', { name: ui.header }).click()
      const toast = page.locator('[data-dsh-sessions-toast]')
      await page.getByRole('status').filter({ hasText: ui.headerDone }).waitFor()
      await page.mouse.move(0, 0)
      await shoot(page, 'header-copy', lang, [header, toast], { left: 150, top: 12, bottom: 12, right: 24 })
      await toast.waitFor({ state: 'detached', timeout: 10_000 })
    }

    // The settings card, expanded, then back to the app.
    if (wanted('settings-card')) {
      await page.locator('aside, nav, body').getByRole('button', { name: ui.settings }).last().click()
      await page.getByRole('button', { name: ui.plugins }).click()
      await page.getByRole('tab', { name: ui.pluginTab }).click()
      const expand = page.getByRole('button', { name: ui.expand })
      await expand.waitFor({ timeout: 15_000 })
      await expand.click()
      const settingsCard = page.locator('[data-dsh-sessions-card]').first()
      await settingsCard.waitFor()
      await page.waitForTimeout(300)
      await settingsCard.scrollIntoViewIfNeeded()
      await page.mouse.move(0, 0)
      await shoot(page, 'settings-card', lang, [settingsCard], 2)
      await openApp(page, url)
    }
  }

  // Sessions the later pictures show, made from the English page (its workspace picker is driven by English names).
  const en = pages.en
  const turns = () => model.turns().length
  async function sendIn(page: Page, text: string, lang: Lang): Promise<string> {
    const before = turns()
    await composer(page).fill(text)
    await page.getByRole('button', { name: UI[lang].send }).click()
    await until('the model request', async () => turns() > before)
    await page.waitForTimeout(1_500)
    return model.turns().at(-1)!.sessionId!
  }
  async function newAlphaSession(): Promise<void> {
    await startNewSession(en)
    await chooseWorkspace(en, 'alpha')
  }
  const toolSessions: Partial<Record<Lang, string>> = {}
  const citing: Partial<Record<Lang, string>> = {}
  if (wanted('agent-tools')) {
    // One request per language: the stand-in searches, reads the session it found and answers in that language.
    toolTurns.set(UI.en.toolAsk, {
      calls: [
        { name: 'search_sessions', arguments: JSON.stringify({ query: UI.en.toolQuery }) },
        { name: 'read_session', arguments: JSON.stringify({ sessionId: id('Kiwi plans'), fromMessage: 7, maxChars: 2000 }) },
      ],
      answer: UI.en.toolAnswer,
    })
    toolTurns.set(UI.zh.toolAsk, {
      calls: [
        { name: 'search_sessions', arguments: JSON.stringify({ query: UI.zh.toolQuery }) },
        { name: 'read_session', arguments: JSON.stringify({ sessionId: id('发布评审'), fromMessage: 1, maxChars: 2000 }) },
      ],
      answer: UI.zh.toolAnswer,
    })
    for (const lang of ['en', 'zh'] as const) {
      await newAlphaSession()
      const before = turns()
      toolSessions[lang] = await sendIn(en, UI[lang].toolAsk, 'en')
      await until('both calls answered', async () => turns() >= before + 3)
      await en.getByText(UI[lang].toolAnswer).first().waitFor({ timeout: 15_000 })
    }
  }
  if (wanted('updated-since')) {
    for (const lang of ['en', 'zh'] as const) {
      await newAlphaSession()
      citing[lang] = await sendIn(en, UI[lang].citing(mentions[lang]!), 'en')
    }
    // The source gains messages after both snapshots were taken.
    await openSessionInPage(en, id('Kiwi plans'))
    await en.getByText(KIWI_TURNS[3].user).first().waitFor({ timeout: 15_000 })
    await sendIn(en, UI.en.later, 'en')
  }

  for (const lang of ['en', 'zh'] as const) {
    const page = pages[lang]
    // The agent's tool rows: what it searched and what it read.
    if (wanted('agent-tools')) {
      await openSessionInPage(page, toolSessions[lang]!)
      const rows = page.locator('[data-dsh-sessions-tool]')
      await until('both tool rows', async () => (await rows.count()) === 2, 20_000)
      const ask = page.getByText(UI[lang].toolAsk).first()
      const answer = page.getByText(UI[lang].toolAnswer).first()
      await answer.waitFor({ timeout: 15_000 })
      await ask.evaluate(row => row.scrollIntoView({ block: 'start' }))
      await page.waitForTimeout(500)
      await shoot(page, 'agent-tools', lang, [ask, rows.first(), rows.last(), answer], 12)
    }
    // A sent part reference whose source gained messages since: "updated since".
    if (wanted('updated-since')) {
      await openSessionInPage(page, citing[lang]!)
      const marker = page.locator(`[data-dsh-sessions-since][data-dsh-sessions-source="${id('Kiwi plans')}"]`).first()
      await marker.waitFor({ timeout: 45_000 })
      const reference = page.locator(`[data-ref-chip="session"][data-dsh-sessions-source="${id('Kiwi plans')}"]`).first()
      const bubble = page.locator('[data-chat-anchor-key]').filter({ has: marker }).first()
      await marker.scrollIntoViewIfNeeded()
      await marker.hover()
      await page.waitForTimeout(300)
      await shoot(page, 'updated-since', lang, [(await bubble.count()) > 0 ? bubble : reference, marker], 12)
    }
    // A draft that continues earlier work: the related sessions above the composer.
    if (wanted('related-sessions')) {
      const page = await open(lang)
      await composer(page).fill(UI[lang].relatedDraft)
      const row = page.locator('[data-dsh-sessions-related]')
      await row.waitFor({ timeout: 15_000 })
      await page.waitForTimeout(500)
      await page.mouse.move(0, 0)
      await shoot(page, 'related-sessions', lang, [row, composer(page)], 8)
    }
    // The find bar over a session, stepped to its first match.
    if (wanted('find-bar')) {
      await openSessionInPage(page, id('Kiwi plans'))
      await page.getByText(KIWI_TURNS[3].user).first().waitFor({ timeout: 15_000 })
      await page.locator('body').press('Control+Shift+F')
      const bar = page.locator('[data-dsh-sessions-find-bar]')
      const input = bar.getByRole('searchbox')
      await input.fill(UI[lang].findQuery)
      const count = bar.locator('[data-dsh-sessions-find-count]')
      await until('the matches counted', async () => /\d/.test(await count.innerText()))
      await input.press('Enter')
      await until('the first match shown', async () => /1/.test(await count.innerText()) && !/\+/.test(await count.innerText()))
      const hit = page.locator('[data-chat-anchor-key]:visible').filter({ hasText: UI[lang].findHit }).first()
      await hit.waitFor({ timeout: 15_000 })
      await page.waitForTimeout(500)
      await page.mouse.move(0, 0)
      await shoot(page, 'find-bar', lang, [bar, hit], 12)
      await input.press('Escape')
    }
    // A mention of another workspace's session, written as text: sent, and the dock says it was not attached.
    if (wanted('not-attached')) {
      const page = await open(lang)
      const { mention } = await post<{ mention: string }>(url, '/dsh-sessions/mention', { sourceId: id('Budget review') })
      const before = turns()
      await composer(page).fill(UI[lang].outOfScope(mention))
      await page.getByRole('button', { name: UI[lang].send }).click()
      await until('the model request', async () => turns() > before)
      const notice = dock(page).getByRole('alert').filter({ hasText: UI[lang].notAttached })
      await notice.waitFor({ timeout: 15_000 })
      await page.mouse.move(0, 0)
      await shoot(page, 'not-attached', lang, [notice, composer(page)], 8)
    }
    // A chip whose source was deleted after it was picked: the send is blocked and the draft stays.
    if (wanted('preflight-failure')) {
      const page = await open(lang)
      const input = composer(page)
      await input.fill(UI[lang].deletedLead)
      await input.press('End')
      await input.pressSequentially(UI[lang].deletedQuery)
      await page.getByRole('listbox').getByRole('option', { name: new RegExp(`^${UI[lang].deletedTitle}`) }).first().click()
      await until('the chip measured', async () => /tokens/.test(await dock(page).innerText()))
      rmSync(sessionDir(id(UI[lang].deletedTitle)), { recursive: true, force: true })
      await page.getByRole('button', { name: UI[lang].send }).click()
      const alerts = page.getByRole('alert').filter({ hasText: UI[lang].deleted })
      await alerts.first().waitFor({ timeout: 15_000 })
      // The reason nearest the composer.
      let alert = alerts.first()
      for (let n = 0, lowest = -1; n < await alerts.count(); n += 1) {
        const y = (await alerts.nth(n).boundingBox())?.y ?? -1
        if (y > lowest) [alert, lowest] = [alerts.nth(n), y]
      }
      await page.mouse.move(0, 0)
      await shoot(page, 'preflight-failure', lang, [alert, composer(page)], 8)
      await input.fill('')
    }
  }

  if (only === undefined) {
    // Every picture here comes from this command: anything else is a leftover of an earlier version.
    const kept = new Set(made.map(entry => entry.file))
    for (const file of readdirSync(out)) {
      if (file.endsWith('.png') && !kept.has(join(out, file))) {
        rmSync(join(out, file))
        process.stderr.write(`[screenshots] removed ${file}, which this command no longer makes\n`)
      }
    }
  }
  process.stdout.write(`${made.length} pictures in ${out}:\n${made.map(entry => `  ${entry.file.slice(out.length + 1)}  ${(entry.bytes / 1024).toFixed(1)} KB`).join('\n')}\n`)
} finally {
  for (const browser of browsers) await browser.close().catch(() => undefined)
  await web?.stop()
  await model.stop()
  home.remove()
}
