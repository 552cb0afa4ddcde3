/** The mention scanner: canonical mentions as the official parser reads them, bare ids, @Title (CJK and NFC aware), span edits, and its properties. */
import { SessionId } from '@deepseek-ai/dsh-session'
import { formatSessionReferenceMention, parseSessionReferenceText } from '@deepseek-ai/dsh-session-reference'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { findCanonicalSpans, scanCanonicalMentions } from '../../src/host/references/canonical-mentions.ts'
import { boundLabelScans, defuseSessionUris } from '../../src/host/references/readable-text.ts'
import { scanBareSessionIds } from '../../src/host/references/session-ids.ts'
import { applySpanEdits, type Span } from '../../src/host/references/spans.ts'
import { titleKey } from '../../src/host/references/title-catalog.ts'
import { scanTitleMentions } from '../../src/host/references/title-mentions.ts'
import { PATHOLOGICAL } from './harness.ts'

/**
 * The mention pattern of the installed official parser, read from its own
 * bundle (rc.8 does not export it), so these tests follow it when it changes.
 */
function officialPattern(): RegExp {
  const source = readFileSync(fileURLToPath(import.meta.resolve('@deepseek-ai/dsh-session-reference')), 'utf8')
  const literal = /text\.replace\(\/(@\\\[.*?dsh-session:\[A-Za-z0-9_-\]\+\))\/gu,/.exec(source)
  if (literal === null) throw new Error('the official parser no longer has the mention pattern these tests read')
  return new RegExp(literal[1]!, 'gu')
}


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

  it('reads exactly what the official parser reads, on generated texts', () => {
    const ids = ['s1', UUID, 'a]b\\c', '会话', '🍐']
    const labels = fc.string({ unit: fc.constantFrom('a', ' ', ']', '[', '\\', '\n', '🍐', '(', ')', '@'), maxLength: 6 })
    const pieces = fc.oneof(
      fc.constantFrom('x', ' ', '@', '[', ']', '(', ')', '\\', '\n', '.', 'dsh-session:', 'dsh-session:!!', 'dsh-session:abc', '@[', '](', 'session-1'),
      fc.constantFrom(...ids).map(uri),
      fc.tuple(labels, fc.constantFrom(...ids)).map(([label, id]) => formatSessionReferenceMention({ sessionId: SessionId(id), label })),
      fc.tuple(labels, fc.constantFrom(...ids)).map(([label, id]) => `@[${label}](${uri(id)})`),
      labels.map(label => `@[${label}](dsh-session:!)`),
    )
    fc.assert(fc.property(fc.array(pieces, { maxLength: 12 }).map(parts => parts.join('')), text => {
      const mentions = scanCanonicalMentions(text)
      let official: ReturnType<typeof parseSessionReferenceText>
      try {
        official = parseSessionReferenceText(text)
      } catch {
        expect(mentions.some(mention => mention.reference === undefined)).toBe(true)
        return
      }
      expect(mentions.map(mention => mention.reference)).toEqual(official.references)
      expect(applySpanEdits(text, mentions.map(mention => ({ start: mention.start, end: mention.end, text: `@${mention.reference!.label}` })))).toBe(official.text)
    }), { numRuns: 3000 })
  })

  it('finds exactly the spans the official pattern matches, on texts rich in brackets, escapes and line ends', () => {
    const pattern = officialPattern()
    const alphabet = fc.constantFrom('@', '[', ']', '(', ')', '\\', '\n', '\r', '\u2028', '\t', ' ', '\u3000', 'x', '🍐', '\ud800', '@[', '](', 'dsh-session:', 'dsh-session:abc', uri('s1'))
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 40 }).map(parts => parts.join('')), text => {
      const expected = [...text.matchAll(pattern)].map(match => ({
        start: match.index, end: match.index + match[0].length, raw: match[3] === undefined ? match[1] : undefined, uri: match[2] ?? match[3],
      }))
      expect(findCanonicalSpans(text)).toEqual(expected)
    }), { numRuns: 5000 })
  })

  it.each(Object.entries(PATHOLOGICAL))('scans %s in linear time', (_, text) => {
    const started = performance.now()
    scanCanonicalMentions(text)
    boundLabelScans(text)
    // A quadratic scan takes seconds here.
    expect(performance.now() - started).toBeLessThan(250)
  })

  it('leaves a few @[ alone and splits them when the official parser would rescan too much', () => {
    expect(boundLabelScans('see @[notes] and @[todo')).toBe('see @[notes] and @[todo')
    const costly = '@['.repeat(2_000)
    const bounded = boundLabelScans(costly)
    expect(bounded).toBe('@\u2060['.repeat(2_000))
    const pattern = officialPattern()
    const started = performance.now()
    for (let run = 0; run < 10; run += 1) [...bounded.repeat(16).matchAll(pattern)]
    expect(performance.now() - started).toBeLessThan(250)
  })

  it('reads a refused mention\'s label the way the official parser unescapes labels', () => {
    const [refused] = scanCanonicalMentions('@[a\\]b\\\\c](dsh-session:!!)')
    expect(refused?.reference).toBeUndefined()
    expect(refused?.label).toBe(parseSessionReferenceText(`@[a\\]b\\\\c](${uri('s')})`).references[0]?.label)
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

describe('title mentions in CJK text', () => {
  const titles = ['发布计划', '发布', 'Q3 OKR', 'Release plan', 'カタログ', '회의록']

  it('ends a title at a Han character when the text goes on without a space', () => {
    expect(scanTitleMentions('@发布计划总结一下', titles)).toEqual([{ start: 0, end: 5, title: '发布计划' }])
    expect(scanTitleMentions('请@发布计划总结一下', titles)).toEqual([{ start: 1, end: 6, title: '发布计划' }])
  })

  it('takes the longest title that prefixes the text, falling back to a shorter one', () => {
    expect(scanTitleMentions('@发布计划书', titles).map(m => m.title)).toEqual(['发布计划'])
    expect(scanTitleMentions('@发布会', titles).map(m => m.title)).toEqual(['发布'])
  })

  it('ends any title at a CJK character, whatever its own last character is', () => {
    expect(scanTitleMentions('@Q3 OKR总结一下', titles)).toEqual([{ start: 0, end: 7, title: 'Q3 OKR' }])
    expect(scanTitleMentions('@release plan的进展', titles).map(m => m.title)).toEqual(['Release plan'])
    expect(scanTitleMentions('@Release planは', titles).map(m => m.title)).toEqual(['Release plan'])
    expect(scanTitleMentions('@Release planカタ', titles).map(m => m.title)).toEqual(['Release plan'])
    expect(scanTitleMentions('@Release plan요약', titles).map(m => m.title)).toEqual(['Release plan'])
    expect(scanTitleMentions('@カタログー', titles).map(m => m.title)).toEqual(['カタログ'])
    expect(scanTitleMentions('@회의록정리', titles).map(m => m.title)).toEqual(['회의록'])
    expect(scanTitleMentions('@Release plan\u{20000}', titles).map(m => m.title)).toEqual(['Release plan'])
  })

  it('still refuses a title followed by a letter, digit or mark of another script', () => {
    expect(scanTitleMentions('@Release plans', titles)).toEqual([])
    expect(scanTitleMentions('@Release plan2', titles)).toEqual([])
    expect(scanTitleMentions('@Release planй', titles)).toEqual([])
    expect(scanTitleMentions('@Release plan\u0301', titles)).toEqual([])
  })
})

describe('title mentions in either Unicode normalization form', () => {
  const nfc = 'Caf\u00e9 notes'
  const nfd = 'Cafe\u0301 notes'

  it('matches a title typed in NFD against an NFC title, with the offsets of the typed text', () => {
    const text = `see @${nfd}, thanks`
    expect(scanTitleMentions(text, [nfc])).toEqual([{ start: 4, end: 4 + 1 + nfd.length, title: nfc }])
  })

  it('matches a title typed in NFC against an NFD title', () => {
    const text = `@${nfc.toUpperCase()}!`
    expect(scanTitleMentions(text, [nfd])).toEqual([{ start: 0, end: 1 + nfc.length, title: nfd }])
  })

  it('keeps later offsets right after decomposed text', () => {
    const text = `e\u0301e\u0301 @${nfd} @发布计划总结`
    const found = scanTitleMentions(text, [nfc, '发布计划'])
    expect(found.map(m => text.slice(m.start, m.end))).toEqual([`@${nfd}`, '@发布计划'])
  })

  it('does not end a title inside a character it composes', () => {
    expect(scanTitleMentions('@Cafe\u0301', ['Cafe'])).toEqual([])
  })

  it('treats titles that differ only in form or case as one title', () => {
    expect(titleKey(nfc)).toBe(titleKey(nfd.toUpperCase()))
    expect(scanTitleMentions(`@${nfc}`, [nfd, nfc])).toEqual([{ start: 0, end: 1 + nfc.length, title: nfd }])
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

/**
 * The title rule before CJK followers and NFC: raw text compared with each
 * title case-insensitively, a title ending only at the end of the text,
 * whitespace or punctuation.
 */
function titlesBefore(text: string, titles: readonly string[], masked: readonly Span[] = []) {
  const found: { start: number; end: number; title: string }[] = []
  let at = text.indexOf('@')
  while (at !== -1) {
    let best: string | undefined
    if (!/[A-Za-z0-9_-]/.test(text[at - 1] ?? ' ') && !masked.some(span => span.start < at + 1 && at < span.end)) {
      for (const title of titles) {
        if (title === '' || (best !== undefined && title.length <= best.length)) continue
        const end = at + 1 + title.length
        if (end > text.length || text.slice(at + 1, end).toLowerCase() !== title.toLowerCase()) continue
        if (end < text.length && !/[\s\p{P}]/u.test(text[end]!)) continue
        best = title
      }
    }
    const end = best === undefined ? 0 : at + 1 + best.length
    if (best !== undefined && !masked.some(span => span.start < end && at < span.end)) {
      found.push({ start: at, end, title: best })
      at = text.indexOf('@', end)
    } else {
      at = text.indexOf('@', at + 1)
    }
  }
  return found
}

/** What the resolver scans, in its order: canonical mentions, then titles, then bare ids outside both. */
function pipeline(text: string, titles: readonly string[], scanTitles: typeof scanTitleMentions) {
  const canonical = scanCanonicalMentions(text)
  const named = scanTitles(text, titles, canonical)
  return { canonical, named, bare: scanBareSessionIds(text, [...canonical, ...named]) }
}

describe('the CJK and NFC title rules', () => {
  const ID = 'session-42'
  const pieces = fc.constantFrom(
    ...'ab-_0@[]() \n:.', '@', '@', 'Pear', 'pear orchard', 'Caf\u00e9', 'Cafe\u0301', '\u0301', 'e\u0301', '发布', '计划', '总结',
    'ー', 'は', '요', 'Q3 OKR', 'session-', ID, UUID, 'dsh-session:', `@[Pear](${uri(UUID)})`, `@[发布](${uri(ID)})`, uri(ID),
  )
  const texts = fc.array(pieces, { maxLength: 24 }).map(parts => parts.join(''))
  const catalog = fc.subarray(['Pear', 'pear orchard', 'Caf\u00e9', 'Cafe\u0301 notes', '发布', '发布计划', 'Q3 OKR', ID, `x @${ID}`, 'a-b'])

  it('leave canonical mentions alone: the same mentions, and no title overlaps one', () => {
    fc.assert(fc.property(texts, catalog, (text, titles) => {
      const now = pipeline(text, titles, scanTitleMentions)
      expect(now.canonical).toEqual(pipeline(text, titles, titlesBefore).canonical)
      for (const title of now.named) {
        for (const mention of now.canonical) expect(title.end <= mention.start || mention.end <= title.start).toBe(true)
      }
    }), { numRuns: 3000 })
  })

  it('make no bare id match where it did not before', () => {
    fc.assert(fc.property(texts, catalog, (text, titles) => {
      const before = pipeline(text, titles, titlesBefore).bare
      for (const id of pipeline(text, titles, scanTitleMentions).bare) expect(before).toContainEqual(id)
    }), { numRuns: 3000 })
  })

  it('report spans of the typed text that spell the title and end where a title may end', () => {
    fc.assert(fc.property(texts, catalog, (text, titles) => {
      for (const { start, end, title } of pipeline(text, titles, scanTitleMentions).named) {
        expect(text[start]).toBe('@')
        expect(titleKey(text.slice(start + 1, end))).toBe(titleKey(title))
        const next = text.codePointAt(end)
        expect(next === undefined || /[\s\p{P}\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u.test(String.fromCodePoint(next))).toBe(true)
      }
    }), { numRuns: 3000 })
  })

  it('change nothing for NFC text without a CJK character right after a title', () => {
    const plain = fc.array(fc.constantFrom(...'ab-_0@[]() \n:.', 'Pear', 'pear orchard', 'Caf\u00e9', 'Q3 OKR', ID, UUID, uri(ID)), { maxLength: 24 })
      .map(parts => parts.join(''))
    const nfcTitles = fc.subarray(['Pear', 'pear orchard', 'Caf\u00e9', 'Q3 OKR', ID, 'a-b'])
    fc.assert(fc.property(plain, nfcTitles, (text, titles) => {
      expect(pipeline(text, titles, scanTitleMentions)).toEqual(pipeline(text, titles, titlesBefore))
    }), { numRuns: 3000 })
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

describe('title scanning at scale', () => {
  /** The scanner's rules, checked title by title at every `@`: the reference the indexed scanner must equal. */
  function naive(text: string, titles: readonly string[], masked: readonly Span[] = []) {
    const found: { start: number; end: number; title: string }[] = []
    const typed = text.normalize('NFC')
    if (typed !== text) return undefined
    const keys = new Map<string, string>()
    for (const title of titles) if (titleKey(title) !== '' && !keys.has(titleKey(title))) keys.set(titleKey(title), title)
    const ends = /^[\s\p{P}\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]$/u
    const hits = (a: number, b: number) => masked.some(span => span.start < b && a < span.end)
    let at = typed.indexOf('@')
    while (at !== -1) {
      let best: { title: string; length: number } | undefined
      if ((at === 0 || !/[A-Za-z0-9_-]/.test(typed[at - 1]!)) && !hits(at, at + 1)) {
        for (const [key, title] of keys) {
          const nfc = title.normalize('NFC')
          const end = at + 1 + nfc.length
          if ((best !== undefined && nfc.length <= best.length) || end > typed.length) continue
          if (typed.slice(at + 1, end).toLowerCase() !== key) continue
          if (end < typed.length && !ends.test(String.fromCodePoint(typed.codePointAt(end)!))) continue
          best = { title, length: nfc.length }
        }
      }
      if (best !== undefined && !hits(at, at + 1 + best.length)) {
        found.push({ start: at, end: at + 1 + best.length, title: best.title })
        at = typed.indexOf('@', at + 1 + best.length)
      } else {
        at = typed.indexOf('@', at + 1)
      }
    }
    return found
  }

  const pieces = fc.constantFrom(
    '@', '@', ' ', '.', 'a', 'A', 'K', '\u212A', 'İ', 'i\u0307', 'I', 'ı', 'Σ', 'σ', 'ς', 'ΑΣ', 'ß', 'SS', 'ﬀ', '发布', 'é', '😀', '𐐀', '𐐨',
    'Topic', 'topic 1', 'Pear', 'x', '-',
  )
  const texts = fc.array(pieces, { maxLength: 30 }).map(parts => parts.join(''))
  const titles = fc.array(fc.array(pieces.filter(piece => piece !== '@'), { minLength: 1, maxLength: 4 }).map(parts => parts.join('')), { maxLength: 8 })

  it('finds exactly what checking every title at every @ finds', () => {
    fc.assert(fc.property(texts, titles, (text, catalog) => {
      const expected = naive(text, catalog)
      if (expected === undefined) return
      expect(scanTitleMentions(text, catalog)).toEqual(expected)
    }), { numRuns: 20_000 })
  })

  it('never proposes a title longer than the text left, when folding lengthens a character', () => {
    expect(scanTitleMentions('@İ', ['i\u0307'])).toEqual([])
    expect(scanTitleMentions('@İ x', ['İ'])).toEqual([{ start: 0, end: 2, title: 'İ' }])
  })

  it('does not run past the end of the text when folding lengthens a character', () => {
    expect(scanTitleMentions('@\u0130', ['i\u0307'])).toEqual([])
    expect(scanTitleMentions('@\u0130 and more', ['i\u0307'])).toEqual([])
  })

  it('scans a 64 KiB text against 2,000 titles in bounded time', () => {
    const catalog = Array.from({ length: 2000 }, (_, n) => `Topic ${n} notes`)
    for (const text of ['@'.repeat(65_000), '@to'.repeat(21_000), '@Topic 1'.repeat(8_000)]) {
      const started = performance.now()
      scanTitleMentions(text, catalog)
      expect(performance.now() - started).toBeLessThan(1_000)
    }
  })
})
