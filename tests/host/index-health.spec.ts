/** The look at the index file's health, and setting a damaged file aside: a file replaced under the index, a read past its end, and its write-ahead log, each told apart from what is not damage. */
import { copyFileSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as sqlite from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { setIndexFileAside } from '../../src/host/search/worker/index-file.ts'
import { indexFileProblem, isDamageSign } from '../../src/host/search/worker/index-health.ts'
import { SqliteIndex } from '../../src/host/search/worker/sqlite-index.ts'
import { UnpackError } from '../../src/host/search/text/stored-text.ts'
import { temporaryFolder } from './cleanup.ts'

/** An error as node:sqlite gives it, with SQLite's extended result code. */
const sqliteError = (errcode: number, message: string): Error => Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode })

describe('the index file\'s health', () => {
  it('finds a file replaced by one with the same contents, by its inode', () => {
    const path = join(temporaryFolder('dsh-sessions-health-'), 'content-index.sqlite')
    const { index } = SqliteIndex.open(sqlite, path)
    index.set('session-a', { revision: '1', title: 'Notes', messages: ['a note about a quetzal'] })
    index.close()
    const db = new sqlite.DatabaseSync(path, { readOnly: true })
    const pageSize = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size
    db.close()
    const expected = { inode: statSync(path).ino, pageSize }
    expect(indexFileProblem(sqlite, { path, expected })).toBeUndefined()
    // The same bytes under a new inode: another file now stands at the path.
    copyFileSync(path, `${path}.copy`)
    renameSync(`${path}.copy`, path)
    expect(statSync(path).ino).not.toBe(expected.inode)
    expect(indexFileProblem(sqlite, { path, expected })).toBe('the file was replaced')
    expect(indexFileProblem(sqlite, { path, expected: { ...expected, inode: statSync(path).ino } })).toBeUndefined()
  })

  it('takes a read past the file\'s end, a damaged or foreign file and a text that does not unpack as damage, and a busy, locked or unreadable file not', () => {
    expect(isDamageSign(sqliteError(522, 'disk I/O error'))).toBe(true)
    expect(isDamageSign(sqliteError(11, 'database disk image is malformed'))).toBe(true)
    expect(isDamageSign(sqliteError(26, 'file is not a database'))).toBe(true)
    expect(isDamageSign(new UnpackError('a stored piece of text does not unpack'))).toBe(true)
    // Another I/O error (SQLITE_IOERR_READ), busy, locked, a full disk, a plain error.
    for (const error of [sqliteError(266, 'disk I/O error'), sqliteError(5, 'database is locked'), sqliteError(6, 'database table is locked'), sqliteError(13, 'database or disk is full'), new Error('EACCES')])
      expect(isDamageSign(error), String(error)).toBe(false)
  })
})

describe('setting a damaged file aside', () => {
  it('moves the file and its write-ahead log aside together, replacing what an earlier damage left, and leaves nothing at the path for a fresh file to read', () => {
    const path = join(temporaryFolder('dsh-sessions-aside-'), 'content-index.sqlite')
    writeFileSync(`${path}.damaged`, 'an earlier damaged file')
    writeFileSync(`${path}.damaged-wal`, 'an earlier damaged log')
    writeFileSync(path, 'the damaged file')
    writeFileSync(`${path}-wal`, 'its write-ahead log')
    writeFileSync(`${path}-shm`, 'its shared memory')
    expect(setIndexFileAside(path)).toBe(`${path}.damaged`)
    expect(readFileSync(`${path}.damaged`, 'utf8')).toBe('the damaged file')
    expect(readFileSync(`${path}.damaged-wal`, 'utf8')).toBe('its write-ahead log')
    for (const left of [path, `${path}-wal`, `${path}-shm`]) expect(existsSync(left), left).toBe(false)
  })

  it('leaves no earlier write-ahead log beside the set-aside file when the damaged one had none', () => {
    const path = join(temporaryFolder('dsh-sessions-aside-'), 'content-index.sqlite')
    writeFileSync(`${path}.damaged-wal`, 'an earlier damaged log')
    writeFileSync(path, 'the damaged file')
    setIndexFileAside(path)
    expect(existsSync(`${path}.damaged-wal`)).toBe(false)
    expect(existsSync(path)).toBe(false)
  })
})
