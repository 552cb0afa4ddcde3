/**
 * The kernel's page cache, for benches that compare cold boots: what a boot
 * reads of the session logs then comes from disk for both hosts alike,
 * whichever of them read its copy last.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'

/**
 * Writes dirty pages back, then drops the clean page cache, dentries and
 * inodes (Linux, as root).
 * @returns whether the cache was dropped; false where that is not permitted or not Linux.
 */
export function dropPageCache(): boolean {
  try {
    execFileSync('sync')
    writeFileSync('/proc/sys/vm/drop_caches', '3')
    return true
  } catch {
    return false
  }
}
