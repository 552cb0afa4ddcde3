/** Part references on the official rc.8 service: only the cited messages reach the model, in the official framing, under the same scope and failure rules. */
import { describe, expect, it } from 'vitest'
import { formatMessageReference, formatNumbers, messageReferenceUri } from '../../src/shared/message-reference.ts'
import { narrowSurface } from '../../src/host/references/part-surface.ts'
import { A, B, createHostHarness, type HostHarness, id, mention, post, snapshots, TARGET, texts } from './harness.ts'

const SOURCE = id(2)

/** A session of the second workspace, to list its sources from. */
const BETA_DRAFT = id(9)

async function setup(config: Record<string, unknown> = {}): Promise<HostHarness & { url: string }> {
  const h = await createHostHarness()
  h.session(TARGET, { cwd: A })
  h.session(SOURCE, { cwd: A, title: 'Kiwi plans' })
  h.turn(SOURCE, 'first question ALPHA-MARK', 'first answer ALPHA-REPLY')
  h.turn(SOURCE, 'second question BRAVO-MARK', 'second answer BRAVO-REPLY')
  h.turn(SOURCE, 'third question CHARLIE-MARK', 'third answer CHARLIE-REPLY')
  h.session(id(4), { cwd: B, title: 'Beta plans' })
  h.turn(id(4), 'beta question', 'beta answer BETA-REPLY')
  h.session(BETA_DRAFT, { cwd: B })
  const { url } = await h.mount(config)
  return Object.assign(h, { url })
}

/** The seqs of a session's shown messages, from the plugin's own route. */
async function messagesOf(h: { url: string }, source: string): Promise<{ seq: number; number: number; role: string; excerpt: string }[]> {
  const response = await post(h.url, 'messages', { citingSessionId: source === id(4) ? BETA_DRAFT : TARGET, sourceId: source })
  expect(response.status).toBe(200)
  return ((await response.json()) as { messages: { seq: number; number: number; role: string; excerpt: string }[] }).messages
}

