// @vitest-environment jsdom
/** The reference dock: each session chip's cost before the send, what blocks it, and after a send what was not attached. */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { en, type SessionsKey, zh } from '../../src/client/locales.ts'
import type { DockChip, ReadingSettings } from '../../src/client/contract.ts'
import { ReferenceDock } from '../../src/client/references/ReferenceDock.tsx'
import { encodeChipRef } from '../../src/client/core/chip-ref.ts'
import type { Outcome, PreflightResponse } from '../../src/shared/wire.ts'

afterEach(cleanup)

const SNAPSHOTS: ReadingSettings = { agentTools: true, referenceMode: 'snapshot', suggestRelated: true }

const t = (key: SessionsKey, params: Record<string, string> = {}) => en[key].replace(/\{(\w+)\}/g, (match, name: string) => params[name] ?? match)
let occurrenceIds = 0
const occurrence = (source: string, label: string) => ({
  occurrenceId: (occurrenceIds += 1),
  source: 'dsh-sessions',
  ref: encodeChipRef({ kind: 'session', citingSessionId: 'session-t', citedSessionId: source, label, mention: `@[${label}](dsh-session:${source})` }),
})

function renderDock(response: PreflightResponse, occurrences = [occurrence('s-a', 'Alpha notes'), occurrence('s-b', 'Beta plans')], reading: ReadingSettings = SNAPSHOTS) {
  const measure = vi.fn((_chips: readonly DockChip[], _signal: AbortSignal) => Promise.resolve(response))
  let report: ((outcome: Outcome) => void) | undefined
  let refuse: (() => void) | undefined
  const restore = vi.fn()
  const open = vi.fn()
  const replace = vi.fn(() => true)
  const messages = vi.fn((sessionId: string) => Promise.resolve({
    sessionId,
    title: 'Alpha notes',
    total: 4,
    messages: [
      { seq: 3, number: 1, role: 'user' as const, excerpt: 'first question' },
      { seq: 5, number: 2, role: 'assistant' as const, excerpt: 'first answer' },
      { seq: 9, number: 3, role: 'user' as const, excerpt: 'last question' },
      { seq: 12, number: 4, role: 'assistant' as const, excerpt: 'last answer' },
    ],
  }))
  const view = render(
    <ReferenceDock
      t={t}
      input={{ occurrences }}
      source="dsh-sessions"
      locale={() => 'en'}
      measure={measure}
      watch={onOutcome => { report = onOutcome }}
      onRefused={listener => { refuse = listener; return () => { refuse = undefined } }}
      restore={restore}
      open={open}
      messages={messages}
      wholeMention={() => Promise.resolve('@[Alpha notes](dsh-session:whole)')}
      replace={replace}
      readingSettings={() => reading}
      onReadingSettings={() => () => {}}
    />,
  )
  return { view, measure, restore, open, replace, messages, report: (outcome: Outcome) => act(() => { report!(outcome) }), refuse: () => act(() => { refuse!() }) }
}

