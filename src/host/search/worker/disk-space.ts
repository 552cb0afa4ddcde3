/**
 * The free space the content index leaves to the host: the index is a convenience, the user's next
 * turn is not, so the index writes nothing while the disk that holds it has less free space than a
 * floor.
 * @module @wishp3/dsh-sessions/host/search/worker/disk-space
 */
import { statfsSync } from 'node:fs'
import { sqliteCodeOf } from './index-file.ts'
import { type DiskFigures, type DiskSpace, LOW_DISK_MESSAGE } from '../worker-protocol.ts'

/** The least free space the index leaves when the setting is 0: 1 GiB. */
export const MIN_FLOOR_BYTES = 2 ** 30

/** The share of the disk the index leaves free when the setting is 0 (when that is more than {@link MIN_FLOOR_BYTES}). */
export const FLOOR_SHARE = 0.05

/** Reads a disk's figures: the folder's file system, as an unprivileged writer sees it. */
export type DiskReader = (folder: string) => DiskFigures

/** The figures `statfs` gives for the folder's file system. */
export const statDisk: DiskReader = folder => {
  const stats = statfsSync(folder)
  return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize }
}

/** The floor for a disk of this size. `settingMiB`: the `indexFreeSpaceMiB` setting; 0 for the default. */
export function floorOf(total: number, settingMiB: number): number {
  return settingMiB > 0 ? settingMiB * 2 ** 20 : Math.max(MIN_FLOOR_BYTES, Math.ceil(total * FLOOR_SHARE))
}

/** Where the folder's disk stands against the floor. `read`: how the figures are read (tests give their own). */
export function diskSpaceOf(folder: string, settingMiB: number, read: DiskReader = statDisk): DiskSpace {
  let figures: DiskFigures
  try {
    figures = read(folder)
  } catch {
    // A disk whose figures cannot be read is never taken for low: indexing goes on, as the host's own writes do.
    return { free: Number.POSITIVE_INFINITY, total: 0, floor: 0, low: false }
  }
  const floor = floorOf(figures.total, settingMiB)
  return { ...figures, floor, low: figures.free < floor }
}

/** SQLite's primary result code for a full disk. */
const SQLITE_FULL = 13

/** Whether an error says the disk is full: SQLite's `SQLITE_FULL`, or the system's `ENOSPC` (and `EDQUOT`, a full quota). */
export function isDiskFull(error: unknown): boolean {
  if (((sqliteCodeOf(error) ?? 0) & 0xff) === SQLITE_FULL) return true
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (code === 'ENOSPC' || code === 'EDQUOT') return true
  return typeof message === 'string' && /database or disk is full|ENOSPC|no space left on device/i.test(message)
}

/** A write the index did not make because its disk is low on space (it keeps what it has, and writes again once space returns). */
export class LowDiskError extends Error {
  constructor(space: DiskSpace | undefined, cause?: unknown) {
    const figures = space === undefined ? '' : ` (${Math.floor(space.free / 2 ** 20)} MiB free, ${Math.ceil(space.floor / 2 ** 20)} MiB kept for the host)`
    super(`${LOW_DISK_MESSAGE}${figures}`, cause === undefined ? undefined : { cause })
    this.name = 'LowDiskError'
  }
}
