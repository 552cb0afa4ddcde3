// @vitest-environment jsdom
/** Copy session ID and Copy reference: where the toast goes, the toast outlet, the mention lookup, the actions, the row-menu items and the header buttons. */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SessionsApi } from '../../src/client/api.ts'
import { createCopyActions } from '../../src/client/copy/actions.ts'
import { HeaderCopyActions } from '../../src/client/copy/HeaderCopyActions.tsx'
import { placeToast, TOAST_GAP } from '../../src/client/core/placement.ts'
import { createReferenceLookup } from '../../src/client/copy/session-mention-lookup.ts'
import { createToastOutlet, TOAST_LIFETIME_MS } from '../../src/client/copy/toast.tsx'
import { en, zh } from '../../src/client/locales.ts'
import { COPY_REFERENCE, COPY_SESSION_ID, createRowMenu } from '../../src/client/copy/row-menu.tsx'

vi.mock('@deepseek-ai/dsh-client-ui-primitives', () => ({
  IconCheckOutline16: () => null, IconWarningOutline16: () => null, IconCopyOutline16: () => null, IconLinkOutline16: () => null,
}))

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  document.body.innerHTML = ''
})

const t = (key: keyof typeof en) => en[key]
const ROW = { top: 300, left: 0, width: 260, height: 34 }
const VIEWPORT = { width: 1400, height: 900 }
const SOURCE = 'session-0f8fad5b-d9cb-469f-a165-70867728950e'
const MENTION = `@[Orchard plans](dsh-session:abc)`

describe('where the toast goes', () => {
  it('sits right of a row, centred on it, clear of the row', () => {
    const placement = placeToast(ROW, 'right', VIEWPORT)
    expect(placement).toEqual({ top: ROW.top + ROW.height / 2, left: ROW.left + ROW.width + TOAST_GAP, side: 'right' })
    expect(placement.left).toBeGreaterThan(ROW.left + ROW.width)
  })

  it('goes below its anchor when the window has no room on the right, and below a header button', () => {
    expect(placeToast({ ...ROW, left: 1200 }, 'right', VIEWPORT)).toEqual({ top: ROW.top + ROW.height + TOAST_GAP / 2, left: 1330, side: 'below' })
    expect(placeToast({ top: 10, left: 400, width: 28, height: 28 }, 'below', VIEWPORT)).toEqual({ top: 42, left: 414, side: 'below' })
    expect(placeToast({ top: 10, left: 1390, width: 28, height: 28 }, 'below', VIEWPORT).left).toBe(VIEWPORT.width - TOAST_GAP)
  })

  it('falls back to the top of the window without an anchor', () => {
    expect(placeToast(undefined, 'right', VIEWPORT)).toEqual({ top: TOAST_GAP * 2, left: 700, side: 'below' })
  })
})

