/**
 * The temporary files the index file is written through, one per writing
 * process (`<file>.<pid>.tmp`), and the removal of those that no running
 * writer owns. File system only, so the host half can clean up after the
 * worker without loading the index.
 * @module @wishp3/dsh-sessions/host/search/index-temporary
 */
import { readdir, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * The temporary file this process writes the index file through.
 * @param path - the index file.
 * @returns `<path>.<pid>.tmp`.
 */
export function temporaryIndexFile(path: string): string {
  return `${path}.${process.pid}.tmp`
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the temporary files of the index file that no running writer
 * owns: this process's own (it is not writing when it reads the file) and
 * those of processes that are gone. Another running process's file is left
 * to it. Never throws.
 * @param path - the index file.
 * @returns the files removed.
 */
export async function removeStaleTemporaries(path: string): Promise<string[]> {
  const prefix = `${basename(path)}.`
  let names: string[]
  try {
    names = await readdir(dirname(path))
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const pid = /^(\d+)\.tmp$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : '')?.[1]
    if (pid === undefined || (Number(pid) !== process.pid && isRunning(Number(pid)))) continue
    try {
      await rm(join(dirname(path), name), { force: true })
      removed.push(name)
    } catch {
      // left for the next start
    }
  }
  return removed
}

