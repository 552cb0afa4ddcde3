/** Real titles in the sidebar's rows: only rows that fall back get the plugin's title; the host's own title, a rename included, wins. */
import { describe, expect, it } from 'vitest'
import { untitledIds, withTitles } from '../../../src/client/core/titles.ts'

const list = {
  current: 'b',
  ids: ['a', 'b', 'c', 'd'],
  byId: {
    a: { id: 'a', displayTitle: 'alpha', blank: false },
    b: { id: 'b', title: 'Renamed', displayTitle: 'Renamed', blank: false },
    c: { id: 'c', displayTitle: 'New Session', blank: true },
    d: { id: 'd', displayTitle: 'beta', blank: false },
  },
}

describe('row titles', () => {
  it('asks only for rows that show a fallback', () => {
    expect(untitledIds(list)).toEqual(['a', 'd'])
  })

  it('replaces the fallback with a known title and keeps everything else', () => {
    const titled = withTitles(list, new Map([['a', 'Kiwi plans'], ['b', 'Old title'], ['c', 'Blank'], ['x', 'Nobody']]))
    expect(titled).not.toBe(list)
    expect(titled.byId.a).toEqual({ id: 'a', displayTitle: 'Kiwi plans', blank: false })
    expect(titled.byId.b).toBe(list.byId.b)
    expect(titled.byId.c).toBe(list.byId.c)
    expect(titled.byId.d).toBe(list.byId.d)
    expect(titled.current).toBe('b')
  })

  it('returns the same list when nothing changes, so memoised views do not recompute', () => {
    expect(withTitles(list, new Map())).toBe(list)
    expect(withTitles(list, new Map([['a', 'alpha']]))).toBe(list)
  })
})
