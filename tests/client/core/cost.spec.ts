/** What a chip adds, worded in the UI language: bytes (as a word, with its plural) under 1 KB, then kilobytes with one decimal; tokens grouped. */
import { describe, expect, it } from 'vitest'
import { formatSize, formatTokens } from '../../../src/client/core/cost.ts'

describe('cost wording', () => {
  it('words sizes and token counts per locale', () => {
    expect([formatSize(790, 'en'), formatSize(12_400, 'en'), formatSize(65_536, 'en'), formatTokens(3_104, 'en')]).toEqual(['790 bytes', '12.4 kB', '65.5 kB', '3,104'])
    expect([formatSize(790, 'zh-CN'), formatSize(12_400, 'zh-CN'), formatTokens(3_104, 'zh-CN')]).toEqual(['790字节', '12.4 kB', '3,104'])
    expect(formatSize(999, 'en')).toBe('999 bytes')
    expect(formatSize(1, 'en')).toBe('1 byte')
    expect(formatSize(1_000, 'en')).toBe('1 kB')
  })
})
