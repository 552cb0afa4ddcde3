/** The saved content index: the term fingerprint that outdates a file saved by another pipeline, writes that fail or are cancelled, and temporary files stopped writers left. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { ContentIndex } from '../../src/host/search/content-index.ts'
import { INDEX_VERSION, readIndexFile, termsFingerprint, writeIndexFile } from '../../src/host/search/index-file.ts'
import { removeStaleTemporaries, temporaryIndexFile } from '../../src/host/search/index-temporary.ts'
import { indexTerms, isUnspaced, queryTerms } from '../../src/host/search/text.ts'
import { temporaryFolder } from './cleanup.ts'

const indexFile = (): string => join(temporaryFolder('dsh-sessions-index-file-'), 'content-index.json')

function sampleIndex(messages: readonly string[] = ['データベースの設計', 'がっこうへ行く', 'rollout 灰度策略']): ContentIndex {
  const index = ContentIndex.empty()
  index.set('session-a', { revision: '1:1', title: 'Japanese notes', messages })
  return index
}

const found = (index: ContentIndex, query: string) => index.search(queryTerms(query), () => true, 5, () => 0).map(hit => hit.id)

/** Term pipelines that differ from the index's own in one plausible way each. */
const CHANGED_PIPELINES: Record<string, (text: string) => readonly string[]> = {
  'folding without recomposition (kana lose their voicing marks)': text => indexTerms(text).map(term => term.normalize('NFD')),
  'no single last character of an unspaced run': text => indexTerms(text).filter(term => !(isUnspaced(term) && [...term].length === 1)),
  'the prolonged sound and iteration marks outside runs': text => indexTerms(text.replace(/[ー々]/gu, ' ')),
  'Katakana taken as spaced words': text => indexTerms(text.replace(/\p{sc=Katakana}+/gu, run => ` k${run.length} `)),
  'compatibility folding': text => indexTerms(text).map(term => term.normalize('NFKC')),
  'full case folding': text => indexTerms(text).map(term => term.replaceAll('ß', 'ss')),
  'words split at digits': text => indexTerms(text).flatMap(term => term.split(/(?<=\d)(?=\D)|(?<=\D)(?=\d)/u)),
  'words split from unspaced text': text => indexTerms(text.replace(/(\p{L})(?=\p{sc=Han})/gu, '$1 ')),
}

describe('the term fingerprint', () => {
  it.each(Object.entries(CHANGED_PIPELINES))('changes when the pipeline changes: %s', (_, pipeline) => {
    expect(termsFingerprint(pipeline)).not.toBe(termsFingerprint())
  })

  it('is the index\'s own pipeline by default, and stable', () => {
    expect(termsFingerprint(indexTerms)).toBe(termsFingerprint())
    expect(termsFingerprint()).toMatch(/^[0-9a-f]{16}$/)
  })

  it('outdates a file saved under another pipeline, so the terms are built again and kana phrases are found', async () => {
    const file = indexFile()
    await writeIndexFile(file, sampleIndex())
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { version: number; terms: string }
    expect(saved).toMatchObject({ version: INDEX_VERSION, terms: termsFingerprint() })
    const restored = await readIndexFile(file)
    expect(restored.ok).toBe(true)
    if (restored.ok) for (const query of ['データベース', 'がっこう', 'ベース', '灰度']) expect(found(restored.index, query)).toEqual(['session-a'])
    writeFileSync(file, JSON.stringify({ ...saved, terms: termsFingerprint(CHANGED_PIPELINES['folding without recomposition (kana lose their voicing marks)']!) }))
    expect(await readIndexFile(file)).toEqual({ ok: false, reason: 'outdated' })
    const { terms: _, ...unfingerprinted } = saved
    writeFileSync(file, JSON.stringify(unfingerprinted))
    expect(await readIndexFile(file)).toEqual({ ok: false, reason: 'outdated' })
  })
})

/** A file stream that fails once `limit` bytes were written to it. */
function failingAfter(limit: number): (path: string) => Writable {
  return path => {
    let written = 0
    const chunks: Buffer[] = []
    return new Writable({
      write(chunk: Buffer, _, done) {
        written += chunk.length
        if (written > limit) {
          writeFileSync(path, Buffer.concat(chunks))
          done(new Error('injected: the disk is full'))
          return
        }
        chunks.push(chunk)
        done()
      },
    })
  }
}

describe('writing the file', () => {
  it('leaves the previous file intact and no temporary file when a write fails halfway', async () => {
    const file = indexFile()
    await writeIndexFile(file, sampleIndex(['first version']))
    const before = readFileSync(file)
    const bigger = sampleIndex(Array.from({ length: 400 }, (_, n) => `message ${n} with words`))
    await expect(writeIndexFile(file, bigger, { open: failingAfter(2_000) })).rejects.toThrow('injected')
    expect(readFileSync(file).equals(before)).toBe(true)
    expect(existsSync(temporaryIndexFile(file))).toBe(false)
    // The next write goes through.
    await writeIndexFile(file, bigger)
    const restored = await readIndexFile(file)
    expect(restored.ok && found(restored.index, 'message')).toEqual(['session-a'])
  })

  it('stops between pieces when cancelled, keeping the old file and removing the temporary one', async () => {
    const file = indexFile()
    await writeIndexFile(file, sampleIndex(['first version']))
    const before = readFileSync(file)
    const controller = new AbortController()
    const big = ContentIndex.empty()
    for (let n = 0; n < 2_000; n += 1) big.set(`session-${n}`, { revision: '1:1', title: undefined, messages: [`words${n} more${n} text${n}`] })
    const writing = writeIndexFile(file, big, { signal: controller.signal })
    for (let wait = 0; !existsSync(temporaryIndexFile(file)) && wait < 200; wait += 1) await new Promise(resolve => setTimeout(resolve, 5))
    expect(existsSync(temporaryIndexFile(file))).toBe(true)
    controller.abort(new Error('stop'))
    await expect(writing).rejects.toThrow('stop')
    expect(readFileSync(file).equals(before)).toBe(true)
    expect(existsSync(temporaryIndexFile(file))).toBe(false)
  })
})

describe('temporary files left behind', () => {
  it('are removed when no running process owns them: this one\'s and those of processes that are gone', async () => {
    const file = indexFile()
    const folder = join(file, '..')
    const gone = 2 ** 22 + 12_345
    const running = process.ppid
    for (const pid of [gone, process.pid, running]) writeFileSync(`${file}.${pid}.tmp`, '{"half":')
    writeFileSync(join(folder, 'unrelated.1.tmp'), 'x')
    expect((await removeStaleTemporaries(file)).sort()).toEqual([`content-index.json.${gone}.tmp`, `content-index.json.${process.pid}.tmp`].sort())
    expect(readdirSync(folder).sort()).toEqual([`content-index.json.${running}.tmp`, 'unrelated.1.tmp'].sort())
  })
})
