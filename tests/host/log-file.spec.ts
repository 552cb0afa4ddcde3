/** Reading a session log straight from disk: Zstandard frames in order, a corrupt or torn frame ends the text there and keeps what came before it. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { zstdCompressSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { readLogFile } from '../../src/host/search/log-file.ts'
import { temporaryFolder } from './cleanup.ts'

const line = (text: string) => `${JSON.stringify({ type: 'user/message', data: { content: [{ type: 'text', text }], source: { kind: 'user' } } })}\n`

function logFile(...parts: Buffer[]): string {
  const path = join(temporaryFolder('dsh-sessions-log-'), 'session.jsonl.zstd')
  writeFileSync(path, Buffer.concat(parts))
  return path
}

const frame = (text: string) => zstdCompressSync(Buffer.from(text))

describe('a Zstandard log', () => {
  it('reads every frame in order', async () => {
    const path = logFile(frame(line('first') + line('second')), frame(line('third')))
    expect((await readLogFile(path))?.messages).toEqual(['first', 'second', 'third'])
  })

  it('keeps the text before a corrupt frame in the middle', async () => {
    const good = frame(line('before the damage'))
    const damaged = Buffer.from(frame(line('damaged')))
    damaged.fill(0x5a, 4)
    const path = logFile(good, damaged, frame(line('after the damage')))
    expect((await readLogFile(path))?.messages).toEqual(['before the damage'])
  })

  it('keeps the text before a torn last frame', async () => {
    const last = frame(line('torn'))
    const path = logFile(frame(line('kept')), last.subarray(0, last.length - 3))
    expect((await readLogFile(path))?.messages).toEqual(['kept'])
  })

  it('answers a missing file with nothing and fails on an unreadable one', async () => {
    const folder = temporaryFolder('dsh-sessions-log-')
    expect(await readLogFile(join(folder, 'gone.jsonl.zstd'))).toBeUndefined()
    await expect(readLogFile(folder)).rejects.toThrow()
  })
})
