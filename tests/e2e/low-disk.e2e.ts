/**
 * The content index on a nearly full disk, in the real host: the session
 * logs and the plugin's folder share one small file system (a tmpfs the
 * test mounts, as root; elsewhere the file is skipped and says why). With
 * the default floor (1 GiB, more than the whole disk) the plugin writes no
 * index at all, says "paused: low disk space" in its status and in the `@`
 * menu, and a prompt sent after its pass, in a new session and in a stored
 * one, reaches the model. With a floor the disk can meet, indexing stays
 * paused while a ballast file fills the disk, and resumes by itself once
 * the ballast is deleted: the index completes, a planted word is found, and
 * the write-ahead log is folded back into the file.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rpc } from '../../dev/host-rpc.ts'
import { hostDir } from '../../dev/pinned-host.ts'
import { type StoredSession, writeSessionStore } from '../../dev/session-store.ts'
import { humanText } from '../../dev/stand-in-model.ts'
import { chooseWorkspace, composer, openApp, startNewSession } from '../../dev/web-ui.ts'
import { WAL_BYTES } from '../../src/host/search/worker/index-file.ts'
import { useSoleTopic } from './harness/real-host.ts'
import { untilAsync as until } from './harness/wait.ts'

const MiB = 2 ** 20

/** Size of the small disk: room for the logs, the index and the host's turns, far under the default floor. */
const DISK_MIB = 64

/** Free space the ballast leaves: enough for the host's turns, less than the floor the test sets. */
const LEFT_MIB = 6

/** The floor the test sets once the first half is done: more than the ballast leaves, far less than the disk. */
const FLOOR_MIB = 12

/** Why the file cannot run here, if it cannot: mounting a file system needs root. */
function whyNot(): string | undefined {
  if (process.platform !== 'linux') return 'mounting a tmpfs needs Linux'
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root; run the suite as root to include this file'
  const probe = join(process.env.TMPDIR ?? '/tmp', `dsh-sessions-mount-probe-${process.pid}`)
  mkdirSync(probe, { recursive: true })
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' })
    execFileSync('umount', [probe], { stdio: 'pipe' })
    return undefined
  } catch (error) {
    return `mount -t tmpfs failed here: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`
  } finally {
    rmSync(probe, { recursive: true, force: true })
  }
}

const skipped = whyNot()
if (skipped !== undefined) console.log(`[low-disk] skipped: ${skipped}`)

interface Status {
  ready: boolean
  start: string
  paused?: string
  sessions: number
  pending: number
  disk?: { free: number; floor: number }
  catalog: { listed: boolean }
}

const SOURCES = [
  { title: 'Aviary budget', text: 'The aviary budget mentions a quokkaberry supplier.', reply: 'Noted the supplier.' },
  { title: 'Garden notes', text: 'Prune the roses in March.', reply: 'ok' },
  { title: 'Kitchen plans', text: 'The new oven arrives on Tuesday.', reply: 'ok' },
] as const

