/**
 * A gzip-compressed JSON file of the plugin's own under `$DSH_HOME`.
 * @module @wishp3/dsh-sessions/host/gzip-json-file
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { gunzip, gzip } from 'node:zlib'

const gzipped = promisify(gzip)
const gunzipped = promisify(gunzip)

/** Reads a file. Returns its value; `undefined` when there is no file, or it cannot be read or parsed. */
export async function readGzipJson(file: string): Promise<unknown> {
  try {
    return JSON.parse((await gunzipped(await readFile(file))).toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

/** Writes a file whole, its folder made if missing. */
export async function writeGzipJson(file: string, value: unknown): Promise<number> {
  const bytes = await gzipped(JSON.stringify(value), { level: 1 })
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  try {
    await writeFile(temporary, bytes)
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  return bytes.length
}

/** Removes the temporary files of a file that processes stopped mid-write left beside it (named by each process's id); a running process's stays. */
export async function removeLeftoverTemporaries(file: string): Promise<void> {
  const prefix = `${basename(file)}.`
  let names: string[]
  try {
    names = await readdir(dirname(file))
  } catch {
    // No folder, no temporary files to remove.
    return
  }
  const left = names.filter(name => name.startsWith(prefix) && name.endsWith('.tmp') && !running(Number(name.slice(prefix.length, -'.tmp'.length))))
  await Promise.all(left.map(name => rm(join(dirname(file), name), { force: true })))
}

/** Whether a process with this id runs (another dsh on the same home may be writing its own temporary file). */
function running(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
