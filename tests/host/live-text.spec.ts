/** A live session's text followed event by event: the whole text once, then only what came since. */
import { describe, expect, it } from 'vitest'
import { conversationOf } from '../../src/host/official/conversation.ts'
import { LiveText } from '../../src/host/search/live-text.ts'
import { digestOf } from '../../src/host/search/text/stored-text.ts'

const said = (seq: number, role: 'user' | 'assistant', text: string) => role === 'user'
  ? Object.freeze({ type: 'user/message', seq, time: 1_000 + seq, data: { source: { kind: 'user' }, content: [{ type: 'text', text }] } })
  : Object.freeze({ type: 'assistant/message', seq, time: 1_000 + seq, data: { message: { content: [{ type: 'text', text }] } } })

function log(count: number) {
  const events: object[] = []
  for (let n = 0; n < count; n += 1) events.push(said(n, n % 2 === 0 ? 'user' : 'assistant', `message ${n}`))
  return events
}

describe('live text', () => {
  it('gives the whole text first, then only the new messages, each append naming the earlier ones by count and digest', () => {
    const events = log(4)
    const live = new LiveText()
    const first = live.step([...events])
    expect(first).toEqual({ kind: 'whole', text: conversationOf(events) })
    events.push(said(4, 'user', 'message 4'), Object.freeze({ type: 'session/title', seq: 5, data: { title: 'Named' } }), said(6, 'assistant', 'message 6'))
    const second = live.step([...events])
    const all = conversationOf(events).messages
    expect(second).toEqual({
      kind: 'append',
      entry: {
        title: 'Named',
        messages: ['message 4', 'message 6'],
        origins: [{ seq: 4, time: 1_004, role: 'user' }, { seq: 6, time: 1_006, role: 'assistant' }],
        total: 6,
        after: { messages: 4, digest: digestOf(all.slice(0, 4), 0).whole },
        digest: digestOf(all, 0).whole,
      },
    })
    // Nothing new: an empty append that still names where the text stands.
    expect(live.step([...events])).toMatchObject({ kind: 'append', entry: { messages: [], after: { messages: 6 }, total: 6 } })
  })

  it('gives the whole text again after a restart, or when the log it took is not the log any more', () => {
    const events = log(3)
    const live = new LiveText()
    live.step(events)
    live.restart()
    expect(live.step(events)).toEqual({ kind: 'whole', text: conversationOf(events) })
    // The same length, another log: the events it took are not these.
    const other = log(5)
    expect(live.step(other)).toEqual({ kind: 'whole', text: conversationOf(other) })
    expect(live.step(other.slice(0, 2))).toEqual({ kind: 'whole', text: conversationOf(other.slice(0, 2)) })
  })

  it('counts the messages past the kept characters without keeping them', () => {
    const live = new LiveText()
    const events = log(2)
    live.step(events)
    const huge = 'x'.repeat(17 * 1024 * 1024)
    events.push(said(2, 'user', huge), said(3, 'assistant', 'after the cap'))
    const step = live.step(events)
    expect(step.kind).toBe('append')
    if (step.kind !== 'append') return
    expect(step.entry.total).toBe(4)
    expect(step.entry.messages.map(message => message.length)).toEqual([16 * 1024 * 1024 - 'message 0message 1'.length])
  })
})
