import { describe, expect, it, vi } from 'vitest'
import { appendQuote, type ComposerPort, type DraftState, removeQuote } from '../../src/client/quote/composer.ts'
import { createQuoteSource, quoteChipText } from '../../src/client/quote/source.ts'
import { decodeQuoteRef, encodeQuoteRef, QUOTE_SOURCE } from '../../src/core/quote.ts'

/** An input machine double: applies a request only when its revision matches, like the real CAS. */
function machine(initial: Partial<DraftState>, interfere = 0) {
  let state: DraftState = { draft: '', draftRev: 1, phase: 'plain', occurrences: [], ...initial }
  let pending = interfere
  const port: ComposerPort = {
    state: () => state,
    insertReference: vi.fn((_id, { reference, span }) => {
      if (pending > 0) {
        pending -= 1
        state = { ...state, draft: `${state.draft}x`, draftRev: state.draftRev + 1 }
        return false
      }
      if (span.draftRev !== state.draftRev) return false
      const label = (reference as { label: string }).label
      const text = `@${label} `
      state = {
        ...state,
        draft: state.draft.slice(0, span.start) + text + state.draft.slice(span.end),
        draftRev: state.draftRev + 1,
        occurrences: [...state.occurrences, { occurrenceId: state.draftRev, source: QUOTE_SOURCE, ref: (reference as { ref: string }).ref, offset: span.start, length: label.length + 1, label }],
      }
      return true
    }),
    consumeToken: vi.fn((_id, { guard: { span } }) => {
      if (span.draftRev !== state.draftRev) return false
      state = {
        ...state,
        draft: state.draft.slice(0, span.start) + state.draft.slice(span.end),
        draftRev: state.draftRev + 1,
        occurrences: state.occurrences.filter(o => o.offset + o.length < span.start || o.offset > span.end)
          .map(o => (o.offset > span.end ? { ...o, offset: o.offset - (span.end - span.start) } : o)),
      }
      return true
    }),
  }
  return { port, get: () => state }
}

const label = (n: number) => `Quote ${n}`

describe('quote chips in the draft', () => {
  it('appends at the end of the draft, numbered in draft order', () => {
    const { port, get } = machine({ draft: 'see ' })
    expect(appendQuote(port, 's', 'first', label)).toBe(13)
    expect(appendQuote(port, 's', 'second', label)).toBe(22)
    expect(get().draft).toBe('see @Quote 1 @Quote 2 ')
    expect(get().occurrences.map(o => [o.label, decodeQuoteRef(o.ref)])).toEqual([['Quote 1', 'first'], ['Quote 2', 'second']])
    expect(port.insertReference).toHaveBeenCalledWith('s', expect.objectContaining({
      reference: expect.objectContaining({ source: QUOTE_SOURCE, clipboardText: '\n> first\n' }),
      span: { start: 4, end: 4, draftRev: 1 },
    }))
  })

  it('retries against the new revision when the draft changed under the request', () => {
    const { port, get } = machine({ draft: 'a' }, 2)
    expect(appendQuote(port, 's', 'q', label)).toBe(12)
    expect(get().draft).toBe('axx@Quote 1 ')
    expect(port.insertReference).toHaveBeenCalledTimes(3)
  })

  it('inserts nothing outside the plain phase or without a session', () => {
    expect(appendQuote(machine({ phase: 'submitting' }).port, 's', 'q', label)).toBeUndefined()
    const none: ComposerPort = { state: () => undefined, insertReference: vi.fn(), consumeToken: vi.fn() }
    expect(appendQuote(none, 's', 'q', label)).toBeUndefined()
  })

  it('removes a chip with its gap space, keeping a chip that follows', () => {
    const { port, get } = machine({})
    appendQuote(port, 's', 'one', label)
    appendQuote(port, 's', 'two', label)
    const [first, second] = get().occurrences
    expect(removeQuote(port, 's', first!.occurrenceId)).toBe(true)
    expect(get().draft).toBe(' @Quote 2 ')
    expect(get().occurrences.map(o => o.label)).toEqual(['Quote 2'])
    expect(removeQuote(port, 's', second!.occurrenceId)).toBe(true)
    expect(get().draft).toBe(' ')
    expect(removeQuote(port, 's', 999)).toBe(false)
  })
})

describe('the quote chip source', () => {
  it('never lists candidates and serializes chips as a Markdown quote on lines of their own', async () => {
    const source = createQuoteSource()
    expect(source).toMatchObject({ trigger: '@', name: QUOTE_SOURCE, showGroupTitle: false })
    expect(await source.candidates({ sessionId: 's' } as never, { query: '', position: 'inline', signal: new AbortController().signal })).toEqual([])
    const ref = encodeQuoteRef('line one\n\nline two')
    expect(await source.codec!.serialize(ref, new AbortController().signal)).toBe('\n> line one\n>\n> line two\n')
    expect(source.codec!.clipboardText(ref)).toBe(quoteChipText(ref))
    expect(source.codec!.clipboardText('not a quote')).toBe('')
  })
})
