import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  applySpanEdits, defuseSessionUris, scanBareSessionIds, scanCanonicalMentions, scanTitleMentions,
} from '../../src/core/mentions.ts'

const UUID = 'session-0f8fad5b-d9cb-469f-a165-70867728950e'
const uri = (id: string) => `dsh-session:${Buffer.from(JSON.stringify(id)).toString('base64url')}`

describe('canonical mentions', () => {
  it('finds labelled mentions and bare URIs with offsets, unescaping \\ and ]', () => {
    const text = `see @[a\\]b\\\\c](${uri('s1')}) and ${uri('s2')}.`
    const found = scanCanonicalMentions(text)
    expect(found.map(m => [m.label, m.uri])).toEqual([['a]b\\c', uri('s1')], [undefined, uri('s2')]])
    expect(text.slice(found[0]!.start, found[0]!.end)).toBe(`@[a\\]b\\\\c](${uri('s1')})`)
    expect(text.slice(found[1]!.start, found[1]!.end)).toBe(uri('s2'))
  })

  it('keeps labels with newlines and astral characters', () => {
    const [found] = scanCanonicalMentions(`@[两行\n🍐 notes](${uri('s')})`)
    expect(found?.label).toBe('两行\n🍐 notes')
  })

  it('reports a malformed URI as written so the caller can refuse it', () => {
    expect(scanCanonicalMentions('@[x](dsh-session:!!)').map(m => m.uri)).toEqual(['dsh-session:!!'])
  })
})

describe('bare session ids', () => {
  it.each([
    UUID,
    'session-0f8fad5bd9cb469fa16570867728950e',
    'session-42',
    `explore-${UUID}`,
  ])('finds the host id form %s', id => {
    expect(scanBareSessionIds(`look at ${id}, please`).map(m => m.id)).toEqual([id])
  })

  it.each([
    [`x${UUID}`], [`${UUID}x`], [`_${UUID}`], [`${UUID}-`], [`${UUID}_2`], ['session-'], ['session-abc'], ['mysession-12x'],
  ])('does not match inside an id run: %s', text => {
    expect(scanBareSessionIds(text)).toEqual([])
  })

  it('matches next to @, punctuation, CJK and line ends', () => {
    expect(scanBareSessionIds(`@${UUID}`).map(m => m.start)).toEqual([1])
    expect(scanBareSessionIds(`（${UUID}）`)).toHaveLength(1)
    expect(scanBareSessionIds(`a\n${UUID}\n`)).toHaveLength(1)
  })

  it('never re-scans ids inside masked spans', () => {
    const text = `@[${UUID}](${uri(UUID)})`
    const masked = scanCanonicalMentions(text)
    expect(scanBareSessionIds(text, masked)).toEqual([])
  })
})

describe('title mentions', () => {
  const titles = ['Pear orchard notes', 'Pear', 'Release plan', '']

  it('takes the longest title that ends at a boundary, case-insensitively', () => {
    const text = '@pear ORCHARD notes please'
    expect(scanTitleMentions(text, titles)).toEqual([{ start: 0, end: 19, title: 'Pear orchard notes' }])
  })

  it('falls back to a shorter title when the longer one does not end at a boundary', () => {
    expect(scanTitleMentions('@Pear orchard notesy', titles).map(m => m.title)).toEqual(['Pear'])
  })

  it('accepts end of text and punctuation after the title', () => {
    expect(scanTitleMentions('@Release plan', titles)).toHaveLength(1)
    expect(scanTitleMentions('(@Release plan).', titles)).toHaveLength(1)
    expect(scanTitleMentions('@Release plan，好吗', titles)).toHaveLength(1)
    expect(scanTitleMentions('@Release planning', titles)).toHaveLength(0)
  })

  it('ignores an @ that follows an id character, such as an e-mail address', () => {
    expect(scanTitleMentions('me@Pear', titles)).toEqual([])
  })

  it('finds several mentions and skips masked spans', () => {
    const text = '@Pear and @Release plan'
    expect(scanTitleMentions(text, titles).map(m => m.title)).toEqual(['Pear', 'Release plan'])
    expect(scanTitleMentions(text, titles, [{ start: 0, end: 5 }]).map(m => m.title)).toEqual(['Release plan'])
  })
})

describe('span edits and URI defusing', () => {
  it('applies edits in any order', () => {
    expect(applySpanEdits('a X b Y c', [{ start: 6, end: 7, text: 'yy' }, { start: 2, end: 3, text: 'xx' }])).toBe('a xx b yy c')
  })

  it('leaves no text the official parser would read as a URI', () => {
    const defused = defuseSessionUris(`@[l](${uri('s')}) dsh-session:abc`)
    expect(scanCanonicalMentions(defused)).toEqual([])
    expect(defused.replaceAll('\u2060', '')).toBe(`@[l](${uri('s')}) dsh-session:abc`)
  })
})

describe('scanner properties', () => {
  const alphabet = fc.constantFrom(...'ab-_0@[]()\\ \n:.é🍐', 'session-', 'dsh-session:', UUID, 'Pear')
  const texts = fc.array(alphabet, { maxLength: 40 }).map(parts => parts.join(''))

  it('never throws and never matches a bare id next to an id character', () => {
    fc.assert(fc.property(texts, text => {
      const canonical = scanCanonicalMentions(text)
      scanTitleMentions(text, ['Pear', 'pear orchard'], canonical)
      for (const { start, end, id } of scanBareSessionIds(text, canonical)) {
        expect(text.slice(start, end)).toBe(id)
        expect(/[A-Za-z0-9_-]/.test(text[start - 1] ?? ' ')).toBe(false)
        expect(/[A-Za-z0-9_-]/.test(text[end] ?? ' ')).toBe(false)
      }
    }), { numRuns: 2000 })
  })

  it('finds no bare id overlapping a canonical mention', () => {
    fc.assert(fc.property(texts, text => {
      const canonical = scanCanonicalMentions(text)
      for (const id of scanBareSessionIds(text, canonical)) {
        for (const mention of canonical) expect(id.end <= mention.start || mention.end <= id.start).toBe(true)
      }
    }), { numRuns: 1000 })
  })
})
