/**
 * The content index on disk: one JSON file, written whole to a temporary
 * file and renamed over the old one, so a crash leaves the old file or the
 * new one, never half of either. A file that is missing, unreadable, not
 * JSON, of another format or version, or that does not restore, is reported
 * as such and the caller builds the index again; nothing here throws.
 * @module @wishp3/dsh-sessions/host/search/index-file
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ContentIndex, type ContentIndexData } from './content-index.ts'

/** The file's format name. */
export const INDEX_FORMAT = 'dsh-sessions-content-index'

/** Version of the file's layout and of the terms in it; a file of another version is built again. */
export const INDEX_VERSION = 1

/** The file's top level. */
interface IndexFile extends ContentIndexData {
  readonly format: typeof INDEX_FORMAT
  readonly version: number
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
    return { ok: true, index: await ContentIndex.fromJSON(data as IndexFile) }
  } catch {
    return { ok: false, reason: 'corrupt' }
  }
}

/**
 * Writes the index file, replacing the old one at once.
 * @param path - the file; its folder is created.
 * @param index - the index.
 * @returns the bytes written.
 */
export async function writeIndexFile(path: string, index: ContentIndex): Promise<number> {
  const file: IndexFile = { format: INDEX_FORMAT, version: INDEX_VERSION, ...index.toJSON() }
  const text = JSON.stringify(file)
  const temporary = `${path}.${process.pid}.tmp`
  await mkdir(dirname(path), { recursive: true })
  try {
    await writeFile(temporary, text)
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  return Buffer.byteLength(text)
}
