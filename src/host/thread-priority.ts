/**
 * A worker thread's scheduling priority (the search worker's and the store reader's): the lowest, for its own thread only, so that it gets the
 * processor when the host's threads leave it idle. Only Linux keeps a nice value per thread; elsewhere
 * the same call would lower the whole host process, so the priority is left as it is.
 * @module @wishp3/dsh-sessions/host/thread-priority
 */
import { setPriority } from 'node:os'

/** Lowers the calling thread's priority where that touches this thread alone. Returns whether it was lowered. `platform` and `set`: the system's, unless a test gives others. */
export function lowerThreadPriority(platform: NodeJS.Platform = process.platform, set: (priority: number) => void = setPriority): boolean {
  if (platform !== 'linux') return false
  try {
    set(19)
    return true
  } catch {
    // Not permitted here: the thread keeps the priority it inherited.
    return false
  }
}