describe('the reference dock', () => {
  it('shows what each chip adds, and that a source was cut to fit', async () => {
    const { measure } = renderDock({ ok: true, text: '', references: [], sources: [
      { sessionId: 's-a', label: 'Alpha notes', chip: true, ok: true, bytes: 12_400, tokens: 3_104, truncated: false },
      { sessionId: 's-b', label: 'Beta plans', chip: true, ok: true, bytes: 65_536, tokens: 16_400, truncated: true },
    ] })
    expect(screen.getAllByText('Measuring…')).toHaveLength(2)
    await waitFor(() => { expect(screen.queryAllByText('Measuring…')).toHaveLength(0) })
    expect(measure).toHaveBeenCalledTimes(1)
    expect(measure.mock.calls[0]![0].map(chip => chip.sessionId)).toEqual(['s-a', 's-b'])
    const rows = screen.getAllByRole('listitem').map(item => `${item.querySelector('[title]')!.textContent} ${item.querySelector('[role=status]')!.textContent}`)
    expect(rows).toEqual(['Alpha notes 12.4 kB · ≈3,104 tokens', 'Beta plans 65.5 kB · ≈16,400 tokens · cut to fit the budget'])
    expect(screen.getByTitle('Alpha notes').textContent).toBe('Alpha notes')
  })

  it('measures the chips as soon as they appear, and again only when they change', async () => {
    const response: PreflightResponse = { ok: true, text: '', references: [], sources: [{ sessionId: 's-a', label: 'Alpha notes', chip: true, ok: true, bytes: 100, tokens: 25 }] }
    const picked = occurrence('s-a', 'Alpha notes')
    const { measure, view } = renderDock(response, [picked])
    // Asked in the render's own effects, before any timer runs.
    expect(measure).toHaveBeenCalledTimes(1)
    await act(() => Promise.resolve())
    expect(screen.getByRole('status').textContent).toBe('100 bytes · ≈25 tokens')
    view.rerender(
      <ReferenceDock t={t} input={{ occurrences: [picked] }} source="dsh-sessions" locale={() => 'en'} measure={measure} watch={() => {}} onRefused={() => () => {}} restore={vi.fn()} open={vi.fn()} messages={vi.fn()} wholeMention={() => Promise.resolve('')} replace={vi.fn(() => true)} readingSettings={() => SNAPSHOTS} onReadingSettings={() => () => {}} />,
    )
    expect(measure).toHaveBeenCalledTimes(1)
    const second = occurrence('s-b', 'Beta plans')
    view.rerender(
      <ReferenceDock t={t} input={{ occurrences: [picked, second] }} source="dsh-sessions" locale={() => 'en'} measure={measure} watch={() => {}} onRefused={() => () => {}} restore={vi.fn()} open={vi.fn()} messages={vi.fn()} wholeMention={() => Promise.resolve('')} replace={vi.fn(() => true)} readingSettings={() => SNAPSHOTS} onReadingSettings={() => () => {}} />,
    )
    expect(measure).toHaveBeenCalledTimes(2)
    // The measure of the chips before is cancelled.
    expect(measure.mock.calls[0]![1].aborted).toBe(true)
  })

  it('says before the send that a chip cannot be attached, and that there are too many', async () => {
    renderDock({ ok: false, code: 'too-many', message: 'raw', sources: [
      { sessionId: 's-a', label: 'Alpha notes', chip: true, ok: false, code: 'too-large', message: 'raw' },
      { sessionId: 's-b', label: 'Beta plans', chip: true, ok: true, bytes: 100, tokens: 25 },
    ] })
    await waitFor(() => { expect(screen.getByText('Cannot reference "Alpha notes": the session is too large to reference.')).toBeTruthy() })
    expect(screen.getByRole('alert').textContent).toBe(en['error.tooMany'])
  })

  it('shows what the host could not attach after a send, restores a rejected message, and dismisses', async () => {
    const { report, restore } = renderDock({ ok: true, text: '', references: [], sources: [] }, [])
    report({ id: 1, at: 0, kind: 'not-attached', references: [{ sessionId: 'session-x', label: 'session-x', code: 'out-of-scope', message: 'raw' }] })
    expect(screen.getByRole('alert').textContent).toContain('Sent without these references:')
    expect(screen.getByRole('alert').textContent).toContain('Cannot reference "session-x": it isn\'t one of this workspace\'s sessions.')
    report({ id: 2, at: 0, kind: 'rejected', references: [{ label: 'Gone', code: 'not-found', message: 'raw' }], text: 'my words' })
    expect(restore).toHaveBeenCalledWith('my words')
    // The unsent message stays readable in the notice whether or not the composer could take it back.
    expect(screen.getAllByRole('alert')[1]!.textContent).toContain('my words')
    expect(screen.getAllByRole('alert')).toHaveLength(2)
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss' })[0]!)
    expect(screen.getAllByRole('alert')).toHaveLength(1)
    expect(screen.getByRole('alert').textContent).toContain('Not sent; your message is back in the composer:')
  })

  it('renders nothing without session chips or notices', () => {
    const { view } = renderDock({ ok: true, text: '', references: [], sources: [] }, [])
    expect(view.container.innerHTML).toBe('')
  })

  it('opens the source of a chip from its title, and narrows a chip to the last turn or to chosen messages', async () => {
    const { open, replace, messages } = renderDock({ ok: true, text: '', references: [], sources: [] }, [occurrence('s-a', 'Alpha notes')])
    fireEvent.click(screen.getByRole('button', { name: 'Open “Alpha notes”' }))
    expect(open).toHaveBeenCalledWith('s-a')
    const reach = screen.getByRole('combobox', { name: 'What to reference' })
    await act(async () => { fireEvent.change(reach, { target: { value: 'last-1' } }) })
    expect(messages).toHaveBeenCalledWith('s-a', expect.any(AbortSignal))
    expect(replace).toHaveBeenLastCalledWith(expect.any(Number), expect.objectContaining({ sessionId: 's-a', label: 'Alpha notes · #3, #4' }))
    const lastTurn = (replace.mock.calls.at(-1) as unknown as [number, { mention: string }])[1].mention
    expect(lastTurn).toMatch(/^@\[Alpha notes · #3, #4\]\(dsh-messages:[A-Za-z0-9_-]+\/9-12\)$/)
    await act(async () => { fireEvent.change(reach, { target: { value: 'choose' } }) })
    fireEvent.click(screen.getByRole('checkbox', { name: /first answer/ }))
    fireEvent.click(screen.getByRole('checkbox', { name: /last answer/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Reference these messages' }))
    expect(replace).toHaveBeenLastCalledWith(expect.any(Number), expect.objectContaining({ label: 'Alpha notes · #2, #4' }))
    expect((replace.mock.calls.at(-1) as unknown as [number, { mention: string }])[1].mention).toMatch(/\/5,12\)$/)
  })

  it('lets the agent read a chip: the chip becomes a pointer; without the session tools the choice is disabled and says why', async () => {
    const { replace } = renderDock({ ok: true, text: '', references: [], sources: [] }, [occurrence('s-a', 'Alpha notes')])
    const reach = screen.getByRole('combobox', { name: 'What to reference' })
    expect(screen.getByRole('option', { name: 'Let the agent read it' })).toHaveProperty('disabled', false)
    await act(async () => { fireEvent.change(reach, { target: { value: 'agent' } }) })
    expect(replace).toHaveBeenLastCalledWith(expect.any(Number), { sessionId: 's-a', label: 'Alpha notes', mention: expect.stringMatching(/^@\[Alpha notes\]\(dsh-messages:[A-Za-z0-9_-]+\/agent\)$/) })
    cleanup()
    renderDock({ ok: true, text: '', references: [], sources: [] }, [occurrence('s-a', 'Alpha notes')], { agentTools: false, referenceMode: 'snapshot', suggestRelated: true })
    expect(screen.getByRole('option', { name: 'Let the agent read it (needs the session tools)' })).toHaveProperty('disabled', true)
    expect(zh['narrow.agent']).toBe('让智能体按需读取')
  })

  it('under referenceMode agent, makes a new whole chip a pointer as it appears, once, and never while the session tools are off', async () => {
    const { replace } = renderDock({ ok: true, text: '', references: [], sources: [] }, [occurrence('s-a', 'Alpha notes')], { agentTools: true, referenceMode: 'agent', suggestRelated: true })
    await act(() => Promise.resolve())
    expect(replace).toHaveBeenCalledTimes(1)
    expect(replace).toHaveBeenLastCalledWith(expect.any(Number), expect.objectContaining({ sessionId: 's-a', mention: expect.stringMatching(/\/agent\)$/) }))
    cleanup()
    const off = renderDock({ ok: true, text: '', references: [], sources: [] }, [occurrence('s-a', 'Alpha notes')], { agentTools: false, referenceMode: 'agent', suggestRelated: true })
    await act(() => Promise.resolve())
    expect(off.replace).not.toHaveBeenCalled()
  })

  it('names what a part chip holds in its narrowing choice, not the label the chip shows', () => {
    const part = (cited: string, label: string) => ({
      occurrenceId: (occurrenceIds += 1),
      source: 'dsh-sessions',
      ref: encodeChipRef({ kind: 'session', citingSessionId: 'session-t', citedSessionId: cited, label, mention: `@[${label}](dsh-messages:abc/9-12)` }),
    })
    renderDock({ ok: true, text: '', references: [], sources: [] }, [part('s-a', 'Alpha notes · #3, #4'), part('s-b', 'Beta plans · #2')])
    const [two, one] = screen.getAllByRole('combobox', { name: 'What to reference' }) as HTMLSelectElement[]
    expect([two!.selectedOptions[0]!.textContent, one!.selectedOptions[0]!.textContent]).toEqual(['2 messages', '1 message'])
    expect([zh['narrow.part'], zh['narrow.partOne']]).toEqual(['{n} 条消息', '1 条消息'])
  })

  it('says in one quiet line how many ids went as text, never which, and lets it be dismissed', async () => {
    const { report } = renderDock({ ok: true, text: '', references: [], sources: [] }, [])
    report({ id: 1, at: 0, kind: 'ids-as-text', references: [], count: 1 })
    report({ id: 2, at: 0, kind: 'ids-as-text', references: [], count: 1200 })
    expect(screen.getAllByRole('status').map(line => line.firstChild!.textContent)).toEqual([
      '1 id in your message names no session here; it was sent as text.',
      '1,200 ids in your message name no session here; they were sent as text.',
    ])
    expect(screen.queryAllByRole('alert')).toHaveLength(0)
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss' })[0]!)
    expect(screen.getAllByRole('status')).toHaveLength(1)
    expect([zh['outcome.idsAsTextOne'], zh['outcome.idsAsText']]).toEqual(['消息中有 1 个 ID 不对应此处的任何会话，已作为文本发送。', '消息中有 {n} 个 ID 不对应此处的任何会话，已作为文本发送。'])
  })

  it('says in one quiet line which chips the text named again, as the locale lists them, at most three and then how many more', async () => {
    const { report } = renderDock({ ok: true, text: '', references: [], sources: [] }, [])
    report({ id: 1, at: 0, kind: 'same-source', references: [], labels: ['Kiwi plans'] })
    report({ id: 2, at: 0, kind: 'same-source', references: [], labels: ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon'] })
    expect(screen.getAllByRole('status').map(line => line.firstChild!.textContent)).toEqual([
      'Your message also names Kiwi plans by id or title: the same source as its chip, sent once, as the chip cites it.',
      'Your message also names Alpha, Beta, Gamma, and 2 more by id or title: the same source as its chip, sent once, as the chip cites it.',
    ])
    expect(screen.queryAllByRole('alert')).toHaveLength(0)
    expect(zh['outcome.sameSource']).toBe('消息文本中以 ID 或标题再次提到的 {labels} 与其 chip 是同一来源，已按 chip 所选的方式只发送一次。')
  })

  it('measures the chips again after a refused send, so a source that failed at the send shows failed', async () => {
    const healthy: PreflightResponse = { ok: true, text: '', references: [], sources: [{ sessionId: 's-a', label: 'Alpha notes', chip: true, ok: true, bytes: 100, tokens: 25 }] }
    const gone: PreflightResponse = { ok: false, code: 'not-found', message: 'raw', sources: [{ sessionId: 's-a', label: 'Alpha notes', chip: true, ok: false, code: 'not-found', message: 'raw' }] }
    const { measure, refuse } = renderDock(healthy, [occurrence('s-a', 'Alpha notes')])
    await waitFor(() => { expect(screen.getByRole('status').textContent).toBe('100 bytes · ≈25 tokens') })
    measure.mockImplementation(() => Promise.resolve(gone))
    await refuse()
    await waitFor(() => { expect(screen.getByRole('status').textContent).toBe('Cannot reference "Alpha notes": the session was deleted or cannot be read.') })
    expect(measure).toHaveBeenCalledTimes(2)
  })
})
