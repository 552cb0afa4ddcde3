/**
 * The content index on disk: one JSON file `{ format, version, content }`,
 * written piece by piece to a temporary file (resting between pieces, so the
 * host keeps serving) and renamed over the old one, so a crash leaves the
 * old file or the new one, never half of either. A file that is missing, unreadable, not
 * JSON, of another format or version, or that does not restore, is reported
 * as such and the caller builds the index again; nothing here throws.
 * @module @wishp3/dsh-sessions/host/search/index-file
 */
import { createWriteStream } from 'node:fs'
import { mkdir, readFile, rename, rm } from 'node:fs/promises'
import { once } from 'node:events'
import { dirname } from 'node:path'
import { ContentIndex, type ContentIndexData } from './content-index.ts'

/** The file's format name. */
export const INDEX_FORMAT = 'dsh-sessions-content-index'

/** Version of the file's layout and of the terms in it; a file of another version is built again. */
export const INDEX_VERSION = 1

/** The file's top level. */
interface IndexFile {
  readonly format: typeof INDEX_FORMAT
  readonly version: number
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
  if (data.version !== INDEX_VERSION) return { ok: false, reason: 'outdated' }
  try {
    return { ok: true, index: await ContentIndex.fromJSON((data as IndexFile).content) }
  } catch {
    return { ok: false, reason: 'corrupt' }
  }
}

const rest = (): Promise<void> => new Promise(resolve => setImmediate(resolve))

/**
 * Writes the index file, replacing the old one at once. The index must not
 * change until the returned promise settles.
 * @param path - the file; its folder is created.
 * @param index - the index.
 * @returns the bytes written.
 */
export async function writeIndexFile(path: string, index: ContentIndex): Promise<number> {
  const temporary = `${path}.${process.pid}.tmp`
  await mkdir(dirname(path), { recursive: true })
  const out = createWriteStream(temporary)
  let bytes = 0
  const put = async (text: string): Promise<void> => {
    bytes += Buffer.byteLength(text)
    if (!out.write(text)) await once(out, 'drain')
  }
  try {
    await put(`{"format":${JSON.stringify(INDEX_FORMAT)},"version":${INDEX_VERSION},"content":`)
    for (const part of index.jsonParts()) {
      await put(part)
      await rest()
    }
    await put('}')
    out.end()
    await once(out, 'close')
    await rename(temporary, path)
  } catch (error) {
    out.destroy()
    await rm(temporary, { force: true })
    throw error
  }
  return bytes
}
