/** Terms: words, CJK pairs, folding, a query's words, Chinese words and phrases, and the bounds of a query. */
import { describe, expect, it } from 'vitest'
import { snippetOf } from '../../src/host/search/text/snippet.ts'
import { fold, indexTerms, queryTerms } from '../../src/host/search/text/terms.ts'

describe('terms', () => {
  it('fold case and Latin accents but keep kana voicing', () => {
    expect(fold('Café GENÈVE')).toBe('cafe geneve')
    expect(fold('ガス')).not.toBe(fold('カス'))
  })

  it('fold text of ASCII, punctuation, signs and CJK characters as the full fold does, whatever marks stand beside them', () => {
    // The full fold: canonical decomposition, Latin accents dropped, composition, lower case.
    const full = (text: string): string => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC').toLowerCase()
    const marks = ['\u3099', '\u309a', '\u302a', '\u0301']
    const differ: string[] = []
    for (let code = 0; code < 0x10000; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue
      const char = String.fromCharCode(code)
      for (const text of [char, `か${char}`, `A${char}`, `${char}—`, `—${char}`, char + char, ...marks.flatMap(mark => [char + mark, mark + char])]) if (fold(text) !== full(text)) differ.push(code.toString(16))
    }
    expect([...new Set(differ)]).toEqual([])
  })

  it('cut unspaced runs into pairs with the last character on its own, and keep other words whole', () => {
    expect(indexTerms('发布流程 and API调用')).toEqual(['发布', '布流', '流程', '程', 'and', 'api', '调用', '用'])
    expect(indexTerms('e-mail 2026')).toEqual(['e', 'mail', '2026'])
  })

  it('cut Japanese kana and kanji the same way, so a phrase inside a sentence is found', () => {
    expect(indexTerms('デプロイ手順')).toEqual(['デプ', 'プロ', 'ロイ', 'イ手', '手順', '順'])
    const snippet = snippetOf(['本番のデプロイ手順を確認しました'], queryTerms('デプロイ'))!
    expect(snippet.marks.map(([start, end]) => snippet.text.slice(start, end))).toEqual(['デプロイ'])
  })

  it('give ASCII text, and runs of one unit per character, the same terms as the general path', () => {
    // A character outside ASCII sends a text down the general path; its own terms are the only difference.
    const ascii = 'Hello_World x86-64 ABC123 path/to:file.ts e-mail 2026 CamelCase'
    expect(indexTerms(ascii)).toEqual(indexTerms(`${ascii} 中`).filter(term => term !== '中'))
    expect(indexTerms(ascii)).toEqual(['hello', 'world', 'x86', '64', 'abc123', 'path', 'to', 'file', 'ts', 'e', 'mail', '2026', 'camelcase'])
    // A character of two units sends a run down the array path: pairs are of characters, not units.
    expect(indexTerms('灰度𠀀')).toEqual(['灰度', '度𠀀', '𠀀'])
    expect(indexTerms('灰度')).toEqual(['灰度', '度'])
    expect(indexTerms('灰')).toEqual(['灰'])
  })


  it('read a text a unit at a time into the same runs as the expression of runs, for every character of the Basic Multilingual Plane', () => {
    // The runs as an expression finds them: of Chinese and Japanese characters, or of letters, marks and digits of the other scripts.
    const unspaced = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\u30fc\\u3005'
    const runs = new RegExp(`[${unspaced}]+|[[\\p{L}\\p{M}\\p{N}]--[${unspaced}]]+`, 'gv')
    const reference = (text: string): string[] => [...fold(text).matchAll(runs)].flatMap(([run]) => {
      if (!new RegExp(`[${unspaced}]`, 'v').test(run)) return [run]
      const chars = [...run]
      return [...chars.slice(0, -1).map((char, n) => char + chars[n + 1]!), chars.at(-1)!]
    })
    const differ: string[] = []
    for (let code = 0; code < 0x10000; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue
      const char = String.fromCharCode(code)
      for (const text of [`a${char}b`, `中${char}文`, `${char}${char} x`, `é${char}`]) if (indexTerms(text).join('|') !== reference(text).join('|')) differ.push(code.toString(16))
    }
    expect([...new Set(differ)]).toEqual([])
    const mixed = 'Café deploy 灰度发布 ﬁle İstanbul データベース 한국어 x86_64 — “quoted” 𠀀灰 ok'
    expect(indexTerms(mixed)).toEqual(reference(mixed))
  })
  it('need every word of a query, the last one as a prefix unless a space ends the query', () => {
    expect(queryTerms('Billing Migr')).toEqual([{ term: 'billing', prefix: false }, { term: 'migr', prefix: true }])
    expect(queryTerms('Billing Migr ')).toEqual([{ term: 'billing', prefix: false }, { term: 'migr', prefix: false }])
    expect(queryTerms('灰度 rollout 策略')).toEqual([{ term: '灰度', prefix: false }, { term: 'rollout', prefix: false }, { term: '策略', prefix: false }])
    expect(queryTerms('灰')).toEqual([{ term: '灰', prefix: true }])
  })

  it('split a Chinese or Japanese run into its words, each standing alone; a word of three characters or more as its pairs standing together', () => {
    // The run as typed rides on the first term: sessions where it stands whole answer first.
    expect(queryTerms('签名校验')).toEqual([{ term: '签名', prefix: false, whole: '签名校验' }, { term: '校验', prefix: false }])
    expect(queryTerms('灰度策略')).toEqual([{ term: '灰度', prefix: false, whole: '灰度策略' }, { term: '策略', prefix: false }])
    // Also a run its one word does not spell out whole (its particles left out); a run that is its one word needs none.
    expect(queryTerms('把规范的')).toEqual([{ term: '规范', prefix: false, whole: '把规范的' }])
    expect(queryTerms('规范')).toEqual([{ term: '规范', prefix: false }])
    expect(queryTerms('灰度 策略')).toEqual([{ term: '灰度', prefix: false }, { term: '策略', prefix: false }])
    // A particle alone is left out; another single character joins the word before it.
    expect(queryTerms('校验用户的权限').map(({ term }) => term)).toEqual(['校验', '用户', '权限'])
    expect(queryTerms('数据库连接')).toEqual([{ term: '数据', prefix: false, run: 0, whole: '数据库连接' }, { term: '据库', prefix: false, run: 0 }, { term: '连接', prefix: false }])
    expect(queryTerms('データベースの接続').map(({ term, run }) => [term, run])).toEqual([['デー', 0], ['ータ', 0], ['タベ', 0], ['ベー', 0], ['ース', 0], ['接続', undefined]])
  })

  it('ask a quoted phrase as its words, exact, standing together; an unbalanced quote as plain words', () => {
    expect(queryTerms('"Connection reset" nginx')).toEqual([
      { term: 'connection', prefix: false, run: 0, exact: true, phrase: 'connection reset' },
      { term: 'reset', prefix: false, run: 0, exact: true },
      { term: 'nginx', prefix: true },
    ])
    expect(queryTerms('"failed"')).toEqual([{ term: 'failed', prefix: false, exact: true }])
    expect(queryTerms('"灰度策略"')).toEqual([{ term: '灰度', prefix: false, run: 0, exact: true, phrase: '灰度策略' }, { term: '度策', prefix: false, run: 0, exact: true }, { term: '策略', prefix: false, run: 0, exact: true }])
    expect(queryTerms('"connection reset')).toEqual([{ term: 'connection', prefix: false }, { term: 'reset', prefix: true }])
    expect(queryTerms('"""')).toEqual([])
  })

  it('search no content for an empty query, one Latin letter, or an overlong one; keep the first 16 terms of a long one', () => {
    expect(queryTerms('')).toEqual([])
    expect(queryTerms('b')).toEqual([])
    expect(queryTerms('x'.repeat(300))).toEqual([])
    expect(queryTerms('aa bb cc dd ee ff gg hh ii jj kk ll mm nn oo pp qq rr').map(({ term }) => term)).toEqual('aa bb cc dd ee ff gg hh ii jj kk ll mm nn oo pp'.split(' '))
    expect(queryTerms('kiwi kiwi kiwi')).toEqual([{ term: 'kiwi', prefix: false }, { term: 'kiwi', prefix: true }])
  })
})
