/** The worker's index and its file: logs read in the worker's own thread, never waiting in the process's libuv pool; a change before the file is opened is refused (nothing held in memory), the JSON file of earlier versions goes, no SQLite means no index, and a file damaged while open is set aside and replaced at once. */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { IndexKeeper, sqliteFileOf } from '../../src/host/search/worker/index-keeper.ts'
import { queryTerms } from '../../src/host/search/text/terms.ts'
import { DAMAGED_MESSAGE, NOT_OPEN_MESSAGE } from '../../src/host/search/worker-protocol.ts'
import { afterTest, temporaryFolder } from './cleanup.ts'
import { writeZstdLog } from './zstd-log.ts'

const BUSY_POOL_READ = new URL('./fixtures/busy-pool-read.ts', import.meta.url).pathname

const indexFile = (): string => join(temporaryFolder('dsh-sessions-keeper-'), 'content-index.json')

const entry = (...messages: string[]) => ({ revision: '1:1', title: undefined, messages })
const find = (keeper: IndexKeeper, query: string) => keeper.search({ dates: [['session-a', 1], ['session-b', 2], ['session-c', 3]], only: ['session-a', 'session-b', 'session-c'] }, { terms: queryTerms(query), limit: 5 }).map(hit => hit.id)

function keeperOf(options: ConstructorParameters<typeof IndexKeeper>[0] = {}): IndexKeeper {
  const keeper = new IndexKeeper(options)
  afterTest(() => keeper.close())
  return keeper
}

/** Reads logs as the worker does, in a process of its own whose libuv pool a hashing job holds (see the fixture). */
function readWhilePoolIsBusy(mode: 'keeper' | 'reader'): { settledFirst: boolean; found: unknown } {
  const run = spawnSync(process.execPath, ['--no-warnings', BUSY_POOL_READ, temporaryFolder('dsh-sessions-pool-'), mode], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`busy-pool-read ${mode} exited ${run.status}: ${run.stderr}`)
  return JSON.parse(run.stdout) as { settledFirst: boolean; found: unknown }
}

describe('reading logs in the worker, beside the host', () => {
  // The libuv pool is the process's: a build's reads waiting there would hold up the host's own file requests, and theirs it.
  it('reads a batch of logs while every thread of the process\'s libuv pool is busy: the reads do not wait in it', () => {
    const { settledFirst, found } = readWhilePoolIsBusy('keeper')
    expect(settledFirst).toBe(true)
    expect(found).toEqual(['session-a', 'session-b', 'session-c'])
  })

  it('reads a conversation for the tools and the find bar the same way', () => {
    const { settledFirst, found } = readWhilePoolIsBusy('reader')
    expect(settledFirst).toBe(true)
    expect(JSON.stringify(found)).toContain('the heron ledger')
  })
})

