/** Excerpts: the text around a query's first match, with the matched ranges marked. */
import { describe, expect, it } from 'vitest'
import { snippetOf } from '../../src/host/search/text/snippet.ts'
import { indexTerms, queryTerms, WORD_CHARACTER } from '../../src/host/search/text/terms.ts'

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

  it('mark matches in the original text where a combining accent before them folds away and a character after them folds to two units', () => {
    // The fold is as long as the text, but not unit for unit: the accent goes, क़ (U+0958) decomposes for good.
    const text = 'Cafe\u0301 quetzal \u0958'
    const snippet = snippetOf([text], queryTerms('quetzal'))!
    expect(snippet.marks.map(([start, end]) => snippet.text.slice(start, end))).toEqual(['quetzal'])
    const plain = snippetOf(['這個 quetzal 很好'], queryTerms('quetzal'))!
    expect(plain.marks.map(([start, end]) => plain.text.slice(start, end))).toEqual(['quetzal'])
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

  it('start a Chinese excerpt at a phrase: after the nearest space or punctuation before the match, at the text\'s start, or at the match', () => {
    const snippet = snippetOf(['[title: 梨计划] 我们讨论了发布流程和灰度策略的细节'], queryTerms('灰度'))!
    expect(snippet.text).toBe('…我们讨论了发布流程和灰度策略的细节')
    expect(snippetOf(['发布计划正文：周五冻结代码'], queryTerms('冻结'))!.text).toBe('…周五冻结代码')
    expect(snippetOf(['我们讨论了发布流程和灰度策略'], queryTerms('灰度策略'))!.text).toBe('我们讨论了发布流程和灰度策略')
    expect(snippetOf(['这是一段没有任何标点而且非常非常长的中文句子里面藏着一个目标词语'], queryTerms('目标'))!.text).toBe('…目标词语')
  })

  it('start a few whole words before an English match, never inside a word', () => {
    const snippet = snippetOf(['Some long introduction that we wrote before we planned the rollout of the billing service for the quarter.'], queryTerms('billing'))!
    expect(snippet.text).toBe('…rollout of the billing service for the quarter.')
    expect(snippetOf(['A supercalifragilisticexpialidocious rollout'], queryTerms('rollout'))!.text).toBe('…rollout')
  })

  it('show the match within the first 20 characters wherever it stands, starting at a word', () => {
    const english = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega target then more words after the target'
    const chinese = '我们讨论了发布流程和灰度策略的细节，然后决定先在测试环境里试运行一周再上线目标功能以及后续的工作安排'
    for (const [text, query, match] of [[english, 'target', 'target'], [chinese, '目标', '目标'], [`${chinese} mixed with target words`, 'target', 'target']] as const) {
      for (let cut = 0; cut < text.length - 10; cut += 3) {
        const source = text.slice(cut)
        const snippet = snippetOf([source], queryTerms(query))
        if (snippet === undefined) continue
        const at = snippet.text.indexOf(match)
        expect([source, at]).toEqual([source, expect.any(Number)])
        expect(at).toBeGreaterThanOrEqual(0)
        expect(at).toBeLessThan(20)
        // The excerpt starts at the text's start, or after an ellipsis at a word start (a CJK character, or a letter after a non-letter).
        if (snippet.text.startsWith('…')) {
          const start = source.indexOf(snippet.text.slice(1, 6))
          expect(start).toBeGreaterThan(0)
          const first = [...source.slice(start)][0]!
          const before = [...source.slice(0, start)].at(-1)!
          expect(/\p{sc=Han}/u.test(first) || (WORD_CHARACTER.test(first) && (!WORD_CHARACTER.test(before) || /\p{sc=Han}/u.test(before)))).toBe(true)
        }
      }
    }
  })
})
