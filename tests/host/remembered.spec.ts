/** A remembered function computes a string once, and empties its memory whole once it holds its bound. */
import { describe, expect, it } from 'vitest'
import { remembered } from '../../src/host/search/text/remembered.ts'

describe('remembered', () => {
  it('computes each string once until its bound is met, then starts over', () => {
    const asked: string[] = []
    const upper = remembered(key => { asked.push(key); return key.toUpperCase() }, 2)
    expect([upper('a'), upper('a'), upper('b'), upper('a')]).toEqual(['A', 'A', 'B', 'A'])
    expect(asked).toEqual(['a', 'b'])
    expect(upper('c')).toBe('C')
    expect(upper('a')).toBe('A')
    expect(asked).toEqual(['a', 'b', 'c', 'a'])
  })
})
