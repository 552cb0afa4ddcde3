/** The worker's index and its file (the memory engine; the SQLite engine writes each change as it comes, see `sqlite-index.spec.ts`): changes that arrive while the file is written wait, are never lost and never reach the half-written file; a cancelled or failed save changes nothing on disk. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { IndexKeeper } from '../../src/host/search/index-keeper.ts'
import { temporaryIndexFile } from '../../src/host/search/index-temporary.ts'
import { queryTerms } from '../../src/host/search/text.ts'
import { temporaryFolder } from './cleanup.ts'

const indexFile = (): string => join(temporaryFolder('dsh-sessions-keeper-'), 'content-index.json')

/** A file stream whose every write waits until `release` is called, so a save can be caught halfway. */
function heldStream(): { open: (path: string) => Writable; started: Promise<void>; release: () => void } {
  let release!: () => void
  const held = new Promise<void>(resolve => { release = resolve })
  let begin!: () => void
  const started = new Promise<void>(resolve => { begin = resolve })
  return {
    started,
    release,
    open: path => {
      const chunks: Buffer[] = []
      return new Writable({
        write(chunk: Buffer, _, done) {
          chunks.push(chunk)
          begin()
          void held.then(() => done())
        },
        final(done) {
          writeFileSync(path, Buffer.concat(chunks))
          done()
        },
      })
    },
  }
}

const entry = (...messages: string[]) => ({ revision: '1:1', title: undefined, messages })
const find = (keeper: IndexKeeper, query: string) => keeper.search(queryTerms(query), [['session-a', 1], ['session-b', 2], ['session-c', 3]], 5).map(hit => hit.id)

describe('changes while the file is written', () => {
  it('wait, reach the index right after, and are not in the file written meanwhile', async () => {
    const file = indexFile()
    const stream = heldStream()
    const keeper = new IndexKeeper({ engine: 'memory', open: stream.open })
    keeper.apply('session-a', entry('the aardvark plan'))
    keeper.apply('session-b', entry('the badger plan'))
    const saving = keeper.save(file)
    await stream.started
    expect(keeper.isSaving).toBe(true)
    keeper.apply('session-c', entry('the capybara plan'))
    keeper.apply('session-b', null)
    keeper.apply('session-a', entry('first edit'))
    keeper.apply('session-a', entry('the aardvark plan, revised with a dromedary'))
    // Nothing applied yet: queries answer from the index being written.
    expect(find(keeper, 'capybara')).toEqual([])
    expect(find(keeper, 'badger')).toEqual(['session-b'])
    stream.release()
    await saving
    expect(find(keeper, 'capybara')).toEqual(['session-c'])
    expect(find(keeper, 'badger')).toEqual([])
    expect(find(keeper, 'dromedary')).toEqual(['session-a'])
    expect(find(keeper, 'first')).toEqual([])
    const written = readFileSync(file, 'utf8')
    expect(written).toContain('badger')
    expect(written).not.toContain('capybara')
    expect(written).not.toContain('dromedary')
    // The next save holds them.
    const next = new IndexKeeper({ engine: 'memory' })
    expect((await next.load(file)).reason).toBe('restored')
    await keeper.save(file)
    const reloaded = new IndexKeeper({ engine: 'memory' })
    await reloaded.load(file)
    expect(find(reloaded, 'capybara')).toEqual(['session-c'])
    expect(find(reloaded, 'badger')).toEqual([])
  })

  it('are kept when the save is cancelled, which leaves the old file and no temporary one', async () => {
    const file = indexFile()
    const first = new IndexKeeper({ engine: 'memory' })
    first.apply('session-a', entry('the aardvark plan'))
    await first.save(file)
    const before = readFileSync(file)
    const stream = heldStream()
    const keeper = new IndexKeeper({ engine: 'memory', open: stream.open })
    await keeper.load(file)
    keeper.apply('session-b', entry('the badger plan'))
    const saving = keeper.save(file)
    await stream.started
    keeper.apply('session-c', entry('the capybara plan'))
    const cancelled = keeper.cancelSave()
    stream.release()
    await expect(saving).rejects.toThrow('cancelled')
    await cancelled
    expect(readFileSync(file).equals(before)).toBe(true)
    expect(existsSync(temporaryIndexFile(file))).toBe(false)
    expect(find(keeper, 'capybara')).toEqual(['session-c'])
    expect(find(keeper, 'badger')).toEqual(['session-b'])
  })

  it('are kept when the save fails, and a second save writes them', async () => {
    const file = indexFile()
    const failing = new IndexKeeper({ engine: 'memory', open: () => new Writable({ write: (_chunk, _encoding, done) => done(new Error('injected: no space left')) }) })
    failing.apply('session-a', entry('the aardvark plan'))
    const saving = failing.save(file)
    failing.apply('session-b', entry('the badger plan'))
    await expect(saving).rejects.toThrow('injected')
    expect(existsSync(file)).toBe(false)
    expect(find(failing, 'badger')).toEqual(['session-b'])
  })
})
