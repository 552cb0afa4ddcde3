/**
 * Memory and processor time of a process group, read from Linux's `/proc`:
 * the resident set size and the user plus system time of every process whose
 * group id is the given one (a `dsh web` and anything it spawned).
 */
import { readdirSync, readFileSync } from 'node:fs'

/** One reading. */
export interface GroupUsage {
  /** Resident memory of the group, in bytes. */
  readonly rssBytes: number
  /** Processor time the group has used since it started, in seconds. */
  readonly cpuSeconds: number
}

const TICKS_PER_SECOND = 100
const PAGE_BYTES = 4096

/**
 * Reads the group's usage now.
 * @param groupId - the process group id (the pid of its leader).
 * @returns the summed usage; zeros when no process of the group is left.
 */
export function groupUsage(groupId: number): GroupUsage {
  let rssPages = 0
  let ticks = 0
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    // Fields after the parenthesised command name, which may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(fields[2]) !== groupId) continue
    ticks += Number(fields[11]) + Number(fields[12])
    rssPages += Number(fields[21])
  }
  return { rssBytes: rssPages * PAGE_BYTES, cpuSeconds: ticks / TICKS_PER_SECOND }
}
