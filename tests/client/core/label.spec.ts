/** Display clamping of long titles: never longer than the bound, never a split character. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clampLabel } from '../../../src/client/core/label.ts'

describe('clampLabel', () => {
  it('keeps a text within the bound as it is', () => {
    expect(clampLabel('Orchard plans', 13)).toBe('Orchard plans')
    expect(clampLabel('发布计划', 4)).toBe('发布计划')
  })

  it('cuts a longer text and ends it with an ellipsis', () => {
    expect(clampLabel('Orchard plans for spring', 10)).toBe('Orchard p…')
    expect(clampLabel('abc def', 5)).toBe('abc…')
  })

  it('never splits an astral character or a grapheme cluster', () => {
    expect(clampLabel('😀😀😀😀', 3)).toBe('😀😀…')
    expect(clampLabel('e\u0301e\u0301e\u0301e\u0301', 4)).toBe('e\u0301…')
  })

  it('never exceeds the bound and always keeps a prefix of the text', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 2, max: 120 }), (text, max) => {
      const shown = clampLabel(text, max)
      expect(Array.from(shown).length).toBeLessThanOrEqual(max)
      if (shown !== text) expect(text.startsWith(shown.slice(0, -1).trimEnd())).toBe(true)
    }))
  })
})
