// @vitest-environment jsdom
/** The browser entry: zh and en dictionaries in step, every registration an effect that disposing the row removes, and features that wait only for their own services. */
import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it, vi } from 'vitest'
import * as client from '../../src/client/index.ts'
import { en, NS, zh } from '../../src/client/locales.ts'

vi.mock('@deepseek-ai/dsh-client-ui-primitives', () => ({ IconChevronDownOutline14: () => null }))

// The vendored workspace browser runs only in the real host (tests/e2e/copy-session-id, workspace-parity).
const mountWorkspaceBrowser = vi.hoisted(() => vi.fn())
vi.mock('../../src/workspace-browser/mount.ts', () => ({ mountWorkspaceBrowser }))

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map(match => match[1]).sort()

describe('browser dictionaries', () => {
  it('have the same keys and placeholders in zh and en', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort())
    for (const key of Object.keys(zh) as (keyof typeof zh)[]) {
      expect(zh[key].trim(), key).not.toBe('')
      expect(en[key].trim(), key).not.toBe('')
      expect(placeholders(en[key]), key).toEqual(placeholders(zh[key]))
    }
  })

  it('are registered, with the @ sources, the reference dock, the settings card, the selection button, the quote bar and the header copy buttons, as effects that disposing the row removes', async () => {
    const disposed: string[] = []
    const disposer = (what: string) => () => { disposed.push(what) }
    const register = vi.fn(() => disposer('dictionaries'))
    const registerSource = vi.fn(() => disposer('source'))
    const slotRegister = vi.fn(() => disposer('slot'))
    const ctx = new Context()
    ctx.provide('locale', { register, bind: () => (key: string) => key, getLocale: () => ({ active: 'en' }) })
    ctx.provide('inputTriggers', { registerSource })
    ctx.provide('remote', { fileReferences: { list: vi.fn() } })
    ctx.provide('remote.fileReferences', {})
    ctx.provide('slots', { inject: (_name: string, mount: () => () => void) => mount(), register: slotRegister })
    ctx.provide('settingsScope', { bind: () => ({ getSnapshot: () => ({}), subscribe: () => () => {}, set: vi.fn(), unset: vi.fn() }) })
    ctx.provide('sessions', { list: { getSnapshot: () => ({}) }, scope: () => undefined })
    ctx.provide('conversation', { input: { for: vi.fn() } })
    ctx.provide('workspaces', {})
    ctx.provide('connection', {})
    const fiber = ctx.plugin(client as never, {} as never)
    await fiber
    expect(register).toHaveBeenCalledWith(NS, { zh, en })
    expect(registerSource.mock.calls.map(call => (call as unknown[])[0] as { name: string }).map(source => source.name)).toEqual(['dsh-sessions', 'dsh-sessions-quote'])
    expect(slotRegister.mock.calls.map(call => (call as unknown[])[0] as { name: string }).map(options => options.name)).toEqual(['conversation.input.dock', 'settings.plugin.item', 'shell.overlay', 'conversation.input.dock', 'conversation.input.dock', 'conversation.session.header.actions', 'conversation.chat.assistant-actions', 'conversation.session.header.actions', 'tool.call.toolview', 'tool.call.toolview'])
    expect(slotRegister).toHaveBeenCalledWith(expect.objectContaining({ name: 'conversation.input.dock', id: 'dsh-sessions-references', locale: NS }), expect.any(Function))
    expect(slotRegister).toHaveBeenCalledWith(expect.objectContaining({ name: 'settings.plugin.item', key: 'dsh-sessions', locale: NS }), expect.any(Function))
    expect(slotRegister).toHaveBeenCalledWith(expect.objectContaining({ name: 'conversation.session.header.actions', id: 'dsh-sessions-copy', locale: NS }), expect.any(Function))
    expect(slotRegister).toHaveBeenCalledWith(expect.objectContaining({ name: 'conversation.chat.assistant-actions', id: 'dsh-sessions-message-reference', locale: NS }), expect.any(Function))
    for (const key of ['search_sessions', 'read_session']) expect(slotRegister).toHaveBeenCalledWith(expect.objectContaining({ name: 'tool.call.toolview', key, locale: NS }), expect.any(Function))
    expect(mountWorkspaceBrowser).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({
      rowMenu: expect.objectContaining({ items: expect.any(Function), opening: expect.any(Function), select: expect.any(Function) }),
      sidebar: expect.objectContaining({ search: expect.any(Function), openResult: expect.any(Function), useList: expect.any(Function) }),
    }))
    expect(disposed).toEqual([])
    await fiber.dispose()
    expect(disposed.sort()).toEqual(['dictionaries', 'slot', 'slot', 'slot', 'slot', 'slot', 'slot', 'slot', 'slot', 'slot', 'slot', 'source', 'source'])
  })

  it('waits for locale alone; a missing service costs only the features that use it', async () => {
    const registerSource = vi.fn(() => () => {})
    const slotRegister = vi.fn(() => () => {})
    const ctx = new Context()
    ctx.provide('locale', { register: () => () => {}, bind: () => (key: string) => key, getLocale: () => ({ active: 'en' }) })
    ctx.provide('slots', { inject: (_name: string, mount: () => () => void) => mount(), register: slotRegister })
    ctx.provide('sessions', { list: { getSnapshot: () => ({}) }, scope: () => undefined })
    ctx.provide('conversation', { input: { for: vi.fn() } })
    expect(client.inject).toEqual(['locale'])
    const fiber = ctx.plugin(client as never, {} as never)
    await fiber
    // No inputTriggers: neither @ source nor the quotes. No settingsScope: no card. No remote: the @ source waits too.
    expect(registerSource).not.toHaveBeenCalled()
    expect(slotRegister.mock.calls.map(call => (call as unknown[])[0] as { name: string; id?: string }).map(options => options.id ?? options.name))
      .toEqual(['dsh-sessions-references', 'dsh-sessions-related', 'dsh-sessions-copy', 'dsh-sessions-message-reference', 'dsh-sessions-find', 'search_sessions', 'read_session'].map(id => (id.includes('_') ? 'tool.call.toolview' : id)))
    ctx.provide('inputTriggers', { registerSource })
    await new Promise(resolve => setImmediate(resolve))
    expect(registerSource.mock.calls.map(call => (call as unknown[])[0] as { name: string }).map(source => source.name)).toEqual(['dsh-sessions-quote'])
    await fiber.dispose()
  })
})
