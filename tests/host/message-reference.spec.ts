/** The text form of a message reference: round trip, hostile forms, numbers out of range, and linear scans. */
import { encodeSessionReferenceUri, parseSessionReferenceText } from '@deepseek-ai/dsh-session-reference'
import { SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import {
  countNumbers, formatMessageReference, formatNumbers, MAX_SELECTION_ITEMS, messageReferenceUri, normalizeSelection, parseMessageReferenceUri, scanMessageReferences,
} from '../../src/shared/message-reference.ts'

const ID = 'session-00000000-0000-4000-8000-000000000002'

describe('the message reference text form', () => {
  it('round-trips a session, its messages and a label with brackets and backslashes', () => {
    for (const label of ['Kiwi plans · #3', 'a [b] c\\d', '梨计划 · #1–#4', ']', '\\']) {
      for (const selection of [[[3, 3]], [[12, 40], [57, 57]], [[0, 0]], [[Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]]] as const) {
        const text = `before ${formatMessageReference({ sessionId: ID, selection, label })} after`
        const [found, ...rest] = scanMessageReferences(text)
        expect(rest).toEqual([])
        expect(found!.reference).toEqual({ sessionId: ID, selection, label })
        expect(text.slice(found!.start, found!.end)).toBe(formatMessageReference({ sessionId: ID, selection, label }))
      }
    }
  })

  it('encodes the id as the official URI does, and is a form the official parser leaves alone', () => {
    const uri = messageReferenceUri({ sessionId: ID, selection: [[3, 3]] })
    expect(uri).toBe(`dsh-messages:${encodeSessionReferenceUri(SessionId(ID)).slice('dsh-session:'.length)}/3`)
    const text = `see ${formatMessageReference({ sessionId: ID, selection: [[3, 3]], label: 'Kiwi · #3' })} and ${uri}`
    expect(parseSessionReferenceText(text)).toEqual({ text, references: [] })
  })

  it('writes and reads a pointer, labelled or bare, which the official parser leaves alone', () => {
    const uri = messageReferenceUri({ sessionId: ID, selection: [], agent: true })
    expect(uri).toBe(`dsh-messages:${encodeSessionReferenceUri(SessionId(ID)).slice('dsh-session:'.length)}/agent`)
    const text = `ask ${formatMessageReference({ sessionId: ID, selection: [], agent: true, label: 'Kiwi [plans]' })} or ${uri}.`
    expect(scanMessageReferences(text).map(found => found.reference)).toEqual([
      { sessionId: ID, selection: [], agent: true, label: 'Kiwi [plans]' },
      { sessionId: ID, selection: [], agent: true },
    ])
    expect(parseSessionReferenceText(text)).toEqual({ text, references: [] })
    for (const malformed of ['agents', 'Agent', 'agent,3', '3,agent', 'agent-1']) expect(parseMessageReferenceUri(`${uri.slice(0, -'agent'.length)}${malformed}`), malformed).toBeUndefined()
  })

  it('reads a bare URI and leaves a trailing comma or full stop out', () => {
    const uri = messageReferenceUri({ sessionId: ID, selection: [[3, 5], [9, 9]] })
    const found = scanMessageReferences(`look at ${uri}, then ${uri}.`)
    expect(found.map(m => m.uri)).toEqual([uri, uri])
    expect(found[0]!.reference).toEqual({ sessionId: ID, selection: [[3, 5], [9, 9]] })
  })

  it('finds a malformed URI and names nothing with it', () => {
    const payload = encodeSessionReferenceUri(SessionId(ID)).slice('dsh-session:'.length)
    const hostile = [
      `dsh-messages:${payload}/-3`, `dsh-messages:${payload}/3-1`, `dsh-messages:${payload}/01`, `dsh-messages:${payload}/12345678901234567`, `dsh-messages:${payload}/9007199254740992`,
      `dsh-messages:${payload}/5,3`, `dsh-messages:${payload}/3,3`, `dsh-messages:${payload}/`, `dsh-messages:${payload}`, `dsh-messages:${payload}/1.5`,
      `dsh-messages:${payload}x/3`, 'dsh-messages:bm90IGpzb24/3', `dsh-messages:${btoa('42').replaceAll('=', '')}/3`, 'dsh-messages:IiI/3',
      `dsh-messages:${payload}/${Array.from({ length: MAX_SELECTION_ITEMS + 1 }, (_, n) => String(n * 2)).join(',')}`,
    ]
    for (const uri of hostile) {
      expect(parseMessageReferenceUri(uri), uri).toBeUndefined()
      const [found] = scanMessageReferences(`@[Kiwi](${uri})`)
      expect(found, uri).toMatchObject({ start: 0, label: 'Kiwi', reference: undefined })
    }
  })

  it('keeps huge and negative numbers out of a URI it writes', () => {
    expect(() => messageReferenceUri({ sessionId: ID, selection: [] })).toThrow(RangeError)
    expect(() => messageReferenceUri({ sessionId: ID, selection: [[-1, 2]] })).toThrow(RangeError)
    expect(() => messageReferenceUri({ sessionId: ID, selection: [[1.5, 2]] })).toThrow(RangeError)
    expect(parseMessageReferenceUri(`${messageReferenceUri({ sessionId: ID, selection: [[1, 1]] }).slice(0, -1)}9007199254740993`)).toBeUndefined()
  })

  it('normalizes a selection', () => {
    expect(normalizeSelection([[9, 9], [3, 5], [6, 7], [4, 4]])).toEqual([[3, 7], [9, 9]])
  })

  it('scans hostile texts in linear time', () => {
    const uri = messageReferenceUri({ sessionId: ID, selection: [[3, 3]] })
    for (const text of ['@['.repeat(100_000), `](${'dsh-messages:'.repeat(20_000)}`, `@[x](${'dsh-messages:a'.repeat(20_000)}`, `${'@[a](dsh-messages:'.repeat(10_000)}${uri})`, `${'\\'.repeat(100_000)}]`]) {
      const started = performance.now()
      scanMessageReferences(text)
      expect(performance.now() - started, text.slice(0, 20)).toBeLessThan(2_000)
    }
  })
})

describe('the numbers of a part reference\'s label', () => {
  it('counts what formatNumbers wrote, and nothing for a label without numbers', () => {
    for (const numbers of [[4], [7, 8], [3, 4, 5, 6, 7, 9], [1, 3, 5]]) expect(countNumbers(`Kiwi plans · ${formatNumbers(numbers)}`)).toBe(numbers.length)
    expect(countNumbers('Kiwi plans')).toBeUndefined()
    expect(countNumbers('Notes · #1 · and more')).toBeUndefined()
  })
})
