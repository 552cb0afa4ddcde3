/** Quote chips through the input machine: adding on a line of its own, labels that never repeat, removal, and the text the model reads. */
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { appendQuote, type ComposerPort, quoteOccurrences, removeQuote } from '../../src/client/quote/composer.ts'
import { createQuoteSource, quoteChipText } from '../../src/client/quote/source.ts'
import { decodeQuoteRef, encodeQuoteRef, QUOTE_SOURCE } from '../../src/client/core/quote.ts'
import { inputMachine } from './input-machine.ts'

const label = (n: number) => `Quote ${n}`
const source = createQuoteSource()
const serialize = (chip: { ref: string }) => source.codec!.serialize(chip.ref, new AbortController().signal)

type Machine = ReturnType<typeof inputMachine>
const labels = (machine: Machine) => quoteOccurrences(machine.port.state('s')!).map(o => o.label)
const byLabel = (machine: Machine, name: string) => machine.occurrences.find(o => o.label === name)!.occurrenceId

describe('adding quotes to the draft', () => {
  it('puts each quote chip on a line of its own at the end of the draft', () => {
    const machine = inputMachine({ draft: 'see ' })
    expect(appendQuote(machine.port, { sessionId: 's', text: 'first' }, label)).toBe(machine.draft.length)
    expect(machine.draft).toBe('see \n@Quote 1\n')
    appendQuote(machine.port, { sessionId: 's', text: 'second' }, label)
    expect(machine.draft).toBe('see \n@Quote 1\n@Quote 2\n')
    expect(machine.occurrences.map(o => [o.label, decodeQuoteRef(o.ref)])).toEqual([['Quote 1', { text: 'first', n: 1 }], ['Quote 2', { text: 'second', n: 2 }]])
    expect(machine.port.insertReference).toHaveBeenCalledWith('s', expect.objectContaining({
      reference: expect.objectContaining({ source: QUOTE_SOURCE, label: 'Quote 1', clipboardText: '> first\n' }),
      span: expect.objectContaining({ start: 5, end: 5 }),
    }))
  })

  it('adds no line break before a quote in an empty draft or after one', () => {
    const machine = inputMachine()
    appendQuote(machine.port, { sessionId: 's', text: 'q' }, label)
    expect(machine.draft).toBe('@Quote 1\n')
    const afterBreak = inputMachine({ draft: 'intro\n' })
    appendQuote(afterBreak.port, { sessionId: 's', text: 'q' }, label)
    expect(afterBreak.draft).toBe('intro\n@Quote 1\n')
  })

  it('retries against the new revision when the draft changed under a request', () => {
    const machine = inputMachine({ draft: 'a\n' })
    const insert = machine.port.insertReference
    let interfere = 2
    const port: ComposerPort = {
      ...machine.port,
      insertReference: (id, request) => {
        if (interfere > 0) {
          interfere -= 1
          machine.type('x')
          return false
        }
        return insert(id, request)
      },
    }
    expect(appendQuote(port, { sessionId: 's', text: 'q' }, label)).toBe(machine.draft.length)
    expect(machine.draft).toBe('a\nxx@Quote 1\n')
  })

  it('inserts nothing outside the plain phase or without a session', () => {
    const busy = inputMachine({ draft: 'text', phase: 'submitting' })
    expect(appendQuote(busy.port, { sessionId: 's', text: 'q' }, label)).toBeUndefined()
    expect(busy.draft).toBe('text')
    const none: ComposerPort = { state: () => undefined, insertReference: vi.fn(), insertText: vi.fn(), consumeToken: vi.fn() }
    expect(appendQuote(none, { sessionId: 's', text: 'q' }, label)).toBeUndefined()
  })
})

describe('quote labels', () => {
  it('never repeat: a new quote after a removal takes the next number after the highest', () => {
    const machine = inputMachine()
    appendQuote(machine.port, { sessionId: 's', text: 'one' }, label)
    appendQuote(machine.port, { sessionId: 's', text: 'two' }, label)
    expect(removeQuote(machine.port, 's', byLabel(machine, 'Quote 1'))).toBe(true)
    appendQuote(machine.port, { sessionId: 's', text: 'three' }, label)
    expect(labels(machine)).toEqual(['Quote 2', 'Quote 3'])
  })

  it('keep every chip its number: nothing is renumbered when an earlier quote goes', () => {
    const machine = inputMachine()
    for (const text of ['a', 'b', 'c']) appendQuote(machine.port, { sessionId: 's', text }, label)
    removeQuote(machine.port, 's', byLabel(machine, 'Quote 2'))
    expect(machine.occurrences.map(o => [o.label, decodeQuoteRef(o.ref)?.text])).toEqual([['Quote 1', 'a'], ['Quote 3', 'c']])
  })

  it('stay distinct through any sequence of adds, removals, typing, undo and redo', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), text: fc.stringMatching(/^[a-z]{1,6}$/) }),
      fc.record({ kind: fc.constant('remove' as const), index: fc.nat(5) }),
      fc.record({ kind: fc.constant('type' as const), word: fc.stringMatching(/^[a-z]{1,5}$/) }),
      fc.record({ kind: fc.constantFrom('undo' as const, 'redo' as const) }),
    )
    fc.assert(fc.property(fc.array(op, { maxLength: 30 }), ops => {
      const machine = inputMachine()
      for (const step of ops) {
        if (step.kind === 'add') appendQuote(machine.port, { sessionId: 's', text: step.text }, label)
        else if (step.kind === 'remove') {
          const quotes = machine.occurrences
          if (quotes.length > 0) removeQuote(machine.port, 's', quotes[step.index % quotes.length]!.occurrenceId)
        } else if (step.kind === 'type') machine.type(step.word)
        else machine[step.kind]()
        const now = labels(machine)
        expect(new Set(now).size).toBe(now.length)
      }
    }), { numRuns: 500 })
  })
})

