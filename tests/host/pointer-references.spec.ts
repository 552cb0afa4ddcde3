/** Pointer references on the official rc.8 service: the model gets what the session is and how to read it, in the official frame and source kind, a few hundred bytes whatever the session's size, under the same scope and failure rules as a snapshot. */
import { describe, expect, it } from 'vitest'
import { SessionId } from '@deepseek-ai/dsh-session'
import { FIRST_MESSAGE_CHARS, pointerEntry } from '../../src/host/references/pointer.ts'
import { formatMessageReference } from '../../src/shared/message-reference.ts'
import { A, B, createHostHarness, type HostHarness, id, mention, post, snapshots, TARGET, texts } from './harness.ts'

const SOURCE = id(2)

async function setup(config: Record<string, unknown> = { agentTools: true }, turns = 3): Promise<HostHarness & { url: string }> {
  const h = await createHostHarness()
  h.session(TARGET, { cwd: A })
  h.session(SOURCE, { cwd: A, title: 'Kiwi plans' })
  for (let n = 0; n < turns; n += 1) h.turn(SOURCE, `question ${n} ${n === 0 ? 'Draft the kiwi rollout plan, starting Friday.' : 'more'}`, `answer ${n} ${'with words '.repeat(40)}`)
  h.session(id(4), { cwd: B, title: 'Beta plans' })
  h.turn(id(4), 'beta question', 'beta answer')
  const { url } = await h.mount(config)
  return Object.assign(h, { url })
}

const pointer = (sessionId: string, label = 'Kiwi plans') => formatMessageReference({ sessionId, selection: [], agent: true, label })

