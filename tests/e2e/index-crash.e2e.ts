/**
 * The on-disk content index survives `kill -9` of the real host: killed in
 * the middle of a cold build over realistic sessions, the next boot answers
 * at once from what the file held (the sessions indexed so far are found
 * within seconds of the boot, and the route says the build is not complete),
 * then reads only the logs the file lacked and completes; nothing but the
 * index file and its write-ahead log is left in the plugin's folder.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { beforeAll, describe, expect, it } from 'vitest'
import { type RealisticSpec, realisticCorpus } from '../../dev/corpus.ts'
import { hostDir } from '../../dev/pinned-host.ts'
import { corpusSessions, type StoredSession, writeSessionStore } from '../../dev/session-store.ts'
import { useSoleTopic } from './harness/real-host.ts'
import { untilAsync as until } from './harness/wait.ts'

/** Sessions of the store: enough that the paced cold build takes seconds. */
const SESSIONS = 160

interface Status {
  ready: boolean
  start: string
  engine: string
  reads: number
  sessions: number
  passes: number
}

describe('the content index after kill -9 of the real host', () => {
  let stored: StoredSession[] = []
  let corpus: RealisticSpec[] = []
  const host = useSoleTopic({
    stack: {
      beforeBoot: async home => {
        corpus = realisticCorpus(hostDir(), { sessions: SESSIONS, workspaces: 1, seed: 7 })
        stored = await writeSessionStore(hostDir(), home, corpusSessions(home, corpus).map(spec => ({ ...spec, cwd: home.project('alpha') })), { titleCache: false })
      },
    },
    browser: false,
  })
  const status = async (): Promise<Status> => (await (await fetch(`${host.stack.web.url}/dsh-sessions/content-index`)).json()) as Status
  const folder = () => join(host.stack.home.dshHome, 'dsh-sessions')

  beforeAll(async () => {
    await until(async () => (await status()).reads >= 20, 'twenty logs read by the cold build', 120_000)
  })

  it('answers at once after the kill, from what the file held, reads only the rest and completes', async () => {
    const before = await status()
    expect(before).toMatchObject({ ready: false, engine: 'sqlite' })
    await host.stack.restart({ kill: true })
    const booted = performance.now()
    // What the file held at the kill: the sessions of its last completed change.
    const db = new DatabaseSync(join(folder(), 'content-index.sqlite'), { readOnly: true })
    const held = (db.prepare('SELECT id FROM sessions').all() as { id: string }[]).map(row => row.id)
    db.close()
    expect(held.length).toBeGreaterThanOrEqual(20)
    expect(held.length).toBeLessThan(SESSIONS)
    // A word of a held session's replies that at most two sessions say, so the answer is not capped.
    const words = corpus.map(spec => new Set(spec.turns.flatMap(turn => turn.reply.toLowerCase().split(/[^a-z]+/)).filter(word => word.length >= 8)))
    const sayers = new Map<string, number>()
    for (const set of words) for (const word of set) sayers.set(word, (sayers.get(word) ?? 0) + 1)
    const at = stored.findIndex((session, n) => held.includes(session.id) && [...words[n]!].some(word => sayers.get(word)! <= 2 && !session.title.toLowerCase().includes(word)))
    expect(at).toBeGreaterThanOrEqual(0)
    const probe = stored[at]!
    const word = [...words[at]!].find(candidate => sayers.get(candidate)! <= 2 && !probe.title.toLowerCase().includes(candidate))!
    await until(async () => (await status()).start !== 'pending', 'the index file opened')
    expect(await status()).toMatchObject({ start: 'partial', ready: false })
    const target = stored.find(session => session.id !== probe.id)!
    await until(async () => {
      const res = await fetch(`${host.stack.web.url}/dsh-sessions/candidates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ citingSessionId: target.id, query: word }) })
      const body = await res.json() as { candidates: { sessionId: string; snippet?: unknown }[]; indexing?: { indexed: number; total: number } }
      return body.candidates.some(candidate => candidate.sessionId === probe.id && candidate.snippet !== undefined) && body.indexing !== undefined
    }, `the held session found by "${word}", with the build still going`, 10_000)
    const answeredMs = performance.now() - booted
    await until(async () => (await status()).ready, 'the build completed after the restart', 300_000)
    const after = await status()
    expect(after.reads).toBeLessThanOrEqual(SESSIONS - held.length)
    expect(after.sessions).toBeGreaterThanOrEqual(SESSIONS)
    expect(readdirSync(folder()).filter(name => !/^(content-index\.sqlite(-wal|-shm)?|session-catalog\.json\.gz)$/.test(name))).toEqual([])
    console.log(`[index-crash] ${held.length} of ${SESSIONS} sessions held at the kill; answered ${answeredMs.toFixed(0)} ms after the boot; ${after.reads} logs read to complete`)
  })
})
