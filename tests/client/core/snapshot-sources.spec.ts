/** Message references back to their source: sent references read off the chat nodes, written references found in a draft and turned into chips. */
import { describe, expect, it } from 'vitest'
import { sentSources, sourceOfChip } from '../../../src/client/core/snapshot-sources.ts'
import { writtenReferences } from '../../../src/client/core/pasted-reference.ts'
import { lastTurns } from '../../../src/client/core/narrowing.ts'
import { chipWrittenReferences } from '../../../src/client/mention/written-chips.ts'
import { formatMessageReference, messageReferenceUri } from '../../../src/shared/message-reference.ts'
import { inputMachine } from '../input-machine.ts'

const SOURCE = 'session-00000000-0000-4000-8000-000000000002'

describe('sent references', () => {
  it('pairs a user message with the snapshot that follows it, part seqs and capture included', () => {
    const nodes = [
      { key: 'u1', kind: 'user', data: { seq: 10, content: [] } },
      { key: 'c1', kind: 'context', data: { seq: 11, time: 1_700_000_000_000, source: { kind: 'session-reference', references: [
        { sessionId: SOURCE, label: 'Kiwi plans · #4', capturedThroughSeq: 20, messageSeqs: [7] },
        { sessionId: 'session-9', label: 'Pears', capturedThroughSeq: null },
        { label: 'no id' },
      ] } } },
      { key: 'u2', kind: 'user', data: { seq: 30 } },
      { key: 'c2', kind: 'context', data: { seq: 40, source: { kind: 'session-reference', references: [{ sessionId: SOURCE, label: 'x', capturedThroughSeq: 1 }] } } },
      { key: 'c3', kind: 'context', data: { seq: 31, source: { kind: 'agent-instructions' } } },
    ]
    const sent = sentSources(nodes)
    expect([...sent.keys()]).toEqual(['u1'])
    expect(sent.get('u1')).toEqual([
      { sessionId: SOURCE, label: 'Kiwi plans · #4', capturedThroughSeq: 20, messageSeqs: [7], capturedAt: 1_700_000_000_000 },
      { sessionId: 'session-9', label: 'Pears', capturedThroughSeq: null, capturedAt: 1_700_000_000_000 },
    ])
    expect(sourceOfChip(sent.get('u1')!, ' Pears ')?.sessionId).toBe('session-9')
    expect(sourceOfChip(sent.get('u1')!, 'Kiwi plans · #4')?.messageSeqs).toEqual([7])
    expect(sourceOfChip(sent.get('u1')!, 'Nothing')).toBeUndefined()
  })
})

describe('written message references', () => {
  const reference = formatMessageReference({ sessionId: SOURCE, selection: [[7, 7]], label: 'Kiwi plans · #4' })

  it('finds labelled, well-formed references outside chips only', () => {
    const draft = `see ${reference} and ${messageReferenceUri({ sessionId: SOURCE, selection: [[7, 7]] })} and @[bad](dsh-messages:x/1)`
    expect(writtenReferences(draft, [])).toEqual([{ start: 4, end: 4 + reference.length, sessionId: SOURCE, label: 'Kiwi plans · #4', mention: reference }])
    expect(writtenReferences(draft, [{ offset: 10, length: 3 }])).toEqual([])
  })

  it('turns each into a chip over its span, and the send gives back exactly the text pasted', () => {
    const machine = inputMachine()
    machine.type(`compare ${reference} with ${reference}`)
    const chipped = chipWrittenReferences(machine.port, 'session-t', written => ({ source: 'dsh-sessions', ref: written.mention, label: written.label, appearance: 'session', clipboardText: written.mention }))
    expect(chipped).toBe(2)
    expect(machine.draft).toBe('compare @Kiwi plans · #4 with @Kiwi plans · #4 ')
    expect(machine.occurrences.map(chip => chip.clipboardText)).toEqual([reference, reference])
    expect(chipWrittenReferences(machine.port, 'session-t', () => { throw new Error('no second pass') })).toBe(0)
  })

  it('leaves a draft that does not take edits alone', () => {
    const machine = inputMachine({ draft: reference, phase: 'submitting' })
    expect(chipWrittenReferences(machine.port, 'session-t', written => ({ source: 's', ref: '', label: written.label, appearance: 'session', clipboardText: '' }))).toBe(0)
    expect(machine.draft).toBe(reference)
  })
})

describe('narrowing', () => {
  const messages = [
    { seq: 1, number: 1, role: 'user' as const, excerpt: '' },
    { seq: 2, number: 2, role: 'assistant' as const, excerpt: '' },
    { seq: 5, number: 3, role: 'user' as const, excerpt: '' },
    { seq: 6, number: 4, role: 'assistant' as const, excerpt: '' },
    { seq: 8, number: 5, role: 'assistant' as const, excerpt: '' },
  ]
  it('takes the last turns from the user message that opens them', () => {
    expect(lastTurns(messages, 1).map(m => m.seq)).toEqual([5, 6, 8])
    expect(lastTurns(messages, 3).map(m => m.seq)).toEqual([1, 2, 5, 6, 8])
  })
})
