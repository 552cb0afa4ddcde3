/** Quote text (trimmed, cut at the code-point limit), its Markdown quote block, and quote numbers. */
import { describe, expect, it } from 'vitest'
import { decodeQuoteRef, encodeQuoteRef, firstLine, nextQuoteNumber, QUOTE_LIMIT, quoteBlock, quoteText, toMarkdownQuote } from '../../../src/client/core/quote.ts'

const MARK = '… (truncated)'

describe('quote text', () => {
  it('trims and normalizes line endings', () => {
    expect(quoteText('  \r\n line one\r\nline two\rthree \n ', MARK)).toBe('line one\nline two\nthree')
    expect(quoteText(' \n\t ', MARK)).toBe('')
  })

  it('keeps exactly the limit and truncates one over with the marker', () => {
    expect(quoteText('a'.repeat(QUOTE_LIMIT), MARK)).toBe('a'.repeat(QUOTE_LIMIT))
    expect(quoteText('a'.repeat(QUOTE_LIMIT + 1), MARK)).toBe('a'.repeat(QUOTE_LIMIT) + MARK)
  })

  it('counts code points and never splits a surrogate pair', () => {
    const astral = '🍐'.repeat(5)
    expect(quoteText(astral, MARK, 5)).toBe(astral)
    expect(quoteText(astral + 'x', MARK, 5)).toBe(astral + MARK)
    expect(quoteText('ab🍐cd', MARK, 3)).toBe('ab🍐' + MARK)
    const cut = quoteText('🍐'.repeat(QUOTE_LIMIT + 3), MARK)
    expect([...cut.slice(0, -MARK.length)]).toHaveLength(QUOTE_LIMIT)
    expect(cut.slice(0, -MARK.length)).not.toMatch(/[\uD800-\uDBFF]$/)
  })

  it('counts a CRLF line break as one code point', () => {
    expect(quoteText('ab\r\ncd', MARK, 5)).toBe('ab\ncd')
    expect(quoteText('ab\r\ncde', MARK, 5)).toBe('ab\ncd' + MARK)
  })
})

describe('Markdown quote', () => {
  it('prefixes every line and leaves empty lines as a bare >', () => {
    expect(toMarkdownQuote('one\n\ntwo')).toBe('> one\n>\n> two')
    expect(toMarkdownQuote('> nested')).toBe('> > nested')
  })

  it('previews the first non-empty line', () => {
    expect(firstLine('\n  \nfirst\nsecond')).toBe('first')
  })

  it('ends the block with a line break after its last line', () => {
    expect(quoteBlock('one\n\ntwo')).toBe('> one\n>\n> two\n')
    expect(quoteBlock('x')).toBe('> x\n')
  })

  it('round-trips refs and refuses foreign ones', () => {
    expect(decodeQuoteRef(encodeQuoteRef({ text: 'a\n"b"', n: 4 }))).toEqual({ text: 'a\n"b"', n: 4 })
    expect(decodeQuoteRef('{"kind":"file","mention":"x"}')).toBeUndefined()
    expect(decodeQuoteRef('{"kind":"quote","text":"x"}')).toBeUndefined()
    expect(decodeQuoteRef('{"kind":"quote","text":"x","n":0}')).toBeUndefined()
    expect(decodeQuoteRef('{"kind":"quote","text":"x","n":1.5}')).toBeUndefined()
    expect(decodeQuoteRef('nope')).toBeUndefined()
  })
})

describe('quote numbers', () => {
  const ref = (n: number) => encodeQuoteRef({ text: `q${n}`, n })

  it('start at 1 and follow the highest number in the draft', () => {
    expect(nextQuoteNumber([])).toBe(1)
    expect(nextQuoteNumber([ref(1), ref(2)])).toBe(3)
    expect(nextQuoteNumber([ref(2)])).toBe(3)
    expect(nextQuoteNumber([ref(5), ref(1)])).toBe(6)
  })

  it('ignore refs that are not quotes', () => {
    expect(nextQuoteNumber(['nope', ref(2), '{"kind":"file"}'])).toBe(3)
  })
})
