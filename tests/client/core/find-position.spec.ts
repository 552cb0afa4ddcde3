/** The find bar's position among a session's matches: paging, stepping both ways, and what the count says. */
import { describe, expect, it } from 'vitest'
import { countOf, positionOf, stepOf, withPage } from '../../../src/client/core/find-position.ts'
import type { FindResponse } from '../../../src/shared/wire.ts'

const page = (numbers: number[], total: number, complete: boolean): FindResponse => ({
  matches: numbers.map(number => ({ number, seq: number * 10, snippet: { text: `m${number}`, marks: [] } })),
  total,
  complete,
})

describe('find position', () => {
  it('counts the matches, then steps forward and back, wrapping once every match is loaded', () => {
    let position = positionOf(page([3, 12, 60], 3, true))
    expect(countOf(position)).toEqual({ n: 1, total: 3, more: false })
    expect(stepOf(position, 1)).toEqual({ index: 0 })
    position = { ...position, at: 2 }
    expect(countOf(position)).toEqual({ n: 3, total: 3, more: false })
    expect(stepOf(position, 1)).toEqual({ index: 0 })
    expect(stepOf({ ...position, at: 0 }, -1)).toEqual({ index: 2 })
    expect(stepOf({ ...position, at: 1 }, -1)).toEqual({ index: 0 })
  })

  it('asks for the page after the last loaded match, and adds it', () => {
    const first = { ...positionOf(page([1, 2], 5, true)), at: 1 }
    expect(stepOf(first, 1)).toEqual({ load: 2 })
    // Back from the first match does not wrap while later matches are not loaded.
    expect(stepOf({ ...first, at: 0 }, -1)).toBeUndefined()
    const more = withPage(first, page([7, 9, 11], 3, true))
    expect(more.matches.map(match => match.number)).toEqual([1, 2, 7, 9, 11])
    expect([more.total, more.complete, more.at]).toEqual([5, true, 1])
    expect(stepOf(more, 1)).toEqual({ index: 2 })
  })

  it('says a count that stopped short is a lower bound, and nothing for no match', () => {
    const position = positionOf(page([4], 130, false))
    expect(countOf({ ...position, at: 0 })).toEqual({ n: 1, total: 130, more: true })
    expect(stepOf({ ...position, at: 0 }, 1)).toEqual({ load: 4 })
    expect(countOf(positionOf(page([], 0, true)))).toBe('none')
    expect(stepOf(positionOf(page([], 0, true)), 1)).toBeUndefined()
    expect(countOf(undefined)).toBeUndefined()
  })
})