describe('pointer references', () => {
  it('give the model the session\'s title, id, workspace, times, size and first request, and how to read it, in the official frame', async () => {
    const h = await setup()
    const decision = await h.preStep(TARGET, [`what did we decide in ${pointer(SOURCE)}?`])
    expect(texts(decision).map(m => m.kind)).toEqual(['user', 'session-reference'])
    expect(texts(decision)[0]!.text).toBe('what did we decide in @Kiwi plans?')
    const [snapshot] = snapshots(decision)
    const whole = snapshots(await h.preStep(TARGET, [`see ${mention(SOURCE, 'Kiwi plans')}`]))[0]!
    expect(snapshot!.slice(0, snapshot!.indexOf('[{'))).toBe(whole.slice(0, whole.indexOf('[{')))
    expect(snapshot!.slice(snapshot!.lastIndexOf('}]'))).toBe(whole.slice(whole.lastIndexOf('}]')))
    const [entry] = JSON.parse(snapshot!.slice(snapshot!.indexOf('[{'), snapshot!.lastIndexOf('}]') + 2)) as Record<string, unknown>[]
    expect(entry).toEqual({
      sessionId: SOURCE, title: 'Kiwi plans', workspace: expect.any(String),
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/), lastActive: expect.stringMatching(/^\d{4}-/), messages: 6,
      firstMessage: 'question 0 Draft the kiwi rollout plan,…', read: 'read_session reads and searches it',
    })
    expect(snapshot).not.toContain('with words')
    if (decision.kind === 'reject') throw new Error('rejected')
    expect(decision.messages[1]!.source).toMatchObject({ kind: 'session-reference', form: 'recall', version: 1, references: [{ sessionId: SOURCE, label: 'Kiwi plans', originalMessages: 6, retainedMessages: 0, inputIndex: 0 }] })
  })

  it('cost the same few hundred bytes for a session of 3 turns and of 300', async () => {
    const small = snapshots(await (await setup()).preStep(TARGET, [pointer(SOURCE)]))[0]!
    const large = snapshots(await (await setup({ agentTools: true }, 300)).preStep(TARGET, [pointer(SOURCE)]))[0]!
    expect(Buffer.byteLength(small)).toBeLessThan(1_500)
    expect(Math.abs(Buffer.byteLength(large) - Buffer.byteLength(small))).toBeLessThan(16)
  })

  it('sit beside snapshots in the sources\' order, and a snapshot of the same session wins', async () => {
    const h = await setup()
    h.session(id(3), { cwd: A, title: 'Plum notes' })
    h.turn(id(3), 'plum question PLUM-MARK', 'plum answer')
    const decision = await h.preStep(TARGET, [`${mention(id(3), 'Plum notes')} and ${pointer(SOURCE)}`])
    if (decision.kind === 'reject') throw new Error('rejected')
    expect(decision.messages[1]!.source).toMatchObject({ references: [{ sessionId: id(3), inputIndex: 0, retainedMessages: 2 }, { sessionId: SOURCE, inputIndex: 1, retainedMessages: 0 }] })
    const [snapshot] = snapshots(decision)
    expect(snapshot).toContain('PLUM-MARK')
    expect(snapshot!.indexOf(`"sessionId":"${id(3)}"`)).toBeLessThan(snapshot!.indexOf(`"sessionId":"${SOURCE}"`))
    const both = snapshots(await h.preStep(TARGET, [`${pointer(SOURCE)} and ${mention(SOURCE, 'Kiwi plans')}`]))[0]!
    expect(both).toContain('with words')
  })

  it('hold the scope, and are refused while the session tools are off, the text kept', async () => {
    const h = await setup()
    const outside = await post(h.url, 'preflight', { citingSessionId: TARGET, text: `see ${pointer(id(4), 'Beta plans')}` })
    expect(await outside.json()).toMatchObject({ ok: false, code: 'out-of-scope' })
    const off = await setup({ agentTools: false })
    const refused = await post(off.url, 'preflight', { citingSessionId: TARGET, text: `see ${pointer(SOURCE)}` })
    expect(await refused.json()).toMatchObject({ ok: false, code: 'agent-cannot-read', sources: [{ sessionId: SOURCE, code: 'agent-cannot-read' }] })
  })

  it('keep the chip\'s form when the text names the same session too: a pointer chip and a bare id or typed title send one pointer, the preflight and the outcome say so', async () => {
    const h = await setup({ agentTools: true, allowPlainTitleMentions: true })
    for (const text of [`${pointer(SOURCE)} and its id ${SOURCE}`, `its id ${SOURCE} first, then ${pointer(SOURCE)}`, `${pointer(SOURCE)} as in @Kiwi plans`]) {
      const decision = await h.preStep(TARGET, [text])
      if (decision.kind === 'reject') throw new Error('rejected')
      const [snapshot, ...others] = snapshots(decision)
      expect(others, text).toEqual([])
      // One entry, the pointer: no message of the session rides along.
      expect(snapshot, text).not.toContain('with words')
      expect(snapshot, text).toContain('read_session reads and searches it')
      expect(decision.messages[1]!.source, text).toMatchObject({ references: [{ sessionId: SOURCE, retainedMessages: 0 }] })
    }
    const { outcomes } = await (await post(h.url, 'outcomes', { citingSessionId: TARGET })).json() as { outcomes: { kind: string; labels?: string[] }[] }
    expect(outcomes.filter(outcome => outcome.kind === 'same-source')).toEqual([0, 1, 2].map(() => expect.objectContaining({ kind: 'same-source', labels: ['Kiwi plans'], references: [] })))
    const preflight = await (await post(h.url, 'preflight', { citingSessionId: TARGET, text: `${pointer(SOURCE)} and ${SOURCE}`, chips: [SOURCE] })).json() as { ok: boolean; sources: { sessionId?: string; alsoInText?: boolean }[] }
    expect(preflight).toMatchObject({ ok: true, sources: [{ sessionId: SOURCE, alsoInText: true }] })
    // Named only in the text, it is cited whole, and nothing is said.
    const alone = await h.preStep(TARGET, [`just ${SOURCE}`])
    expect(snapshots(alone)[0]).toContain('with words')
    const after = await (await post(h.url, 'outcomes', { citingSessionId: TARGET })).json() as { outcomes: { kind: string }[] }
    expect(after.outcomes.filter(outcome => outcome.kind === 'same-source')).toHaveLength(3)
  })

  it('keep a whole chip whole and a part chip a part when the text names the session too, and two chips keep their own rules', async () => {
    const h = await setup()
    const whole = await h.preStep(TARGET, [`${mention(SOURCE, 'Kiwi plans')} and ${SOURCE}`])
    if (whole.kind === 'reject') throw new Error('rejected')
    expect(whole.messages[1]!.source).toMatchObject({ references: [{ sessionId: SOURCE, retainedMessages: 6 }] })
    const [first] = (await (await post(h.url, 'messages', { citingSessionId: TARGET, sourceId: SOURCE })).json() as { messages: { seq: number }[] }).messages
    const part = formatMessageReference({ sessionId: SOURCE, selection: [[first!.seq, first!.seq]], label: 'Kiwi plans · #1' })
    const narrowed = await h.preStep(TARGET, [`${SOURCE} then ${part}`])
    if (narrowed.kind === 'reject') throw new Error('rejected')
    expect(narrowed.messages[1]!.source).toMatchObject({ references: [{ sessionId: SOURCE, retainedMessages: 1 }] })
    // Two chips: a whole one wins over a pointer, as before.
    const both = snapshots(await h.preStep(TARGET, [`${pointer(SOURCE)} and ${mention(SOURCE, 'Kiwi plans')} and ${SOURCE}`]))
    expect(both).toHaveLength(1)
    expect(both[0]).toContain('with words')
  })

  it('shorten a first message of more than 40 characters, counted as the person sees them, and keep one of 40 whole', () => {
    const first = (text: string) => pointerEntry({ sessionId: SessionId(SOURCE) }, { title: 'Kiwi plans', createdAt: 0, messages: 2, firstUserMessage: text, capturedThroughSeq: null }).firstMessage
    expect(FIRST_MESSAGE_CHARS).toBe(40)
    const forty = 'a'.repeat(39) + 'b'
    expect(first(forty)).toBe(forty)
    expect(first(`${forty}c`)).toBe(`${forty}…`)
    // Forty characters outside the BMP are forty, not eighty.
    expect(first('😀'.repeat(40))).toBe('😀'.repeat(40))
    expect(first(`${'校'.repeat(40)}验`)).toBe(`${'校'.repeat(40)}…`)
    // Runs of space count once, and the cut keeps no space before the ellipsis.
    expect(first(`  ${'word   '.repeat(8)}more`)).toBe(`${'word '.repeat(8).trimEnd()}…`)
  })
})
