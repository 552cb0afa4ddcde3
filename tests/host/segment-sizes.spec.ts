/** Segment lengths in memory: this connection's writes seen at once, another connection's once it has written, a rolled-back transaction's forgotten; and a query ranks by the latest. */
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { SegmentSizes } from '../../src/host/search/worker/segment-sizes.ts'
import { SqliteIndex } from '../../src/host/search/worker/sqlite-index.ts'
import * as sqlite from 'node:sqlite'
import { queryTerms } from '../../src/host/search/text/terms.ts'
import { afterTest, temporaryFolder } from './cleanup.ts'

function database(path: string): DatabaseSync {
  const db = new DatabaseSync(path)
  afterTest(() => db.close())
  return db
}

describe('segment lengths in memory', () => {
  it('see this connection\'s writes at once, another connection\'s after it wrote, and forget a rolled-back transaction\'s', () => {
    const path = join(temporaryFolder('dsh-sessions-sizes-'), 'sizes.sqlite')
    const own = database(path)
    own.exec('PRAGMA journal_mode = WAL; CREATE TABLE segments(row INTEGER PRIMARY KEY, size INTEGER NOT NULL); INSERT INTO segments VALUES (16, 5), (32, 7)')
    const sizes = new SegmentSizes(own)
    expect(sizes.current()(16)).toBe(5)
    // This connection's own writes, told to the lengths as they are made.
    own.exec('INSERT INTO segments VALUES (48, 9)')
    sizes.put(48, 9)
    own.exec('DELETE FROM segments WHERE row >= 32 AND row < 48')
    sizes.drop(32, 48)
    let of = sizes.current()
    expect([of(16), of(32), of(48)]).toEqual([5, undefined, 9])
    // Another connection's write is read at the next query.
    const other = database(path)
    other.exec('UPDATE segments SET size = 11 WHERE row = 16; INSERT INTO segments VALUES (64, 3)')
    of = sizes.current()
    expect([of(16), of(64)]).toEqual([11, 3])
    // A transaction rolled back: what it told is read again from the file.
    own.exec('BEGIN')
    own.exec('INSERT INTO segments VALUES (80, 4)')
    sizes.put(80, 4)
    own.exec('ROLLBACK')
    sizes.forget()
    expect(sizes.current()(80)).toBeUndefined()
  })

  it('rank a query\'s sessions by the lengths the latest writes left', () => {
    const path = join(temporaryFolder('dsh-sessions-sizes-'), 'content-index.sqlite')
    const { index } = SqliteIndex.open(sqlite, path)
    afterTest(() => index.close())
    const tie = (a: string, b: string): number => a.localeCompare(b)
    const entry = (...messages: string[]) => ({ revision: '1:1', title: undefined, messages })
    index.set('session-long', entry('the wombat plan', 'many other words here and there about nothing much at all'))
    index.set('session-short', entry('the wombat plan'))
    expect(index.search(queryTerms('wombat'), { admit: () => true, limit: 5, tieBreak: tie }).map(hit => hit.id)).toEqual(['session-short', 'session-long'])
    // The short one written again whole (its first message changed), longer than the other: the order follows.
    index.set('session-short', entry('the wombat plan, changed', 'many other words here and there about nothing much at all, and more words, and still more of them'))
    expect(index.search(queryTerms('wombat'), { admit: () => true, limit: 5, tieBreak: tie }).map(hit => hit.id)).toEqual(['session-long', 'session-short'])
  })
})
