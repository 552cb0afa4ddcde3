/** Joined texts: the items holding a piece, found by one scan, are those a walk of every item finds, never across two items, each once. */
import { describe, expect, it } from 'vitest'
import { JoinedText } from '../../src/host/sessions/joined-text.ts'

/** What a walk of every text gives. */
const walked = (texts: readonly string[], piece: string): number[] => texts.flatMap((text, n) => (text.includes(piece) ? [n] : []))

describe('joined texts', () => {
  const texts = ['deploy notes', '', 'staging deploy', 'deploy', 'notes\u0000deploy', 'redeploy later', 'dep', 'loy']

  it('find the items holding a piece, in order, as a walk of every item would', () => {
    const joined = new JoinedText(texts)
    for (const piece of ['deploy', 'dep', 'loy', 'notes', 'y', 'e', 'later', 'absent', 'deploy notes', 'notes\u0000deploy', '\u0000', 'depl'])
      expect(joined.holding(piece), piece).toEqual(walked(texts, piece))
  })

  it('never match across two items', () => {
    // 'dep' ends one item and 'loy' starts the next: their join holds no 'deploy' of its own.
    expect(new JoinedText(['dep', 'loy']).holding('deploy')).toEqual([])
    expect(new JoinedText(['ab', 'cd']).holding('b\u0000c')).toEqual([])
  })

  it('count an item once however often it holds the piece', () => {
    expect(new JoinedText(['aaaa', 'a', 'b']).holding('a')).toEqual([0, 1])
  })

  it('find the items holding every piece, and none for no pieces', () => {
    const joined = new JoinedText(texts)
    expect(joined.holdingEvery(['deploy', 'notes'])).toEqual([0, 4])
    expect(joined.holdingEvery(['notes', 'deploy'])).toEqual([0, 4])
    expect(joined.holdingEvery([])).toEqual([])
    expect(new JoinedText([]).holding('x')).toEqual([])
  })

  it('agree with a walk over many random texts', () => {
    let seed = 7
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const many = Array.from({ length: 400 }, () => Array.from({ length: Math.floor(random() * 6) }, () => 'abc'[Math.floor(random() * 3)]).join(''))
    const joined = new JoinedText(many)
    for (const piece of ['a', 'ab', 'abc', 'ca', 'cc', 'bab', 'cabca']) expect(joined.holding(piece), piece).toEqual(walked(many, piece))
  })
})
