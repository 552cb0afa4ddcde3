/**
 * The content index on disk: one JSON file `{ format, version, terms,
 * content }`, written piece by piece to a temporary file of this process
 * (resting between pieces, so the host keeps serving) and renamed over the
 * old one, so a crash leaves the old file or the new one, never half of
 * either. A write that fails or is cancelled removes its temporary file;
 * temporary files that a stopped process left behind are removed before the
 * file is read.
 *
 * `terms` is the fingerprint of the term pipeline that made the saved terms
 * (see {@link termsFingerprint}), so a file saved before the terms changed
 * is built again however the change was made. A file that is missing,
 * unreadable, not JSON, of another format, version or term pipeline, or that
 * does not restore, is reported as such and the caller builds the index
 * again; reading never throws.
 * @module @wishp3/dsh-sessions/host/search/index-file
 */
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, readFile, rename, rm } from 'node:fs/promises'
import { once } from 'node:events'
import { dirname } from 'node:path'
import type { Writable } from 'node:stream'
import { ContentIndex, type ContentIndexData } from './content-index.ts'
import { temporaryIndexFile } from './index-temporary.ts'
import { indexTerms } from './text.ts'

/** The file's format name. */
export const INDEX_FORMAT = 'dsh-sessions-content-index'

/** Version of the file's layout; a file of another version is built again. Term changes need no bump: see {@link termsFingerprint}. */
export const INDEX_VERSION = 2

/**
 * A text that every step of the term pipeline changes the terms of: case,
 * Latin accents in both compositions, kana voicing marks (composed and
 * combining), Han and kana runs, the prolonged sound mark and iteration
 * mark, Hangul, digits, ligatures and dotted capitals, words next to CJK.
 */
const FINGERPRINT_SAMPLE = 'Café Cafe\u0301 GENÈVE naïve İstanbul Straße ﬁle 3rd-4th x86_64 データベース がっこう か\u3099 ベース 灰度策略 發佈 人々 한국어 Rollout灰度 東京タワー'

/**
 * The fingerprint of a term pipeline: a hash of the terms it makes of a fixed
 * sample text. Computed from the pipeline itself, so a change of the terms
 * changes it without anyone remembering to.
 * @param terms - the pipeline; the index's own by default.
 * @returns a short hex digest.
 */
export function termsFingerprint(terms: (text: string) => readonly string[] = indexTerms): string {
  if (terms === indexTerms) return ownFingerprint ??= fingerprintOf(terms)
  return fingerprintOf(terms)
}

/** The index's own fingerprint, made once per process. */
let ownFingerprint: string | undefined

function fingerprintOf(terms: (text: string) => readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(terms(FINGERPRINT_SAMPLE))).digest('hex').slice(0, 16)
}

/** The file's top level. */
interface IndexFile {
  readonly format: typeof INDEX_FORMAT
  readonly version: number
  readonly terms: string
  readonly content: ContentIndexData
}

/** What reading the file gave. */
export type IndexFileRead =
  | { readonly ok: true; readonly index: ContentIndex }
  | { readonly ok: false; readonly reason: 'missing' | 'unreadable' | 'corrupt' | 'outdated' }

/**
 * Reads and restores the index file.
 * @param path - the file.
 * @returns the index, or why there is none.
 */
export async function readIndexFile(path: string): Promise<IndexFileRead> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    return { ok: false, reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable' }
  }
  let data: Partial<IndexFile>
  try {
    data = JSON.parse(text) as Partial<IndexFile>
  } catch {
    return { ok: false, reason: 'corrupt' }
  }
  if (data === null || typeof data !== 'object' || data.format !== INDEX_FORMAT) return { ok: false, reason: 'corrupt' }
  if (data.version !== INDEX_VERSION || data.terms !== termsFingerprint()) return { ok: false, reason: 'outdated' }
  try {
    return { ok: true, index: await ContentIndex.fromJSON((data as IndexFile).content) }
  } catch {
    return { ok: false, reason: 'corrupt' }
  }
}

const rest = (): Promise<void> => new Promise(resolve => setImmediate(resolve))

/** Options of {@link writeIndexFile}. */
export interface WriteOptions {
  /** Stops the write between two pieces; the old file stays and the temporary one is removed. */
  readonly signal?: AbortSignal
  /** Opens the temporary file for writing (tests put faults here). */
  readonly open?: (path: string) => Writable
}

/**
 * Writes the index file, replacing the old one at once. The index must not
 * change until the returned promise settles. When the write fails or is
 * cancelled, the old file is left as it was and the temporary file removed.
 * @param path - the file; its folder is created.
 * @param index - the index.
 * @param options - cancellation, and where the bytes go.
 * @returns the bytes written.
 */
export async function writeIndexFile(path: string, index: ContentIndex, options: WriteOptions = {}): Promise<number> {
  const temporary = temporaryIndexFile(path)
  await mkdir(dirname(path), { recursive: true })
  const out = (options.open ?? (file => createWriteStream(file)))(temporary)
  const failed = new Promise<never>((_, reject) => out.once('error', reject))
  failed.catch(() => undefined)
  let bytes = 0
  const put = async (text: string): Promise<void> => {
    options.signal?.throwIfAborted()
    bytes += Buffer.byteLength(text)
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed])
  }
  try {
    await put(`{"format":${JSON.stringify(INDEX_FORMAT)},"version":${INDEX_VERSION},"terms":${JSON.stringify(termsFingerprint())},"content":`)
    for (const part of index.jsonParts()) {
      await put(part)
      await rest()
    }
    await put('}')
    out.end()
    await Promise.race([once(out, 'close'), failed])
    options.signal?.throwIfAborted()
    await rename(temporary, path)
  } catch (error) {
    out.destroy()
    await rm(temporary, { force: true })
    throw error
  }
  return bytes
}
