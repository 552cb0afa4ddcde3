/** The disk pause: indexing pauses below the floor, and resumes only once the disk is above the floor again and has gained the margin over what it had when it paused. */
import { describe, expect, it } from 'vitest'
import { DiskPause } from '../../src/host/search/disk-pause.ts'

const MiB = 2 ** 20
const FLOOR = 100 * MiB
/** A look at a disk with `free` MiB free against a floor of 100 MiB. */
const disk = (free: number) => ({ free: free * MiB, floor: FLOOR, low: free * MiB < FLOOR })

describe('the disk pause', () => {
  it('pauses below the floor and stays paused while the disk is still below it, however much it gained', () => {
    const pause = new DiskPause()
    expect(pause.look(disk(500))).toBe('stay')
    expect(pause.look(disk(60))).toBe('pause')
    expect(pause.reason).toBe('low-disk')
    // 30 MiB gained, far over the margin, but still under the floor.
    expect(pause.look(disk(90))).toBe('stay')
    expect(pause.look(disk(99.9))).toBe('stay')
    expect(pause.reason).toBe('low-disk')
  })

  it('resumes once above the floor and over the margin, and not on a disk that only crossed the floor by less', () => {
    const pause = new DiskPause()
    pause.look(disk(99))
    // Over the floor by one MiB: not the margin (a quarter of the floor, at most 8 MiB) over what it had.
    expect(pause.look(disk(101))).toBe('stay')
    expect(pause.look(disk(107.5))).toBe('resume')
    expect(pause.reason).toBeUndefined()
    expect(pause.disk).toEqual({ free: 107.5 * MiB, floor: FLOOR })
  })

  it('learns what the disk had at its first look after a pause it was told of, and waits for the margin from there', () => {
    const pause = new DiskPause()
    expect(pause.pause()).toBe(true)
    expect(pause.pause()).toBe(false)
    expect(pause.look(disk(150))).toBe('stay')
    expect(pause.look(disk(155))).toBe('stay')
    expect(pause.look(disk(158))).toBe('resume')
  })
})
