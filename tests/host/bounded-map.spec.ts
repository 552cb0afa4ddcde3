/** The bounded map under the read caches: at most its limit of entries, the oldest set dropped first, a read leaving the order alone and a set again making a key the newest, its entries listed oldest first. */
import { describe, expect, it } from 'vitest'
import { BoundedMap } from '../../src/host/bounded-map.ts'

describe('bounded map', () => {
  it('holds at most its limit, dropping the entry set longest ago', () => {
    const map = new BoundedMap<string, number>(2)
    map.set('a', 1)
    map.set('b', 2)
    map.set('c', 3)
    expect(map.size).toBe(2)
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([undefined, 2, 3])
  })

  it('leaves the order alone on a read, and makes a key set again the newest', () => {
    const read = new BoundedMap<string, number>(2)
    read.set('a', 1)
    read.set('b', 2)
    expect(read.get('a')).toBe(1)
    read.set('c', 3)
    expect(read.get('a')).toBeUndefined()

    const touched = new BoundedMap<string, number>(2)
    touched.set('a', 1)
    touched.set('b', 2)
    touched.set('a', 10)
    touched.set('c', 3)
    expect([touched.get('a'), touched.get('b'), touched.get('c')]).toEqual([10, undefined, 3])
    expect([...touched]).toEqual([['a', 10], ['c', 3]])
  })

  it('drops a key on delete', () => {
    const map = new BoundedMap<string, number>(2)
    map.set('a', 1)
    map.delete('a')
    map.delete('missing')
    expect(map.size).toBe(0)
    expect(map.get('a')).toBeUndefined()
  })
})
