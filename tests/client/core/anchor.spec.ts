/** Which chat row holds a message: the last visible row starting at or before it; older history first when it is before every loaded row. */
import { describe, expect, it } from 'vitest'
import { rowOfSeq } from '../../../src/client/core/anchor.ts'

const rows = [
  { key: 'u:10', anchorSeq: 10, visibility: 'visible' as const },
  { key: 'a:12', anchorSeq: 12, visibility: 'visible' as const },
  { key: 'h:15', anchorSeq: 15, visibility: 'hidden' as const },
  { key: 'u:20', anchorSeq: 20, visibility: 'visible' as const },
]

describe('the row of a message', () => {
  it('is the row starting at it, or the last visible one before it', () => {
    expect(rowOfSeq(rows, 12, false)).toEqual({ kind: 'row', key: 'a:12' })
    expect(rowOfSeq(rows, 14, false)).toEqual({ kind: 'row', key: 'a:12' })
    expect(rowOfSeq(rows, 16, false)).toEqual({ kind: 'row', key: 'a:12' })
    expect(rowOfSeq([...rows].reverse(), 25, false)).toEqual({ kind: 'row', key: 'u:20' })
  })

  it('needs older history while the message is before every loaded row', () => {
    expect(rowOfSeq(rows, 3, true)).toEqual({ kind: 'older' })
    expect(rowOfSeq([], 3, true)).toEqual({ kind: 'older' })
    expect(rowOfSeq(rows, 3, false)).toEqual({ kind: 'none' })
    expect(rowOfSeq([], 3, false)).toEqual({ kind: 'none' })
  })
})
