/**
 * The main job as a user runs it (`scripts/start.ts`, here with the tarball
 * the set-up packed): it prints the URL and a three-line guide; the sidebar
 * shows the seeded sessions of `alpha` and `beta`, in English and Chinese;
 * `@` in an alpha session lists only alpha's sessions; `@发布计划总结一下`
 * reaches the stand-in, whose reply says it is a stand-in and names the
 * referenced session; Ctrl-C stops everything and deletes the home.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type Browser, launchBrowser } from '../../dev/browser.ts'
import { repoRoot } from '../../dev/paths.ts'
import { drawnSessionRows } from './harness/menu.ts'
import { until, untilAsync } from './harness/wait.ts'
import { composer, openApp } from '../../dev/web-ui.ts'

const ALPHA = ['Release plan', '发布计划', 'Q3 OKR', '周会纪要']
const BETA = ['Budget review', '市场调研']

describe('npm start', () => {
  let child: ChildProcess
  let output = ''
  let exited: Promise<number | null>
  let url: string
  let home: string

  /** Whether the sidebar's search names a session by this title (it answers across every workspace). */
  const titled = async (title: string): Promise<boolean> => {
    const res = await fetch(`${url}/dsh-sessions/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: title }) })
    return ((await res.json()) as { results: { title?: string }[] }).results.some(result => result.title === title)
  }

  beforeAll(async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(DSH_(?!SESSIONS_)|DEEPSEEK_|VITEST|NODE_OPTIONS$)/.test(key)))
    child = spawn(process.execPath, ['scripts/start.ts', '--port', '0', '--tarball', inject('tarball')], {
      cwd: repoRoot,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout!.setEncoding('utf8').on('data', (text: string) => { output += text })
    child.stderr!.setEncoding('utf8').on('data', (text: string) => { output += text })
    exited = new Promise(resolve => child.once('exit', code => resolve(code)))
    await until(() => /\n {2}3\. .*\n/.test(output) || child.exitCode !== null, 'the guide of npm start', 240_000)
    if (child.exitCode !== null) throw new Error(`npm start exited:\n${output}`)
    url = /with @wishp3\/dsh-sessions: (http:\/\/\S+)/.exec(output)![1]!
    home = /home \(throwaway\): (\S+)/.exec(output)![1]!
    // Wait until the plugin's index has listed the stored sessions (2 s after its start, or at the first request).
    await untilAsync(async () => (await Promise.all([...ALPHA, ...BETA].map(titled))).every(Boolean), 'the seeded titles in the host cache')
  }, 300_000)

  afterAll(async () => {
    if (child?.exitCode === null && child.pid !== undefined) {
      child.kill('SIGINT')
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL')
        } catch {
          // ESRCH: already gone.
        }
      }, 20_000)
      await exited
      clearTimeout(timer)
    }
  })

  it('prints the URL and a three-line guide to the features', () => {
    const lines = output.split('\n')
    const at = lines.findIndex(line => line === `Try this at ${url}:`)
    expect(at).toBeGreaterThan(0)
    const guide = lines.slice(at + 1, at + 4)
    expect(guide.map(line => line.slice(0, 5))).toEqual(['  1. ', '  2. ', '  3. '])
    expect(guide[0]).toContain('@')
    expect(guide[1]).toContain('Add to chat')
    expect(guide[2]).toContain('⋯')
    expect(lines[at + 4]).toBe('')
    expect(output).toMatch(/model: stand-in at http:\/\/127\.0\.0\.1:\d+/)
  })

  it('shows the seeded sessions, and @ in an alpha session lists only alpha\'s others', async () => {
    const browser: Browser = await launchBrowser()
    try {
      const page = browser.page
      await openApp(page, url)
      const rows = page.locator('[data-dsh-session-row]')
      await expect.poll(() => rows.allInnerTexts(), { timeout: 15_000 }).toEqual(expect.arrayContaining(ALPHA.map(title => expect.stringContaining(title))))
      // The sidebar opens the newest session's workspace, alpha; beta's group opens on a click.
      await page.getByText('beta', { exact: true }).first().click()
      await expect.poll(() => rows.allInnerTexts(), { timeout: 15_000 }).toEqual(expect.arrayContaining([...ALPHA, ...BETA].map(title => expect.stringContaining(title))))
      await rows.filter({ hasText: 'Release plan' }).click()
      await page.getByText('Release plan for v2').first().waitFor()
      await composer(page).fill('@')
      const sessions = async () => (await drawnSessionRows(page)).map(text => text.split('\n')[0])
      await expect.poll(sessions, { timeout: 15_000 }).toEqual(expect.arrayContaining(['发布计划', 'Q3 OKR', '周会纪要']))
      // Only alpha's three: beta's stay out, and a blank draft has nothing to reference.
      expect((await sessions()).sort()).toEqual(['Q3 OKR', '发布计划', '周会纪要'].sort())
      await page.keyboard.press('Escape')

      await composer(page).fill('@发布计划总结一下')
      await page.getByRole('button', { name: 'Send message' }).click()
      const reply = page.getByText(/^【替身模型】/).first()
      await reply.waitFor({ timeout: 30_000 })
      await page.getByText('附带快照的会话：发布计划').first().waitFor()
      expect(browser.errors).toEqual([])
    } finally {
      await browser.close()
    }
  })

  it('stops and deletes the home on Ctrl-C', async () => {
    expect(existsSync(home)).toBe(true)
    child.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(existsSync(home)).toBe(false)
  })
})