describe('removing quotes', () => {
  it('removes a chip with the line break after it and keeps the chips around it', () => {
    const machine = inputMachine({ draft: 'see' })
    for (const text of ['a', 'b', 'c']) appendQuote(machine.port, { sessionId: 's', text }, label)
    machine.type('ask')
    expect(machine.draft).toBe('see\n@Quote 1\n@Quote 2\n@Quote 3\nask')
    removeQuote(machine.port, 's', byLabel(machine, 'Quote 3'))
    expect(machine.draft).toBe('see\n@Quote 1\n@Quote 2\nask')
    expect(labels(machine)).toEqual(['Quote 1', 'Quote 2'])
    removeQuote(machine.port, 's', byLabel(machine, 'Quote 1'))
    expect(labels(machine)).toEqual(['Quote 2'])
    expect(machine.draft).toBe('see\n\n@Quote 2\nask')
    expect(removeQuote(machine.port, 's', 999)).toBe(false)
  })

  it('is one undo step', () => {
    const machine = inputMachine()
    appendQuote(machine.port, { sessionId: 's', text: 'a' }, label)
    appendQuote(machine.port, { sessionId: 's', text: 'b' }, label)
    const before = machine.draft
    removeQuote(machine.port, 's', byLabel(machine, 'Quote 1'))
    machine.undo()
    expect(machine.draft).toBe(before)
    expect(labels(machine)).toEqual(['Quote 1', 'Quote 2'])
  })
})

describe('what the model reads', () => {
  it('ends each quote block with an empty line and starts the question on a line of its own', async () => {
    const machine = inputMachine()
    appendQuote(machine.port, { sessionId: 's', text: 'You said: Tell me' }, label)
    appendQuote(machine.port, { sessionId: 's', text: 'line one\n\nline two' }, label)
    machine.type('compare these')
    const sent = await machine.send(serialize)
    expect(sent.split('\n')).toEqual(['> You said: Tell me', '', '> line one', '>', '> line two', '', 'compare these'])
  })

  it('keeps text typed before the quotes as its own paragraph line', async () => {
    const machine = inputMachine({ draft: 'Look at this:' })
    appendQuote(machine.port, { sessionId: 's', text: 'quoted' }, label)
    machine.type('Why?')
    expect((await machine.send(serialize)).split('\n')).toEqual(['Look at this:', '> quoted', '', 'Why?'])
  })

  it('sends the same text as the saved draft and the copied draft', async () => {
    const machine = inputMachine({ draft: 'a ' })
    appendQuote(machine.port, { sessionId: 's', text: 'x\ny' }, label)
    appendQuote(machine.port, { sessionId: 's', text: 'z' }, label)
    machine.type('question')
    expect(await machine.send(serialize)).toBe(machine.projection().trim())
  })

  it('never lets typed text continue a quote or start with a stray space', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), text: fc.stringMatching(/^[a-z]{1,4}( [a-z]{1,4})?(\n[a-z]{1,4})?$/) }),
      fc.record({ kind: fc.constant('remove' as const), index: fc.nat(5) }),
      fc.record({ kind: fc.constant('type' as const), word: fc.stringMatching(/^[A-Z][a-z]{0,4}$/), newline: fc.boolean() }),
    )
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), async ops => {
      const machine = inputMachine()
      for (const step of ops) {
        if (step.kind === 'add') appendQuote(machine.port, { sessionId: 's', text: step.text }, label)
        else if (step.kind === 'remove') {
          const quotes = machine.occurrences
          if (quotes.length > 0) removeQuote(machine.port, 's', quotes[step.index % quotes.length]!.occurrenceId)
        } else {
          const last = machine.draft.at(-1)
          const separator = last === undefined || last === '\n' ? '' : step.newline ? '\n' : ' '
          machine.type(separator + step.word)
        }
      }
      const lines = (await machine.send(serialize)).split('\n')
      lines.forEach((line, index) => {
        expect(line.startsWith(' '), `line ${index} of ${JSON.stringify(lines)}`).toBe(false)
        if (line.startsWith('>') && index + 1 < lines.length) expect(/^(>|$)/.test(lines[index + 1]!), `after line ${index} of ${JSON.stringify(lines)}`).toBe(true)
      })
      expect(lines.filter(line => line.startsWith('>')).length).toBeGreaterThanOrEqual(machine.occurrences.length)
    }), { numRuns: 500 })
  })
})

describe('the quote chip source', () => {
  it('never lists candidates and serializes and copies a chip as its quote block', async () => {
    expect(source).toMatchObject({ trigger: '@', name: QUOTE_SOURCE, showGroupTitle: false })
    expect(await source.candidates({ sessionId: 's' } as never, { query: '', position: 'inline', signal: new AbortController().signal })).toEqual([])
    const ref = encodeQuoteRef({ text: 'line one\n\nline two', n: 3 })
    expect(await source.codec!.serialize(ref, new AbortController().signal)).toBe('> line one\n>\n> line two\n')
    expect(source.codec!.clipboardText(ref)).toBe(quoteChipText(ref))
    expect(source.codec!.clipboardText('not a quote')).toBe('')
  })
})
