/** The one reach into MiniSearch's private fields: its pieces are exactly `toJSON`, and a MiniSearch without those fields is refused, not misread. */
import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { plainObjectParts } from '../../src/host/official/minisearch.ts'

const options = { fields: ['text'], autoVacuum: false }

describe('MiniSearch serialized in pieces', () => {
  it('equals its own toJSON, across many pieces, after discards, and loads back to the same answers', async () => {
    const search = new MiniSearch<{ id: string; text: string }>(options)
    for (let n = 0; n < 3_000; n += 1) search.add({ id: `s${n}`, text: `word${n} shared 灰度 café${n % 7}` })
    search.discard('s10')
    const parts = [...plainObjectParts(search)]
    expect(parts.length).toBeGreaterThan(2)
    expect(JSON.parse(parts.join(''))).toEqual(JSON.parse(JSON.stringify(search.toJSON())))
    const loaded = await MiniSearch.loadJSAsync(JSON.parse(parts.join('')), options)
    for (const query of ['shared', 'word42', 'café3']) expect(loaded.search(query)).toEqual(search.search(query))
  })

  it('refuses an index whose private fields are not the ones it reads', () => {
    const search = new MiniSearch<{ id: string; text: string }>(options)
    Reflect.deleteProperty(search, '_fieldLength')
    expect(() => [...plainObjectParts(search)]).toThrow(TypeError)
  })
})
