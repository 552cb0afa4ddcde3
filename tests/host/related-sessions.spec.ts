/** Related sessions: a draft's telling words, the rarest asked, and which of the ranking's sessions are offered. */
import { describe, expect, it } from 'vitest'
import { askedWords, draftQuery, draftWords, MAX_ASKED_WORDS, MAX_DRAFT_CHARS, CHANCE_MARGIN, leastScore, offered } from '../../src/host/references/related-sessions.ts'

describe('related sessions', () => {
  it('reads a draft\'s telling words: no stop words, numbers, mentions, ids or links', () => {
    const draft = 'Back to the Stripe webhook @[Old notes](dsh-session:eyJ9) session-0123abcd-4567 https://example.com/x: it retried 3 times, the handler is slow'
    expect(draftWords(draft)).toEqual(['back', 'stripe', 'webhook', 'retried', 'times', 'handler', 'slow'])
    expect(draftWords('回调签名的校验要支持密钥轮换')).toEqual(expect.arrayContaining(['回调', '签名', '密钥', '轮换']))
    expect(draftWords('我们 的 和 是 在')).toEqual([])
  })

  it('reads only the first characters of a long draft', () => {
    expect(draftWords(`${'padding '.repeat(MAX_DRAFT_CHARS / 8)}quetzal`)).toEqual(['padding'])
  })

  it('asks the rarest words the index holds, leaving out those it lacks', () => {
    const words = ['again', 'stripe', 'haiku', 'webhook', 'handler', 'one', 'two', 'three', 'four', 'five', 'six']
    const counts = [900, 2, 0, 69, 40, 500, 501, 502, 503, 504, 505]
    const asked = askedWords(words, counts)
    expect(asked.map(({ word }) => word)).toEqual(['stripe', 'handler', 'webhook', 'one', 'two', 'three', 'four', 'five'])
    expect(asked).toHaveLength(MAX_ASKED_WORDS)
    expect(draftQuery(asked.map(({ word }) => word))).toBe('stripe handler webhook one two three four five ')
  })

  it('offers, in the ranking\'s order, at most three sessions that hold two of the words and score the margin above chance', () => {
    const asked = [{ word: 'stripe', count: 60 }, { word: 'webhook', count: 70 }, { word: 'handler', count: 300 }, { word: 'again', count: 900 }]
    const least = leastScore(2_000)
    expect(least).toBeCloseTo(Math.log(2_000) + CHANCE_MARGIN)
    const found = [
      { id: 'long', score: least - 0.1, missing: [] },
      { id: 'one-word', score: least + 9, missing: ['webhook', 'handler', 'again'] },
      { id: 'meant', score: least + 8, missing: ['again'] },
      { id: 'also', score: least, missing: ['handler', 'again'] },
    ]
    expect(offered(found, asked, 2_000).map(({ id }) => id)).toEqual(['meant', 'also'])
    expect(offered([...found, { id: 'fourth', score: least, missing: [] }, { id: 'fifth', score: least, missing: [] }], asked, 2_000).map(({ id }) => id)).toEqual(['meant', 'also', 'fourth'])
    // Among more sessions chance scores higher: the same score no longer stands out.
    expect(offered(found, asked, 20_000).map(({ id }) => id)).toEqual(['meant'])
    expect(leastScore(0)).toBe(CHANCE_MARGIN)
  })

  it('offers a session below the score that holds two of the words, one nearly its own', () => {
    const found = [{ id: 'low', score: 1, missing: ['again'] }, { id: 'common', score: 1, missing: ['stripe'] }]
    // At 2,000 sessions a word held by at most four is nearly a session's own; in a small store, by at most two.
    expect(offered(found, [{ word: 'stripe', count: 4 }, { word: 'webhook', count: 70 }, { word: 'again', count: 900 }], 2_000).map(({ id }) => id)).toEqual(['low'])
    expect(offered(found, [{ word: 'stripe', count: 5 }, { word: 'webhook', count: 70 }, { word: 'again', count: 900 }], 2_000)).toEqual([])
    expect(offered(found, [{ word: 'stripe', count: 2 }, { word: 'webhook', count: 3 }, { word: 'again', count: 3 }], 10).map(({ id }) => id)).toEqual(['low'])
    // One word alone is never enough.
    expect(offered([{ id: 'one', score: 99, missing: ['webhook', 'again'] }], [{ word: 'stripe', count: 1 }, { word: 'webhook', count: 70 }, { word: 'again', count: 900 }], 2_000)).toEqual([])
  })
})
