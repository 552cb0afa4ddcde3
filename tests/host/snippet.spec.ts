/** Excerpts: the text around a query's first match, with the matched ranges marked. */
import { describe, expect, it } from 'vitest'
import { snippetOf } from '../../src/host/search/snippet.ts'
import { indexTerms, queryTerms } from '../../src/host/search/text.ts'

describe('excerpts', () => {
  it('show about 80 characters around the first match, matches marked, line breaks as spaces', () => {
    const long = `${'intro '.repeat(20)}we planned the billing\nmigration and more billing ${'tail '.repeat(30)}`
    const snippet = snippetOf(['nothing here', long], queryTerms('billing'))!
    expect(snippet.text.startsWith('…')).toBe(true)
    expect(snippet.text.endsWith('…')).toBe(true)
    expect([...snippet.text].length).toBeLessThanOrEqual(82)
    expect(snippet.text).not.toContain('\n')
    expect(snippet.marks.map(([start, end]) => snippet.text.slice(start, end))).toEqual(['billing', 'billing'])
  })

  it('mark matches in the original text, whatever its accents and case', () => {
    const snippet = snippetOf(['Le CAFÉ était fermé'], queryTerms('cafe'))!
    expect(snippet.marks.map(([start, end]) => snippet.text.slice(start, end))).toEqual(['CAFÉ'])
  })

  it('take a word next to Chinese or Japanese text as a word of its own, as the index does', () => {
    expect(indexTerms('使用API调用')).toEqual(['使用', '用', 'api', '调用', '用'])
    const snippet = snippetOf(['使用API调用'], [{ term: 'api', prefix: false }])!
    expect(snippet.marks.map(([start, end]) => snippet.text.slice(start, end))).toEqual(['API'])
  })

  it('mark an unspaced match as one range and find nothing for pairs that are not adjacent', () => {
    const snippet = snippetOf(['我们讨论了发布流程和灰度策略'], queryTerms('灰度策略'))!
    expect(snippet.marks.map(([start, end]) => snippet.text.slice(start, end))).toEqual(['灰度策略'])
    expect(snippetOf(['word a at start'], queryTerms('wor'))!.marks).toEqual([[0, 3]])
    expect(snippetOf(['sword'], queryTerms('word'))).toBeUndefined()
  })
})