describe.skipIf(skipped !== undefined)('the content index on a nearly full disk in the real host', () => {
  const mounts: string[] = []
  let disk = ''
  let stored: StoredSession[] = []
  const host = useSoleTopic({
    stack: {
      beforeBoot: async home => {
        disk = join(home.home, 'disk')
        mkdirSync(disk)
        execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_MIB}m`, 'tmpfs', disk])
        mounts.push(disk)
        // The session logs and the plugin's folder, on the one small disk.
        for (const folder of ['sessions', 'dsh-sessions']) {
          mkdirSync(join(disk, folder))
          mkdirSync(join(home.dshHome, folder), { recursive: true })
          execFileSync('mount', ['--bind', join(disk, folder), join(home.dshHome, folder)])
          mounts.unshift(join(home.dshHome, folder))
        }
        stored = await writeSessionStore(hostDir(), home, SOURCES.map(source => ({ cwd: home.project('alpha'), ...source })), { titleCache: false })
        const { bavail, bsize } = statfsSync(disk)
        writeFileSync(join(disk, 'ballast'), Buffer.alloc(bavail * bsize - LEFT_MIB * MiB))
      },
    },
    browser: { open: false },
  })
  const status = async (): Promise<Status> => (await (await fetch(`${host.stack.web.url}/dsh-sessions/content-index`)).json()) as Status
  const indexFile = () => join(host.stack.home.dshHome, 'dsh-sessions', 'content-index.sqlite')
  const sizeOf = (path: string): number => {
    try {
      return statSync(path).size
    } catch {
      return 0
    }
  }
  /** Sends a prompt through the host's own method and waits for the model to receive it. */
  const promptReaches = async (sessionId: string, text: string): Promise<void> => {
    await rpc(host.stack.web.url, 'session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text }] })
    await until(async () => host.stack.model.turns().some(turn => turn.sessionId === sessionId && humanText(turn.body.messages).includes(text)), `the model receiving "${text}"`)
  }

  beforeAll(async () => {
    await until(async () => {
      const now = await status()
      return now.catalog.listed && now.paused === 'low-disk' && now.disk !== undefined
    }, 'the plugin listing the store and pausing its index')
  })

  afterAll(() => {
    // Lazily, so a process still holding a file does not keep the home from being removed.
    for (const mount of mounts.splice(0)) execFileSync('umount', ['-l', mount], { stdio: 'ignore' })
  })

  it('writes no index under the default floor, says so in the status and the @ menu, and the host still runs every turn', async () => {
    const paused = await status()
    expect(paused).toMatchObject({ start: 'low-disk', paused: 'low-disk', ready: false, sessions: 0 })
    // The default floor: 1 GiB, more than the whole disk.
    expect(paused.disk!.floor).toBe(2 ** 30)
    expect(sizeOf(indexFile())).toBe(0)
    // The browser's @ menu says it.
    const page = host.browser.page
    await openApp(page, host.stack.web.url)
    await startNewSession(page)
    await chooseWorkspace(page, 'alpha')
    await composer(page).fill('Ask @quokkaberry')
    await page.getByRole('listbox').getByText(/indexing paused: low disk space/i).first().waitFor({ timeout: 30_000 })
    // A prompt after the plugin's pass reaches the model, in a new session and in a stored one.
    const fresh = (await rpc(host.stack.web.url, 'session.create', { cwd: host.stack.home.project('alpha') }) as { sessionId: string }).sessionId
    await promptReaches(fresh, 'a new turn on a nearly full disk')
    await promptReaches(stored[1]!.id, 'an old session goes on on a nearly full disk')
    expect(sizeOf(indexFile())).toBe(0)
  })

  it('stays paused under a floor the disk cannot meet, and resumes by itself once space is freed', async () => {
    const set = await fetch(`${host.stack.web.url}/dsh-sessions/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ indexFreeSpaceMiB: FLOOR_MIB }) })
    expect(set.status).toBe(200)
    await until(async () => (await status()).disk?.floor === FLOOR_MIB * MiB, 'the plugin reading the new floor')
    expect(await status()).toMatchObject({ paused: 'low-disk', ready: false })
    expect(sizeOf(indexFile())).toBe(0)
    rmSync(join(disk, 'ballast'))
    await until(async () => (await status()).ready, 'the index built once space was freed', 120_000)
    const resumed = await status()
    expect(resumed.paused).toBeUndefined()
    expect(resumed.sessions).toBeGreaterThanOrEqual(SOURCES.length)
    const target = stored[2]!.id
    const res = await fetch(`${host.stack.web.url}/dsh-sessions/candidates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ citingSessionId: target, query: 'quokkaberry' }) })
    const body = await res.json() as { candidates: { sessionId: string; snippet?: unknown }[]; indexing?: unknown }
    expect(body.indexing).toBeUndefined()
    expect(body.candidates).toEqual([expect.objectContaining({ sessionId: stored[0]!.id, snippet: expect.anything() })])
    // The write-ahead log stays within its bound (it is folded into the file after each pass and every 16 MiB).
    expect(sizeOf(`${indexFile()}-wal`)).toBeLessThanOrEqual(WAL_BYTES + 2 * MiB)
  })
})
