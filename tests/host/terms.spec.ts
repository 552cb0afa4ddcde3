/** Terms: words, CJK pairs and runs of three, folding, and the bounds of a query. */
import { describe, expect, it } from 'vitest'
import { snippetOf } from '../../src/host/search/snippet.ts'
import { fold, indexTerms, queryTerms } from '../../src/host/search/terms.ts'

describe('terms', () => {
  it('fold case and Latin accents but keep kana voicing', () => {
    expect(fold('Café GENÈVE')).toBe('cafe geneve')
    expect(fold('ガス')).not.toBe(fold('カス'))
  })

  it('cut unspaced runs into pairs and runs of three with the last character on its own, and keep other words whole', () => {
    expect(indexTerms('发布流程 and API调用')).toEqual(['发布', '发布流', '布流', '布流程', '流程', '程', 'and', 'api', '调用', '用'])
    expect(indexTerms('e-mail 2026')).toEqual(['e', 'mail', '2026'])
  })

  it('cut Japanese kana and kanji the same way, so a phrase inside a sentence is found', () => {
    expect(indexTerms('デプロイ手順')).toEqual(['デプ', 'デプロ', 'プロ', 'プロイ', 'ロイ', 'ロイ手', 'イ手', 'イ手順', '手順', '順'])
    const snippet = snippetOf(['本番のデプロイ手順を確認しました'], queryTerms('デプロイ'))!
    expect(snippet.marks.map(([start, end]) => snippet.text.slice(start, end))).toEqual(['デプロイ'])
  })

  it('give ASCII text, and runs of one unit per character, the same terms as the general path', () => {
    // A character outside ASCII sends a text down the general path; its own terms are the only difference.
    const ascii = 'Hello_World x86-64 ABC123 path/to:file.ts e-mail 2026 CamelCase'
    expect(indexTerms(ascii)).toEqual(indexTerms(`${ascii} 中`).filter(term => term !== '中'))
    expect(indexTerms(ascii)).toEqual(['hello', 'world', 'x86', '64', 'abc123', 'path', 'to', 'file', 'ts', 'e', 'mail', '2026', 'camelcase'])
    // A character of two units sends a run down the array path: pairs and runs of three are of characters, not units.
    expect(indexTerms('灰度𠀀')).toEqual(['灰度', '灰度𠀀', '度𠀀', '𠀀'])
    expect(indexTerms('灰度')).toEqual(['灰度', '度'])
    expect(indexTerms('灰')).toEqual(['灰'])
  })

  it('need every word of a query, the last one as a prefix, and runs of three (or a pair) for unspaced text', () => {
    expect(queryTerms('Billing Migr')).toEqual([{ term: 'billing', prefix: false }, { term: 'migr', prefix: true }])
    expect(queryTerms('灰度策略')).toEqual([{ term: '灰度策', prefix: false, run: 0 }, { term: '度策略', prefix: false, run: 0 }])
    expect(queryTerms('灰度策')).toEqual([{ term: '灰度策', prefix: false }])
    expect(queryTerms('灰度 rollout 策略')).toEqual([{ term: '灰度', prefix: false }, { term: 'rollout', prefix: false }, { term: '策略', prefix: false }])
    expect(queryTerms('灰')).toEqual([{ term: '灰', prefix: true }])
  })

  it('search no content for an empty query, one Latin letter, or an overlong one', () => {
    expect(queryTerms('')).toEqual([])
    expect(queryTerms('b')).toEqual([])
    expect(queryTerms('a b c d e f g h i j k l m n o p q')).toEqual([])
    expect(queryTerms('x'.repeat(300))).toEqual([])
  })
})
