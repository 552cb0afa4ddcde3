/**
 * Whether the content index is paused for lack of disk space, and when it resumes: the host half's
 * record of what the worker's looks at the disk saw.
 * @module @wishp3/dsh-sessions/host/search/disk-pause
 */

/** Free space a paused index waits to gain over what it had when it paused, before it writes again: a quarter of the floor, at most 8 MiB. */
const resumeMargin = (floor: number): number => Math.min(8 * 2 ** 20, Math.floor(floor / 4))

/** Whether indexing is paused for lack of disk space, what the last look at the disk saw, and when indexing resumes. */
export class DiskPause {
  private pausedFor: 'low-disk' | undefined
  /** The disk's free space when indexing paused (learnt at the first look after). */
  private freeWhenPaused: number | undefined
  private last: { free: number; floor: number } | undefined

  /** `low-disk` while paused. */
  get reason(): 'low-disk' | undefined {
    return this.pausedFor
  }

  /** The disk's free space and the floor, in bytes, at the last look. */
  get disk(): { free: number; floor: number } | undefined {
    return this.last
  }

  /** Pauses; whether it was not paused before. */
  pause(): boolean {
    if (this.pausedFor !== undefined) return false
    this.pausedFor = 'low-disk'
    this.freeWhenPaused = undefined
    return true
  }

  /** Takes a look at the disk: `pause` when it fell below the floor, `resume` once a paused disk gained the margin, else `stay`. */
  look(space: { readonly low: boolean; readonly free: number; readonly floor: number }): 'pause' | 'resume' | 'stay' {
    this.last = { free: space.free, floor: space.floor }
    if (this.pausedFor === undefined) {
      if (!space.low) return 'stay'
      this.pause()
      this.freeWhenPaused = space.free
      return 'pause'
    }
    if (this.freeWhenPaused === undefined) {
      this.freeWhenPaused = space.free
      return 'stay'
    }
    if (space.low || space.free < this.freeWhenPaused + resumeMargin(space.floor)) return 'stay'
    this.pausedFor = undefined
    this.freeWhenPaused = undefined
    return 'resume'
  }
}
