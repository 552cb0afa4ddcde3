/** Reading a session log straight from disk: Zstandard frames in order, a corrupt or torn frame ends the text there and keeps what came before it. */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createZstdCompress, zstdCompressSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { readLogFile, readMessageSeqs } from '../../src/host/official/log-file.ts'
import { temporaryFolder } from './cleanup.ts'

const line = (text: string) => `${JSON.stringify({ type: 'user/message', data: { content: [{ type: 'text', text }], source: { kind: 'user' } } })}\n`

function logFile(...parts: Buffer[]): string {
  const path = join(temporaryFolder('dsh-sessions-log-'), 'session.jsonl.zstd')
  writeFileSync(path, Buffer.concat(parts))
  return path
}

const frame = (text: string) => zstdCompressSync(Buffer.from(text))

/** Reads one log of long frames again and again in a process of its own, and prints how much it grew. */
const READS = new URL('./fixtures/repeated-log-reads.ts', import.meta.url).pathname

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

  it('reads a line split across frames, and every line alike whether its type stands first or not', async () => {
    const typeLater = `${JSON.stringify({ seq: 9, type: 'user/message', data: { content: [{ type: 'text', text: 'type later' }], source: { kind: 'user' } } })}\n`
    // Another event whose data holds an object that looks like a message: not a message.
    const lookalike = `${JSON.stringify({ type: 'tool/result', data: { echo: { type: 'user/message', data: { content: [{ type: 'text', text: 'not one' }] } } } })}\n`
    const split = line('split across two frames 跨帧')
    // Cut inside a character of three bytes.
    const cut = Buffer.from(split).indexOf(Buffer.from('跨')) + 1
    const text = Buffer.from(line('first') + lookalike + split + typeLater)
    const at = Buffer.from(line('first') + lookalike).length + cut
    const path = logFile(zstdCompressSync(text.subarray(0, at)), zstdCompressSync(text.subarray(at)))
    expect((await readLogFile(path))?.messages).toEqual(['first', 'split across two frames 跨帧', 'type later'])
  })

  it('reads frames whose headers state their size in each width, and one that states none', async () => {
    // A one-shot frame states its size in one, two or four bytes by how long it is; a streamed frame states none.
    const streamed = await new Promise<Buffer>(resolve => {
      const parts: Buffer[] = []
      const stream = createZstdCompress()
      stream.on('data', (part: Buffer) => parts.push(part)).on('end', () => resolve(Buffer.concat(parts)))
      stream.end(line(`streamed ${'s'.repeat(70_000)}`))
    })
    const sized = ['tiny', `medium ${'m'.repeat(900)}`, `long ${'l'.repeat(70_000)}`].map(text => frame(line(text)))
    const path = logFile(...sized, streamed)
    expect((await readLogFile(path))?.messages.map(text => text.split(' ')[0])).toEqual(['tiny', 'medium', 'long', 'streamed'])
  })

  it('gives back the memory its long frames took: a store read through leaves the process as large as it was', () => {
    // Decoded a small piece at a time, as Node does by default, 100 reads of two 1.5 MB frames left some 55 MiB with the allocator for good.
    const run = spawnSync(process.execPath, ['--expose-gc', READS, '100'], { encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    const { messages, grewMiB } = JSON.parse(run.stdout) as { messages: number; grewMiB: number }
    expect(messages).toBe(200)
    expect(grewMiB).toBeLessThan(24)
  })

  it('answers a missing file with nothing and fails on an unreadable one', async () => {
    const folder = temporaryFolder('dsh-sessions-log-')
    expect(await readLogFile(join(folder, 'gone.jsonl.zstd'))).toBeUndefined()
    await expect(readLogFile(folder)).rejects.toThrow()
  })
})

describe('the seqs of a log\'s messages', () => {
  const event = (seq: number, type: string, data: object) => `${JSON.stringify({ seq, type, data })}\n`
  const user = (seq: number, text: string, kind = 'user') => event(seq, 'user/message', { content: [{ type: 'text', text }], source: { kind } })
  const reply = (seq: number, text: string) => event(seq, 'assistant/message', { message: { content: text === '' ? [] : [{ type: 'text', text }] } })

  it('names every person\'s message and reply with text, however long the session, and nothing else', async () => {
    const long = 'x'.repeat(17 * 1024 * 1024)
    const path = logFile(
      frame(user(0, 'first') + event(1, 'session/title', { title: 'T' }) + reply(2, 'an answer') + user(3, 'injected', 'context')),
      frame(reply(4, '') + user(5, long) + event(6, 'tool/result', {}) + user(7, 'after seventeen megabytes')),
    )
    expect(await readMessageSeqs(path)).toEqual([0, 2, 5, 7])
    // Search keeps the first 16 Mi characters of text, and counts the messages past them; the seqs go on past it.
    const read = await readLogFile(path)
    expect(read?.origins?.map(origin => origin.seq)).toEqual([0, 2, 5])
    expect(read?.total).toBe(4)
    expect(await readMessageSeqs(join(temporaryFolder('dsh-sessions-log-'), 'gone.jsonl.zstd'))).toBeUndefined()
  })
})