describe('part references', () => {
  it('gives the model only the cited reply, in the official framing, with the title, id and message number', async () => {
    const h = await setup()
    const listed = await messagesOf(h, SOURCE)
    expect(listed.map(m => [m.number, m.role])).toEqual([[1, 'user'], [2, 'assistant'], [3, 'user'], [4, 'assistant'], [5, 'user'], [6, 'assistant']])
    const reply = listed[3]!
    const decision = await h.preStep(TARGET, [`what about ${formatMessageReference({ sessionId: SOURCE, selection: [[reply.seq, reply.seq]], label: 'Kiwi plans · #4' })}?`])
    expect(texts(decision).map(m => m.kind)).toEqual(['user', 'session-reference'])
    expect(texts(decision)[0]!.text).toBe('what about @Kiwi plans · #4?')
    const [snapshot] = snapshots(decision)
    expect(snapshot).toContain('second answer BRAVO-REPLY')
    for (const other of ['ALPHA', 'CHARLIE', 'BRAVO-MARK']) expect(snapshot).not.toContain(other)
    expect(snapshot).toContain(`"sessionId":"${SOURCE}"`)
    expect(snapshot).toContain('"label":"Kiwi plans · #4"')
    // The browser finds the cited messages' seqs beside the official fields of the snapshot's source.
    if (decision.kind === 'reject') throw new Error('rejected')
    expect(decision.messages[1]!.source).toMatchObject({ kind: 'session-reference', references: [{ sessionId: SOURCE, label: 'Kiwi plans · #4', messageSeqs: [reply.seq] }] })
    // The official framing around the same JSON as a whole-session snapshot.
    const whole = snapshots(await h.preStep(TARGET, [`see ${mention(SOURCE, 'Kiwi plans')}`]))[0]!
    expect(snapshot!.slice(0, snapshot!.indexOf('[{'))).toBe(whole.slice(0, whole.indexOf('[{')))
    expect(snapshot!.slice(snapshot!.lastIndexOf('}]'))).toBe(whole.slice(whole.lastIndexOf('}]')))
    expect(whole).toContain('ALPHA-MARK')
  })

  it('merges parts of one session into one source, and a whole mention wins', async () => {
    const h = await setup()
    const listed = await messagesOf(h, SOURCE)
    const ref = (n: number) => formatMessageReference({ sessionId: SOURCE, selection: [[listed[n]!.seq, listed[n]!.seq]], label: `Kiwi · #${n + 1}` })
    const two = snapshots(await h.preStep(TARGET, [`${ref(1)} and ${ref(5)}`]))
    expect(two).toHaveLength(1)
    expect(two[0]).toContain('"label":"Kiwi plans · #2, #6"')
    expect(two[0]).toContain('ALPHA-REPLY')
    expect(two[0]).toContain('CHARLIE-REPLY')
    expect(two[0]).not.toContain('BRAVO')
    const both = snapshots(await h.preStep(TARGET, [`${ref(1)} and ${mention(SOURCE, 'Kiwi plans')}`]))
    expect(both[0]).toContain('BRAVO-MARK')
    const range = snapshots(await h.preStep(TARGET, [`read ${messageReferenceUri({ sessionId: SOURCE, selection: [[listed[2]!.seq, listed[5]!.seq]] })}`]))
    expect(range[0]).toContain('"label":"Kiwi plans · #3–#6"')
    expect(range[0]).not.toContain('ALPHA')
    // A labelled mention is seen under its own label, the one the message shows.
    const labelled = snapshots(await h.preStep(TARGET, [formatMessageReference({ sessionId: SOURCE, selection: [[listed[3]!.seq, listed[3]!.seq]], label: 'Kiwi plans · #4' })]))
    expect(labelled[0]).toContain('"label":"Kiwi plans · #4"')
  })

  it('fails a cited message that is gone like a missing session, per source, and keeps the text', async () => {
    const h = await setup({ failureMode: 'passthrough' })
    const gone = formatMessageReference({ sessionId: SOURCE, selection: [[9_999, 9_999]], label: 'Kiwi plans · #40' })
    const decision = await h.preStep(TARGET, [`look ${gone} and ${mention(id(4), 'Beta plans')}`])
    expect(texts(decision)[0]!.text).toBe('look @Kiwi plans · #40 and @Beta plans')
    expect(snapshots(decision)).toHaveLength(0)
    const outcomes = await (await post(h.url, 'outcomes', { citingSessionId: TARGET })).json() as { outcomes: { references: { sessionId?: string; code: string }[] }[] }
    expect(outcomes.outcomes.at(-1)!.references).toEqual(expect.arrayContaining([
      expect.objectContaining({ sessionId: SOURCE, code: 'not-found' }),
      expect.objectContaining({ sessionId: id(4), code: 'out-of-scope' }),
    ]))
  })

  it('holds scope for a part reference, refuses a malformed one and never reads it as a whole session', async () => {
    const h = await setup({ failureMode: 'passthrough' })
    const beta = (await messagesOf(h, id(4)))[1]!
    const outside = await h.preStep(TARGET, [formatMessageReference({ sessionId: id(4), selection: [[beta.seq, beta.seq]], label: 'Beta · #2' })])
    expect(snapshots(outside)).toHaveLength(0)
    const malformed = `@[Kiwi](${messageReferenceUri({ sessionId: SOURCE, selection: [[1, 1]] })}-0)`
    const decision = await h.preStep(TARGET, [`read ${malformed}`])
    expect(texts(decision)[0]!.text).toBe('read @Kiwi')
    expect(snapshots(decision)).toHaveLength(0)
    const rejected = await (await setup({ failureMode: 'reject' })).preStep(TARGET, [malformed])
    expect(rejected.kind).toBe('reject')
  })

  it('blocks a preflight whose cited message is gone and measures a part smaller than the whole', async () => {
    const h = await setup()
    const listed = await messagesOf(h, SOURCE)
    const part = formatMessageReference({ sessionId: SOURCE, selection: [[listed[1]!.seq, listed[1]!.seq]], label: 'Kiwi plans · #2' })
    const measure = async (text: string) => (await (await post(h.url, 'preflight', { citingSessionId: TARGET, text })).json()) as { ok: boolean; sources: { label: string; bytes?: number; code?: string }[] }
    const partAnswer = await measure(part)
    const wholeAnswer = await measure(mention(SOURCE, 'Kiwi plans'))
    expect(partAnswer.ok).toBe(true)
    expect(partAnswer.sources[0]!.label).toBe('Kiwi plans · #2')
    expect(partAnswer.sources[0]!.bytes!).toBeLessThan(wholeAnswer.sources[0]!.bytes!)
    const gone = await measure(formatMessageReference({ sessionId: SOURCE, selection: [[9_999, 9_999]], label: 'x' }))
    expect(gone).toMatchObject({ ok: false, code: 'not-found' })
  })

  it('fails a source whose citation names one present and one gone message, visibly, never sending the present one alone', async () => {
    const h = await setup()
    const listed = await messagesOf(h, SOURCE)
    const half = formatMessageReference({ sessionId: SOURCE, selection: [[listed[1]!.seq, listed[1]!.seq], [9_999, 9_999]], label: 'Kiwi plans · #2, #?' })
    const answer = await (await post(h.url, 'preflight', { citingSessionId: TARGET, text: `see ${half}` })).json() as { ok: boolean; code?: string; sources: { ok: boolean; code?: string; sessionId?: string }[] }
    expect(answer).toMatchObject({ ok: false, code: 'not-found' })
    expect(answer.sources).toEqual([expect.objectContaining({ sessionId: SOURCE, ok: false, code: 'not-found' })])
    // At the step the text stays readable, nothing of the source is attached, and the failure is reported for that source.
    const decision = await h.preStep(TARGET, [`see ${half}`])
    expect(texts(decision)).toEqual([{ kind: 'user', text: 'see @Kiwi plans · #2, #?' }])
    const outcomes = await (await post(h.url, 'outcomes', { citingSessionId: TARGET })).json() as { outcomes: { references: { sessionId?: string; code: string }[] }[] }
    expect(outcomes.outcomes.flatMap(outcome => outcome.references)).toEqual([expect.objectContaining({ sessionId: SOURCE, code: 'not-found' })])
  })

  it('answers the reference of one message by its id, and 404 and 400 otherwise', async () => {
    const h = await setup()
    const surface = await h.ctx.sessionQuery.readSurface(SOURCE as never)
    const reply = surface.events.filter(event => event.type === 'assistant/message')[1]!
    const messageId = reply.type === 'assistant/message' ? reply.data.message.id : ''
    const answer = await (await post(h.url, 'message-reference', { sourceId: SOURCE, messageId })).json() as { mention: string; label: string; seq: number; number: number }
    expect(answer).toMatchObject({ label: 'Kiwi plans · #4', seq: reply.seq, number: 4 })
    expect(answer.mention).toBe(formatMessageReference({ sessionId: SOURCE, selection: [[reply.seq, reply.seq]], label: 'Kiwi plans · #4' }))
    expect((await post(h.url, 'message-reference', { sourceId: SOURCE, messageId: 'nope' })).status).toBe(404)
    expect((await post(h.url, 'message-reference', { sourceId: id(99), messageId })).status).toBe(404)
    expect((await post(h.url, 'message-reference', { sourceId: SOURCE })).status).toBe(400)
  })

  it('lists a source\'s messages only for a draft the scope admits it in', async () => {
    const h = await setup()
    // Another workspace's session and one that does not exist get the same answer, whole, but for the id itself.
    const whole = async (source: string) => {
      const res = await post(h.url, 'messages', { citingSessionId: TARGET, sourceId: source })
      return { status: res.status, body: (await res.text()).replaceAll(source, '<id>') }
    }
    const outOfScope = await whole(id(4))
    expect(outOfScope.status).toBe(404)
    expect(await whole(id(99))).toEqual(outOfScope)
    expect((await post(h.url, 'messages', { citingSessionId: TARGET })).status).toBe(400)
    for (const [route, body] of [['messages', { citingSessionId: TARGET, sourceId: SOURCE }], ['message-reference', { sourceId: SOURCE, seq: 1 }], ['since', { sources: [] }]] as const) {
      expect((await post(h.url, route, body, { 'sec-fetch-site': 'cross-site' })).status, route).toBe(403)
    }
    const listed = (await (await post(h.url, 'messages', { citingSessionId: TARGET, sourceId: SOURCE })).json()) as { title: string; total: number; messages: { excerpt: string }[] }
    expect(listed).toMatchObject({ title: 'Kiwi plans', total: 6 })
    expect(listed.messages[1]!.excerpt).toBe('first answer ALPHA-REPLY')
  })

  it('tells what a source gained since a snapshot, in message seqs', async () => {
    const h = await setup()
    const listed = await messagesOf(h, SOURCE)
    const since = async (capturedThroughSeq: number | null) => ((await (await post(h.url, 'since', { sources: [{ sessionId: SOURCE, capturedThroughSeq }] })).json()) as { sources: { newMessages: number; firstNewSeq?: number }[] }).sources[0]!
    expect(await since(listed.at(-1)!.seq + 5)).toEqual({ sessionId: SOURCE, capturedThroughSeq: listed.at(-1)!.seq + 5, newMessages: 0 })
    expect(await since(listed[3]!.seq)).toMatchObject({ newMessages: 2, firstNewSeq: listed[4]!.seq })
    expect((await post(h.url, 'since', { sources: [{ sessionId: SOURCE, capturedThroughSeq: -1 }] })).status).toBe(400)
    expect((await post(h.url, 'since', { sources: 'x' })).status).toBe(400)
    expect((await post(h.url, 'since', { sources: Array.from({ length: 33 }, () => ({ sessionId: SOURCE, capturedThroughSeq: 1 })) })).status).toBe(400)
  })
})

describe('the part surface', () => {
  it('numbers runs of messages as people read them', () => {
    expect(formatNumbers([3])).toBe('#3')
    expect(formatNumbers([3, 4])).toBe('#3, #4')
    expect(formatNumbers([3, 4, 5, 9])).toBe('#3–#5, #9')
  })

  it('refuses a range that holds no message', () => {
    const surface = { session: { id: 's' }, capturedThroughSeq: 3, events: [] } as never
    expect(() => narrowSurface(surface, [[1, 2]])).toThrow(/no longer in its history/)
  })
})