describe('the keeper', () => {
  it('refuses changes that come before the file is opened, holding nothing of them, and removes the JSON file and temporary files of earlier versions', async () => {
    const file = indexFile()
    writeFileSync(file, '{"an old": "memory-engine file"}')
    writeFileSync(`${file}.99999999.tmp`, 'half a file')
    const keeper = keeperOf()
    expect(() => keeper.apply('session-a', entry('the aardvark plan'))).toThrow(NOT_OPEN_MESSAGE)
    await expect(keeper.read({ logs: [{ session: 'session-a', path: file, revision: '1:1' }] })).rejects.toThrow(NOT_OPEN_MESSAGE)
    expect(find(keeper, 'aardvark')).toEqual([])
    const loaded = await keeper.load(file)
    expect(loaded).toMatchObject({ engine: 'sqlite', reason: 'missing' })
    expect(loaded.entries).toEqual([])
    keeper.apply('session-a', entry('the aardvark plan'))
    keeper.apply('session-b', entry('the badger plan'))
    keeper.apply('session-b', null)
    expect(find(keeper, 'aardvark')).toEqual(['session-a'])
    expect(find(keeper, 'badger')).toEqual([])
    expect(existsSync(file)).toBe(false)
    expect(existsSync(`${file}.99999999.tmp`)).toBe(false)
    expect(existsSync(sqliteFileOf(file))).toBe(true)
  })

  it('reads a batch of logs in order into one transaction, until their text reaches its bound; a log that cannot be read says why and the others are written', async () => {
    const folder = temporaryFolder('dsh-sessions-batch-')
    const log = (name: string, text: string): string => writeZstdLog(folder, name, text)
    const unreadable = join(folder, 'a-folder')
    mkdirSync(unreadable)
    const keeper = keeperOf({ batchChars: 60 })
    await keeper.load(indexFile())
    const logs = [
      { session: 'session-a', path: log('a', 'the aardvark plan, thirty-odd characters'), revision: '1:1' },
      { session: 'session-x', path: unreadable, revision: '1:1' },
      { session: 'session-b', path: join(folder, 'gone.jsonl.zstd'), revision: '1:1' },
      { session: 'session-c', path: log('c', 'the capybara plan, thirty-odd characters'), revision: '1:1' },
      { session: 'session-d', path: log('d', 'the dingo plan, read by a later batch'), revision: '1:1' },
    ]
    const { read } = await keeper.read({ logs })
    expect(read).toEqual([{ found: true, title: undefined }, { failed: expect.any(String) }, { found: false, title: undefined }, { found: true, title: undefined }])
    expect(find(keeper, 'plan').sort()).toEqual(['session-a', 'session-c'])
    expect((await keeper.read({ logs: logs.slice(read.length) })).read).toEqual([{ found: true, title: undefined }])
    expect(keeper.search({ dates: [['session-d', 4]], only: ['session-d'] }, { terms: queryTerms('dingo'), limit: 5 }).map(hit => hit.id)).toEqual(['session-d'])
  })

  it('without SQLite, has no index and says why', async () => {
    const keeper = keeperOf({ engine: 'none' })
    expect(() => keeper.apply('session-a', entry('the aardvark plan'))).toThrow(NOT_OPEN_MESSAGE)
    const loaded = await keeper.load(indexFile())
    expect(loaded).toMatchObject({ engine: 'none', reason: 'unavailable', entries: [] })
    expect(loaded.why).toBeTruthy()
    expect(find(keeper, 'aardvark')).toEqual([])
  })

  it('sets a file damaged while open aside, fails that call with the damage, and serves a fresh file at once', async () => {
    const file = indexFile()
    const keeper = keeperOf()
    await keeper.load(file)
    for (const id of ['session-a', 'session-b', 'session-c']) keeper.apply(id, entry(`the ${id} plan about a quetzal`, 'filler words '.repeat(100)))
    expect(find(keeper, 'quetzal').sort()).toEqual(['session-a', 'session-b', 'session-c'])
    const other = new DatabaseSync(sqliteFileOf(file))
    other.exec('UPDATE texts SET body = randomblob(length(body))')
    other.exec('UPDATE terms_data SET block = randomblob(length(block)) WHERE id > 10')
    other.close()
    expect(() => find(keeper, 'quetzal')).toThrow(DAMAGED_MESSAGE)
    expect(existsSync(`${sqliteFileOf(file)}.damaged`)).toBe(true)
    expect(find(keeper, 'quetzal')).toEqual([])
    keeper.apply('session-a', entry('the quetzal again'))
    expect(find(keeper, 'quetzal')).toEqual(['session-a'])
  })

  it('keeps creation times given once: a query admits the sessions named, or every dated one but those left out, newest first on ties', async () => {
    const keeper = keeperOf()
    await keeper.load(indexFile())
    for (const id of ['session-a', 'session-b', 'session-c', 'session-d']) keeper.apply(id, entry('a note about a quetzal'))
    const ids = (scope: Parameters<IndexKeeper['search']>[0]) => keeper.search(scope, { terms: queryTerms('quetzal'), limit: 10 }).map(hit => hit.id)
    expect(ids({ dates: [['session-a', 1], ['session-b', 4], ['session-c', 3]], except: [] })).toEqual(['session-b', 'session-c', 'session-a'])
    expect(ids({ except: ['session-b'] })).toEqual(['session-c', 'session-a'])
    expect(ids({ only: ['session-a', 'session-d'] })).toEqual(['session-a'])
    expect(ids({ dates: [['session-d', 9]], dropped: ['session-c'], except: [] })).toEqual(['session-d', 'session-b', 'session-a'])
  })

  describe('when a build completes', () => {
    const MiB = 2 ** 20
    /** How many segments the file's term table holds (another connection's look). */
    const segmentsOf = (file: string): number => {
      const db = new DatabaseSync(sqliteFileOf(file), { readOnly: true })
      try {
        return (db.prepare('SELECT count(DISTINCT segid) AS n FROM terms_idx').get() as { n: number }).n
      } finally {
        db.close()
      }
    }
    /** A keeper of 30 sessions written one by one (a segment each, merged by sixteen), on a disk with `roomMiB` above a floor of 1 MiB, whose writes fail as on a full disk while `full.on`. */
    const everyone = { dates: Array.from({ length: 30 }, (_, n): [string, number] => [`session-${n}`, n]), except: [] }
    const built = async (roomMiB: number, full = { on: false }) => {
      const file = indexFile()
      const keeper = keeperOf({
        disk: () => ({ free: (1 + roomMiB) * MiB, total: 1_000 * MiB }),
        sqlite: { beforeWrite: () => { if (full.on) throw Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 }) } },
      })
      await keeper.load(file, 1)
      for (let n = 0; n < 30; n += 1) keeper.apply(`session-${n}`, entry(`note ${n} about a quetzal`, `word${n} `.repeat(20)))
      keeper.save(file)
      return { file, keeper }
    }

    it('merges the term tables into one segment once, and finds the same', async () => {
      const { file, keeper } = await built(100)
      expect(segmentsOf(file)).toBeGreaterThan(1)
      const before = keeper.search(everyone, { terms: queryTerms('quetzal'), limit: 50 }).map(hit => hit.id).sort()
      // A stop's save, bounded in time, merges nothing.
      keeper.save(file, true)
      expect(segmentsOf(file)).toBeGreaterThan(1)
      keeper.save(file, true, true)
      expect(segmentsOf(file)).toBe(1)
      expect(keeper.search(everyone, { terms: queryTerms('quetzal'), limit: 50 }).map(hit => hit.id).sort()).toEqual(before)
      expect(before).toHaveLength(30)
      // Later saves of the complete file merge nothing again: a live write's segment stays for FTS5's own merging.
      keeper.apply('session-late', entry('a late quetzal'))
      keeper.save(file, true, true)
      expect(segmentsOf(file)).toBe(2)
    })

    it('writes a small file again without the pages the merge freed', async () => {
      const file = indexFile()
      const keeper = keeperOf({ disk: () => ({ free: 1_000 * MiB, total: 2_000 * MiB }) })
      await keeper.load(file, 1)
      // Forty sessions of 1,500 words each, every word their own: term lists that span many pages.
      for (let n = 0; n < 40; n += 1) keeper.apply(`session-${n}`, entry(`note ${n} about a quetzal`, Array.from({ length: 1_500 }, (_, k) => `w${n}x${k}`).join(' ')))
      keeper.save(file)
      const pagesOf = (): { pages: number; free: number } => {
        const db = new DatabaseSync(sqliteFileOf(file), { readOnly: true })
        try {
          return { pages: (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count, free: (db.prepare('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count }
        } finally {
          db.close()
        }
      }
      const before = pagesOf()
      keeper.save(file, true, true)
      const after = pagesOf()
      expect(segmentsOf(file)).toBe(1)
      expect(after.free).toBe(0)
      expect(after.pages).toBeLessThanOrEqual(before.pages)
      const dates = { dates: Array.from({ length: 40 }, (_, n): [string, number] => [`session-${n}`, n]), except: [] }
      expect(keeper.search(dates, { terms: queryTerms('quetzal'), limit: 50 })).toHaveLength(40)
      expect(keeper.search(dates, { terms: queryTerms('w7x1499'), limit: 50 }).map(hit => hit.id)).toEqual(['session-7'])
    })

    it('merges a file that was complete, but not merged, when it was opened, at its first save', async () => {
      const { file, keeper } = await built(100)
      keeper.save(file, true)
      keeper.close()
      const segments = segmentsOf(file)
      expect(segments).toBeGreaterThan(1)
      const again = keeperOf({ disk: () => ({ free: 101 * MiB, total: 1_000 * MiB }) })
      await again.load(file, 1)
      again.save(file, false, true)
      expect(segmentsOf(file)).toBe(segments)
      again.save(file, true, true)
      expect(segmentsOf(file)).toBe(1)
    })

    it('leaves them as they are when the disk has no room for a second copy above the floor, or fills meanwhile, and saves all the same', async () => {
      const cramped = await built(0.001)
      const segments = segmentsOf(cramped.file)
      expect(cramped.keeper.save(cramped.file, true, true).bytes).toBeGreaterThan(0)
      expect(segmentsOf(cramped.file)).toBe(segments)
      const full = { on: false }
      const filling = await built(100, full)
      const before = segmentsOf(filling.file)
      full.on = true
      expect(filling.keeper.save(filling.file, true, true).bytes).toBeGreaterThan(0)
      expect(segmentsOf(filling.file)).toBe(before)
      full.on = false
      expect(filling.keeper.search(everyone, { terms: queryTerms('quetzal'), limit: 50 })).toHaveLength(30)
    })
  })
})
