/** Excerpt emphasis: matches between marks, as plain text, with bad ranges ignored; a partial match's note of what it lacks. */
import { describe, expect, it } from 'vitest'
import { emphasise, withMissing } from '../../../src/client/core/snippet.ts'

describe('emphasise', () => {
  it('wraps each marked range and leaves markup in the text as text', () => {
    expect(emphasise({ text: 'a <i>b</i> billing c', marks: [[11, 18]] }, '«', '»')).toBe('a <i>b</i> «billing» c')
    expect(emphasise({ text: '我们讨论了灰度策略', marks: [[5, 9]] }, '【', '】')).toBe('我们讨论了【灰度策略】')
  })

  it('ignores overlapping, empty or out-of-bounds ranges', () => {
    expect(emphasise({ text: 'abcdef', marks: [[0, 2], [1, 3], [4, 4], [5, 9]] }, '[', ']')).toBe('[ab]cdef')
  })
})

describe('withMissing', () => {
  it('puts the note of the words a partial match lacks before its excerpt, and nothing for a whole match', () => {
    const en = (words: string) => `Missing: ${words}`
    const zh = (words: string) => `未包含：${words}`
    expect(withMissing('Our Postgres orders table', ['bloat'], en)).toBe('Missing: bloat · Our Postgres orders table')
    expect(withMissing('先校验签名', ['证书', '吊销'], zh)).toBe('未包含：证书 吊销 · 先校验签名')
    expect(withMissing('whole', undefined, en)).toBe('whole')
    expect(withMissing('whole', [], en)).toBe('whole')
  })
})
