/** The composer's mark on failing chips: the style sheet names the host's chips of the failing occurrences, in theme tokens. */
import { describe, expect, it } from 'vitest'
import { failedChipStyle } from '../../../src/client/core/failed-chips.ts'

describe('the composer\'s mark on failing chips', () => {
  it('names each failing occurrence of the host\'s chips and draws them with the theme\'s error colour', () => {
    const style = failedChipStyle([3, 7])
    expect(style).toContain('[data-decoration="chip"][data-occurrence="3"],\n[data-decoration="chip"][data-occurrence="7"] {')
    expect(style).toContain('color: var(--dsw-alias-state-error-primary);')
    expect(style).not.toMatch(/#[0-9a-f]{3,6}\b|rgb\(/i)
  })

  it('is empty when nothing fails, and never writes a selector from a value that is not an occurrence id', () => {
    expect(failedChipStyle([])).toBe('')
    expect(failedChipStyle([Number.NaN])).toBe('')
    expect(failedChipStyle([Number.NaN, 1.5, 2])).toContain('[data-occurrence="2"] {')
    expect(failedChipStyle([Number.NaN, 1.5, 2])).not.toMatch(/NaN|1\.5/)
  })
})
