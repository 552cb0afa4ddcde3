/** Excerpt emphasis: matches between marks, as plain text, with bad ranges ignored. */
import { describe, expect, it } from 'vitest'
import { emphasise } from '../../../src/client/core/snippet.ts'

describe('emphasise', () => {
  it('wraps each marked range and leaves markup in the text as text', () => {
    expect(emphasise({ text: 'a <i>b</i> billing c', marks: [[11, 18]] }, '«', '»')).toBe('a <i>b</i> «billing» c')
    expect(emphasise({ text: '我们讨论了灰度策略', marks: [[5, 9]] }, '【', '】')).toBe('我们讨论了【灰度策略】')
  })

  it('ignores overlapping, empty or out-of-bounds ranges', () => {
    expect(emphasise({ text: 'abcdef', marks: [[0, 2], [1, 3], [4, 4], [5, 9]] }, '[', ']')).toBe('[ab]cdef')
  })
})
