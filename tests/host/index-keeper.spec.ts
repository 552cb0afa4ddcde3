/** The worker's index and its file: a change before the file is opened is refused (nothing held in memory), the JSON file of earlier versions goes, no SQLite means no index, and a file damaged while open is set aside and replaced at once. */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { IndexKeeper, sqliteFileOf } from '../../src/host/search/index-keeper.ts'
import { queryTerms } from '../../src/host/search/terms.ts'
import { DAMAGED_MESSAGE } from '../../src/host/search/index-file.ts'
import { NOT_OPEN_MESSAGE } from '../../src/host/search/worker-protocol.ts'
import { afterTest, temporaryFolder } from './cleanup.ts'

const indexFile = (): string => join(temporaryFolder('dsh-sessions-keeper-'), 'content-index.json')

const entry = (...messages: string[]) => ({ revision: '1:1', title: undefined, messages })
const find = (keeper: IndexKeeper, query: string) => keeper.search(queryTerms(query), { dates: [['session-a', 1], ['session-b', 2], ['session-c', 3]], only: ['session-a', 'session-b', 'session-c'] }, 5).map(hit => hit.id)

function keeperOf(options: ConstructorParameters<typeof IndexKeeper>[0] = {}): IndexKeeper {
  const keeper = new IndexKeeper(options)
  afterTest(() => keeper.close())
  return keeper
}

describe('the keeper', () => {
  it('refuses changes that come before the file is opened, holding nothing of them, and removes the JSON file and temporary files of earlier versions', async () => {
    const file = indexFile()
    writeFileSync(file, '{"an old": "memory-engine file"}')
    writeFileSync(`${file}.99999999.tmp`, 'half a file')
    const keeper = keeperOf()
    expect(() => keeper.apply('session-a', entry('the aardvark plan'))).toThrow(NOT_OPEN_MESSAGE)
    await expect(keeper.read({ session: 'session-a', path: file, revision: '1:1' })).rejects.toThrow(NOT_OPEN_MESSAGE)
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
    const ids = (scope: Parameters<IndexKeeper['search']>[1]) => keeper.search(queryTerms('quetzal'), scope, 10).map(hit => hit.id)
    expect(ids({ dates: [['session-a', 1], ['session-b', 4], ['session-c', 3]], except: [] })).toEqual(['session-b', 'session-c', 'session-a'])
    expect(ids({ except: ['session-b'] })).toEqual(['session-c', 'session-a'])
    expect(ids({ only: ['session-a', 'session-d'] })).toEqual(['session-a'])
    expect(ids({ dates: [['session-d', 9]], dropped: ['session-c'], except: [] })).toEqual(['session-d', 'session-b', 'session-a'])
  })
})
