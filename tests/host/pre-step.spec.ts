/** The pre-step on the official rc.8 services: readable text and exactly one snapshot per citing message, scope, failure modes and per-source outcomes. */
import { describe, expect, it } from 'vitest'
import { A, B, createHostHarness, type HostHarness, id, mention, post, snapshots, TARGET, texts } from './harness.ts'

async function setup(config: Record<string, unknown> = {}, options: { maxReferenceBytes?: number } = {}): Promise<HostHarness> {
  const harness = await createHostHarness(options)
  harness.session(TARGET, { cwd: A })
  harness.session(id(2), { cwd: A, title: 'Pear orchard notes', messages: ['pears grow on trees'] })
  harness.session(id(3), { cwd: A, title: 'Pear', messages: ['a single pear'] })
  harness.session(id(4), { cwd: B, title: 'Beta plans', messages: ['beta is elsewhere'] })
  harness.session(id(5), { cwd: A, messages: ['no title here'] })
  harness.session(id(6), { cwd: A, title: 'Twin', messages: ['first twin'] })
  harness.session(id(7), { cwd: A, title: 'twin', messages: ['second twin'] })
  await harness.mount(config)
  return harness
}

describe('pre-step resolution', () => {
  it('turns a canonical mention into readable text followed by exactly one snapshot', async () => {
    const h = await setup()
    const decision = await h.preStep(TARGET, [`compare ${mention(id(2), 'Pear orchard notes')} please`])
    expect(texts(decision).map(m => m.kind)).toEqual(['user', 'session-reference'])
    expect(texts(decision)[0]!.text).toBe('compare @Pear orchard notes please')
    expect(snapshots(decision)).toHaveLength(1)
    expect(snapshots(decision)[0]).toContain('## Referenced sessions')
    expect(snapshots(decision)[0]).toContain('pears grow on trees')
  })

  it('keeps the message id and source', async () => {
    const h = await setup()
    const decision = await h.preStep(TARGET, [`see ${mention(id(2))}`])
    if (decision.kind === 'reject') throw new Error('rejected')
    expect(decision.messages[0]!.source).toEqual({ kind: 'user' })
    expect(decision.messages[0]!.id).toBeTruthy()
  })

  it('resolves a bare id only with non-id neighbours and only for a visible session', async () => {
    const h = await setup()
    expect(snapshots(await h.preStep(TARGET, [`read ${id(2)}.`]))).toHaveLength(1)
    expect(texts(await h.preStep(TARGET, [`read ${id(2)}.`]))[0]!.text).toBe(`read ${id(2)}.`)
    expect(snapshots(await h.preStep(TARGET, [`read x${id(2)}`]))).toHaveLength(0)
    expect(snapshots(await h.preStep(TARGET, [`read ${id(2)}_b`]))).toHaveLength(0)
    const unknown = await h.preStep(TARGET, [`read ${id(99)} now`])
    expect(texts(unknown)).toEqual([{ kind: 'user', text: `read ${id(99)} now` }])
  })

  it('resolves the other id forms the host mints', async () => {
    const h = await createHostHarness()
    h.session('session-7', { cwd: A })
    h.session('session-0123456789abcdef0123456789abcdef', { cwd: A, messages: ['hex id'] })
    h.session(`explore-${id(8)}`, { cwd: A, messages: ['agent id'] })
    h.session('session-9', { cwd: A, messages: ['counter id'] })
    await h.mount()
    const decision = await h.preStep('session-7', ['session-0123456789abcdef0123456789abcdef and explore-' + id(8) + ' and session-9'])
    expect(snapshots(decision)).toHaveLength(1)
    for (const text of ['hex id', 'agent id', 'counter id']) expect(snapshots(decision)[0]).toContain(text)
  })

  it('never re-scans an id inside a canonical mention of an untitled session', async () => {
    const h = await setup()
    const decision = await h.preStep(TARGET, [`look ${mention(id(5), id(5))}`])
    expect(texts(decision)[0]!.text).toBe(`look @${id(5)}`)
    expect(snapshots(decision)).toHaveLength(1)
    expect(snapshots(decision)[0]!.match(new RegExp(`"sessionId":"${id(5)}"`, 'g'))).toHaveLength(1)
  })

  it('resolves the longest unique @Title case-insensitively and leaves duplicates plain', async () => {
    const h = await setup()
    const longest = await h.preStep(TARGET, ['@pear orchard NOTES please'])
    expect(texts(longest)[0]!.text).toBe('@pear orchard NOTES please')
    expect(snapshots(longest)).toHaveLength(1)
    expect(snapshots(longest)[0]).toContain('pears grow on trees')
    expect(snapshots(longest)[0]).not.toContain('a single pear')
    expect(snapshots(await h.preStep(TARGET, ['@Pear, alone']))[0]).toContain('a single pear')
    expect(texts(await h.preStep(TARGET, ['@Twin?']))).toEqual([{ kind: 'user', text: '@Twin?' }])
    expect(snapshots(await h.preStep(TARGET, ['@Beta plans']))).toHaveLength(0)
  })

  it('labels an untitled session with its id', async () => {
    const h = await setup()
    const decision = await h.preStep(TARGET, [`see ${id(5)}`])
    expect(snapshots(decision)[0]).toContain(`"label":"${id(5)}"`)
  })

  it('renders labels with ], \\, newlines and astral characters readably', async () => {
    const h = await setup()
    const label = 'a]b\\c\n🍐 d'
    const decision = await h.preStep(TARGET, [`x ${mention(id(2), label)} y`])
    expect(texts(decision)[0]!.text).toBe(`x @${label} y`)
    expect(snapshots(decision)).toHaveLength(1)
  })

  it('makes a label that spells a session URI inert for the official listener', async () => {
    const h = await setup()
    const label = `dsh-session:${'A'.repeat(8)}`
    const decision = await h.preStep(TARGET, [`x ${mention(id(2), label)} and dsh-session:!!`])
    expect(texts(decision).map(m => m.kind)).toEqual(['user', 'session-reference'])
    expect(texts(decision)[0]!.text.replaceAll('\u2060', '')).toBe(`x @${label} and dsh-session:!!`)
  })

  it('passes out-of-scope and self references through as readable text without a snapshot', async () => {
    const h = await setup()
    const decision = await h.preStep(TARGET, [`${mention(id(4), 'Beta plans')} ${mention(TARGET, 'me')} ${mention(id(2), 'Pear orchard notes')}`])
    expect(texts(decision)[0]!.text).toBe('@Beta plans @me @Pear orchard notes')
    expect(snapshots(decision)).toHaveLength(1)
    expect(snapshots(decision)[0]).not.toContain('beta is elsewhere')
    expect(snapshots(await h.preStep(TARGET, [`${id(4)}`]))).toHaveLength(0)
  })

  it('says in one outcome how many bare ids named no session here, unknown and out of scope alike, counting each id once', async () => {
    const h = await createHostHarness()
    h.session(TARGET, { cwd: A })
    h.session(id(2), { cwd: A, title: 'Pear orchard notes', messages: ['pears grow on trees'] })
    h.session(id(4), { cwd: B, title: 'Beta plans', messages: ['beta is elsewhere'] })
    const { url } = await h.mount()
    const unknown = 'session-00000000-0000-4000-8000-00000000ffff'
    const decision = await h.preStep(TARGET, [`${unknown} ${id(4)} ${unknown} and ${id(2)}`])
    expect(snapshots(decision)).toHaveLength(1)
    const { outcomes } = await (await post(url, 'outcomes', { citingSessionId: TARGET })).json() as { outcomes: { kind: string; count?: number; references: unknown[] }[] }
    expect(outcomes).toEqual([expect.objectContaining({ kind: 'ids-as-text', count: 2, references: [] })])
    // A message whose ids all resolve says nothing.
    await h.preStep(TARGET, [`again ${id(2)}`])
    expect(((await (await post(url, 'outcomes', { citingSessionId: TARGET })).json()) as { outcomes: unknown[] }).outcomes).toHaveLength(1)
  })

  it('rejects the step for the same failures in reject mode', async () => {
    const h = await setup({ failureMode: 'reject' })
    expect((await h.preStep(TARGET, [`${mention(id(4), 'Beta plans')}`])).kind).toBe('reject')
    expect((await h.preStep(TARGET, [`${TARGET}`])).kind).toBe('reject')
    expect((await h.preStep(TARGET, [`${mention(id(2))}`])).kind).toBe('enter')
  })

  it('references every visible session with scope all', async () => {
    const h = await setup({ scope: 'all' })
    expect(snapshots(await h.preStep(TARGET, ['@Beta plans']))[0]).toContain('beta is elsewhere')
    expect(snapshots(await h.preStep(TARGET, [`${id(4)}`]))).toHaveLength(1)
  })

  it('handles more than three sources by failure mode: passthrough attaches the first three in text order', async () => {
    const passthrough = await setup()
    const four = `${id(2)} ${id(3)} ${id(5)} ${id(6)}`
    const decision = await passthrough.preStep(TARGET, [four])
    expect(texts(decision).map(message => message.kind)).toEqual(['user', 'session-reference'])
    const [snapshot] = snapshots(decision)
    for (const text of ['pears grow on trees', 'a single pear', 'no title here']) expect(snapshot).toContain(text)
    expect(snapshot).not.toContain('first twin')
    const reject = await setup({ failureMode: 'reject' })
    expect((await reject.preStep(TARGET, [four])).kind).toBe('reject')
    expect(snapshots(await passthrough.preStep(TARGET, [`${id(2)} ${id(3)} ${id(5)} ${id(2)}`]))).toHaveLength(1)
  })

  it('leaves out only the source that fails, keeping the others of the same message', async () => {
    const h = await setup()
    h.breakLog(id(3))
    const decision = await h.preStep(TARGET, [`${id(2)} and ${id(3)} and ${id(5)}`])
    const [snapshot] = snapshots(decision)
    expect(snapshot).toContain('pears grow on trees')
    expect(snapshot).toContain('no title here')
    expect(snapshot).not.toContain('a single pear')
  })

  it('handles a source deleted after it was indexed by failure mode', async () => {
    const h = await setup()
    h.breakLog(id(2))
    const decision = await h.preStep(TARGET, [`${mention(id(2), 'Pear orchard notes')}`])
    expect(texts(decision)).toEqual([{ kind: 'user', text: '@Pear orchard notes' }])
    const reject = await setup({ failureMode: 'reject' })
    reject.breakLog(id(2))
    expect((await reject.preStep(TARGET, [`${mention(id(2))}`])).kind).toBe('reject')
  })

  it('handles a budget failure by failure mode', async () => {
    const h = await setup({}, { maxReferenceBytes: 64 })
    const decision = await h.preStep(TARGET, [`${mention(id(2), 'Pear orchard notes')}`])
    expect(texts(decision)).toEqual([{ kind: 'user', text: '@Pear orchard notes' }])
    const reject = await setup({ failureMode: 'reject' }, { maxReferenceBytes: 64 })
    expect((await reject.preStep(TARGET, [`${mention(id(2))}`])).kind).toBe('reject')
  })

  it('passes a malformed canonical mention through as readable text', async () => {
    const h = await setup()
    const decision = await h.preStep(TARGET, ['see @[Broken](dsh-session:!!) now'])
    expect(texts(decision)).toEqual([{ kind: 'user', text: 'see @Broken now' }])
    const reject = await setup({ failureMode: 'reject' })
    expect((await reject.preStep(TARGET, ['see @[Broken](dsh-session:!!)'])).kind).toBe('reject')
  })

  it('leaves messages without references untouched', async () => {
    const h = await setup()
    const decision = await h.preStep(TARGET, ['just a question', 'and another'])
    expect(texts(decision)).toEqual([{ kind: 'user', text: 'just a question' }, { kind: 'user', text: 'and another' }])
  })

  it('honours allowBareSessionIds and allowPlainTitleMentions', async () => {
    const h = await setup({ allowBareSessionIds: false, allowPlainTitleMentions: false })
    expect(snapshots(await h.preStep(TARGET, [`${id(2)} @Pear`]))).toHaveLength(0)
    expect(snapshots(await h.preStep(TARGET, [mention(id(2))]))).toHaveLength(1)
  })

  it('places each snapshot right after the message that cited it', async () => {
    const h = await setup()
    const decision = await h.preStep(TARGET, [`first ${id(2)}`, 'plain', `third @Pear`])
    expect(texts(decision).map(m => m.kind)).toEqual(['user', 'session-reference', 'user', 'user', 'session-reference'])
  })

  it('stops listening when the row is disposed', async () => {
    const h = await createHostHarness()
    h.session(TARGET, { cwd: A })
    h.session(id(2), { cwd: A, title: 'Pear', messages: ['pears'] })
    const mounted = await h.mount()
    await mounted.dispose()
    const decision = await h.preStep(TARGET, [`see ${id(2)}`])
    expect(texts(decision)).toEqual([{ kind: 'user', text: `see ${id(2)}` }])
    expect(await fetch(`${mounted.url}/dsh-sessions/settings`).then(res => res.status)).toBe(404)
  })
})