describe('the toast outlet', () => {
  function anchorAt(box: typeof ROW): HTMLElement {
    const element = document.createElement('div')
    element.getBoundingClientRect = () => ({ ...box, right: box.left + box.width, bottom: box.top + box.height, x: box.left, y: box.top, toJSON: () => ({}) })
    document.body.appendChild(element)
    return element
  }

  it('shows the toast in one polite status region, at its anchor, and removes it after 4 s', () => {
    vi.useFakeTimers()
    const outlet = createToastOutlet()
    const row = anchorAt(ROW)
    act(() => { outlet.show({ text: 'Session ID copied', ok: true, anchor: row, side: 'right' }) })
    const region = screen.getByRole('status')
    expect(region.getAttribute('aria-live')).toBe('polite')
    const toast = region.querySelector<HTMLElement>('[data-dsh-sessions-toast="done"]')!
    expect(toast.textContent).toBe('Session ID copied')
    expect(toast.dataset.side).toBe('right')
    expect([toast.style.top, toast.style.left]).toEqual([`${ROW.top + ROW.height / 2}px`, `${ROW.width + TOAST_GAP}px`])
    act(() => { vi.advanceTimersByTime(TOAST_LIFETIME_MS - 1) })
    expect(region.textContent).toBe('Session ID copied')
    act(() => { vi.advanceTimersByTime(1) })
    expect(region.textContent).toBe('')
    expect(screen.getByRole('status')).toBe(region)
    outlet.dispose()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('replaces the toast before and restarts the 4 s', () => {
    vi.useFakeTimers()
    const outlet = createToastOutlet()
    act(() => { outlet.show({ text: 'first', ok: true, anchor: null, side: 'right' }) })
    act(() => { vi.advanceTimersByTime(3_000) })
    act(() => { outlet.show({ text: 'Could not copy the reference', ok: false, anchor: null, side: 'below' }) })
    expect(document.querySelectorAll('[data-dsh-sessions-toast]')).toHaveLength(1)
    expect(document.querySelector('[data-dsh-sessions-toast="failed"]')!.textContent).toBe('Could not copy the reference')
    act(() => { vi.advanceTimersByTime(3_000) })
    expect(screen.getByRole('status').textContent).toBe('Could not copy the reference')
    act(() => { vi.advanceTimersByTime(1_000) })
    expect(screen.getByRole('status').textContent).toBe('')
    outlet.dispose()
  })
})

describe('looking up a session mention', () => {
  function api(mention: SessionsApi['mention']): SessionsApi {
    return { candidates: vi.fn(), preflight: vi.fn(), outcomes: vi.fn(), search: vi.fn(), titles: vi.fn(), mention: vi.fn(mention), messageReference: vi.fn(), messages: vi.fn(), since: vi.fn(), find: vi.fn(), related: vi.fn() }
  }

  it('asks the mention route by the source\'s id alone', async () => {
    const routes = api(() => Promise.resolve({ sessionId: SOURCE, label: 'Orchard plans', mention: MENTION }))
    const lookup = createReferenceLookup({ api: routes })
    expect(await lookup.load(SOURCE)).toBe(MENTION)
    expect(routes.mention).toHaveBeenCalledWith(SOURCE, expect.any(AbortSignal))
    expect(lookup.ready(SOURCE)).toBe(MENTION)
  })

  it('has no mention when the route refuses the id or fails, and tries again on the next load', async () => {
    let answer: Promise<never> = Promise.reject(new Error('session not found'))
    const routes = api(() => answer)
    const lookup = createReferenceLookup({ api: routes })
    expect(await lookup.load(SOURCE)).toBeUndefined()
    expect(lookup.ready(SOURCE)).toBeUndefined()
    answer = Promise.reject(new Error('down'))
    expect(await lookup.load(SOURCE)).toBeUndefined()
    expect(routes.mention).toHaveBeenCalledTimes(2)
  })

  it('refreshes on prefetch and shares a running lookup', async () => {
    let label = 'Old title'
    const routes = api(() => Promise.resolve({ sessionId: SOURCE, label, mention: `@[${label}](dsh-session:abc)` }))
    const lookup = createReferenceLookup({ api: routes })
    lookup.prefetch(SOURCE)
    const [a, b] = await Promise.all([lookup.load(SOURCE), lookup.load(SOURCE)])
    expect([a, b]).toEqual(['@[Old title](dsh-session:abc)', '@[Old title](dsh-session:abc)'])
    label = 'New title'
    lookup.prefetch(SOURCE)
    expect(await lookup.load(SOURCE)).toBe('@[New title](dsh-session:abc)')
    expect(routes.mention).toHaveBeenCalledTimes(2)
  })
})

describe('the copy actions', () => {
  function setup(options: { ready?: string; load?: string; copied?: boolean } = {}) {
    const show = vi.fn()
    const copy = vi.fn((_text: string) => Promise.resolve(options.copied ?? true))
    const lookup = { prefetch: vi.fn(), ready: vi.fn(() => options.ready), load: vi.fn(() => Promise.resolve(options.load)) }
    const messages = { prefetch: vi.fn(), ready: vi.fn(() => options.ready), load: vi.fn(() => Promise.resolve(options.load)) }
    const actions = createCopyActions({ lookup, messages, show, t, copy })
    return { actions, show, copy, lookup, messages }
  }

  it('copies a message reference inside the click when it is ready, and after its lookup otherwise', async () => {
    const ready = setup({ ready: '@[Kiwi · #4](dsh-messages:x/7)' })
    ready.actions.copyMessageReference(SOURCE, { messageId: 'message-1' }, { anchor, side: 'below' })
    expect(ready.copy).toHaveBeenCalledWith('@[Kiwi · #4](dsh-messages:x/7)')
    await vi.waitFor(() => { expect(ready.show).toHaveBeenCalledWith(expect.objectContaining({ text: 'Message reference copied', ok: true })) })
    const missing = setup({})
    missing.actions.copyMessageReference(SOURCE, { messageId: 'message-1' }, { anchor, side: 'below' })
    await vi.waitFor(() => { expect(missing.show).toHaveBeenCalledWith(expect.objectContaining({ text: 'Could not copy the message reference', ok: false })) })
    expect(missing.messages.load).toHaveBeenCalledWith(SOURCE, { messageId: 'message-1' })
  })
  const anchor = document.createElement('div')

  it('copies the id inside the click and reports it at the anchor', async () => {
    const { actions, show, copy } = setup()
    actions.copyId(SOURCE, anchor, 'right')
    expect(copy).toHaveBeenCalledWith(SOURCE)
    await vi.waitFor(() => { expect(show).toHaveBeenCalledWith({ text: 'Session ID copied', ok: true, anchor, side: 'right' }) })
  })

  it('copies a ready mention inside the click, without waiting for a lookup', async () => {
    const { actions, show, copy, lookup } = setup({ ready: MENTION })
    actions.copyReference(SOURCE, anchor, 'below')
    expect(copy).toHaveBeenCalledWith(MENTION)
    expect(lookup.load).not.toHaveBeenCalled()
    await vi.waitFor(() => { expect(show).toHaveBeenCalledWith({ text: 'Reference copied', ok: true, anchor, side: 'below' }) })
  })

  it('waits for the lookup when the mention is not ready, and reports failures', async () => {
    const late = setup({ load: MENTION })
    late.actions.copyReference(SOURCE, anchor, 'right')
    expect(late.copy).not.toHaveBeenCalled()
    await vi.waitFor(() => { expect(late.copy).toHaveBeenCalledWith(MENTION) })
    const none = setup({})
    none.actions.copyReference(SOURCE, anchor, 'right')
    await vi.waitFor(() => { expect(none.show).toHaveBeenCalledWith(expect.objectContaining({ text: 'Could not copy the reference', ok: false })) })
    expect(none.copy).not.toHaveBeenCalled()
    const refused = setup({ copied: false })
    refused.actions.copyId(SOURCE, anchor, 'right')
    await vi.waitFor(() => { expect(refused.show).toHaveBeenCalledWith(expect.objectContaining({ text: 'Could not copy the session ID', ok: false })) })
  })
})

describe('the session row menu items', () => {
  it('adds Copy session ID then Copy reference, prefetches on opening and anchors the toast at the row', () => {
    const actions = { copyId: vi.fn(), copyReference: vi.fn(), prefetch: vi.fn(), copyMessageReference: vi.fn(), prefetchMessage: vi.fn() }
    const row = document.createElement('div')
    const menu = createRowMenu(t, actions, id => (id === SOURCE ? row : null))
    expect(menu.items().map(item => [item.id, item.label])).toEqual([[COPY_SESSION_ID, 'Copy session ID'], [COPY_REFERENCE, 'Copy reference']])
    expect(createRowMenu(key => zh[key], actions).items().map(item => item.label)).toEqual(['复制会话 ID', '复制引用'])
    menu.opening(SOURCE)
    expect(actions.prefetch).toHaveBeenCalledWith(SOURCE)
    menu.select('rename', SOURCE)
    expect(actions.copyId).not.toHaveBeenCalled()
    menu.select(COPY_SESSION_ID, SOURCE)
    expect(actions.copyId).toHaveBeenCalledWith(SOURCE, row, 'right')
    menu.select(COPY_REFERENCE, SOURCE)
    expect(actions.copyReference).toHaveBeenCalledWith(SOURCE, row, 'right')
  })
})

describe('the session header copy buttons', () => {
  it('copy the session id and reference from the buttons, and prefetch when the reference button is approached', () => {
    const props = { copyId: vi.fn(), copyReference: vi.fn(), prefetch: vi.fn() }
    render(<HeaderCopyActions sessionId={SOURCE} t={t} {...props} />)
    expect(screen.getByRole('group', { name: 'Copy' })).toBeTruthy()
    const id = screen.getByRole('button', { name: 'Copy session ID' })
    fireEvent.click(id)
    expect(props.copyId).toHaveBeenCalledWith(SOURCE, id)
    const reference = screen.getByRole('button', { name: 'Copy reference' })
    fireEvent.focus(reference)
    expect(props.prefetch).toHaveBeenCalledWith(SOURCE)
    fireEvent.click(reference)
    expect(props.copyReference).toHaveBeenCalledWith(SOURCE, reference)
  })

  it('speak Chinese', () => {
    render(<HeaderCopyActions sessionId={SOURCE} t={key => zh[key]} copyId={vi.fn()} copyReference={vi.fn()} prefetch={vi.fn()} />)
    expect(screen.getAllByRole('button').map(button => button.getAttribute('aria-label'))).toEqual(['复制会话 ID', '复制引用'])
  })
})
