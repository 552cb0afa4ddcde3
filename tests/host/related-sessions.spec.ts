/** Related sessions: a draft's telling words, the rarest asked, and which of the ranking's sessions are offered. */
import { describe, expect, it } from 'vitest'
import { askedWords, draftQuery, draftWords, MAX_ASKED_WORDS, MAX_DRAFT_CHARS, offered } from '../../src/host/references/related-sessions.ts'

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

  it('offers a session holding two of the words, one specific, the most specific first, at most three', () => {
    const asked = [{ word: 'stripe', count: 2 }, { word: 'webhook', count: 60 }, { word: 'handler', count: 300 }, { word: 'again', count: 900 }]
    const found = [
      { id: 'common', missing: ['stripe'] },
      { id: 'one-word', missing: ['webhook', 'handler', 'again'] },
      { id: 'meant', missing: ['again'] },
      { id: 'also', missing: ['handler', 'again'] },
    ]
    // At 2,000 sessions a specific word is held by at most 4.
    expect(offered(found, asked, 2_000).map(({ id }) => id)).toEqual(['meant', 'also'])
    // At 100,000 sessions, 200 may hold one: webhook is specific there too.
    expect(offered(found, asked, 100_000).map(({ id }) => id)).toEqual(['meant', 'also', 'common'])
    expect(offered([...found, { id: 'fourth', missing: [] }], asked, 2_000)).toHaveLength(3)
  })
})
