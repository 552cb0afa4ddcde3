// @vitest-environment jsdom
/** The browser half on the shell's own SlotRegistry, LocaleRuntime and InputTriggerService (the published rc.8 modules): dictionaries through the real locale service, every entry accepted into its declared slot with its face, features that wait for missing services, and teardown that removes everything. */
import { Context } from '@deepseek-ai/cordis'
import type { SessionId } from '@deepseek-ai/dsh-client-runtime/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as client from '../../src/client/index.ts'
import type { ReferenceDockInjected, ScopeCardInjected } from '../../src/client/contract.ts'
import { en, NS, zh } from '../../src/client/locales.ts'
import { loadShellModules } from './shell-modules.ts'

const primitives = vi.hoisted(() => ({
  IconChevronDownOutline14: () => null, IconCopyOutline16: () => null, IconLinkOutline16: () => null,
  IconCheckOutline16: () => null, IconWarningOutline16: () => null,
}))
vi.mock('@deepseek-ai/dsh-client-ui-primitives', () => primitives)

// The patched workspace browser needs the whole sidebar; the real-host tests run it (copy-session-id, workspace-parity).
const mountWorkspaceBrowser = vi.hoisted(() => vi.fn())
vi.mock('../../src/workspace-browser/mount.ts', () => ({ mountWorkspaceBrowser }))

const shell = loadShellModules(primitives)
const sid = (id: string) => id as SessionId

/** Every bench made by a test; each is torn down after it, so no follower of the page outlives its test. */
const benches: Context[] = []
afterEach(async () => {
  for (const ctx of benches.splice(0)) await ctx.registry.delete(client)
})

/** A context with the shell's services: the real slot registry with the seats the plugin uses declared, the real locale and input-trigger services, and stand-ins for the rest. */
async function bench(options: { without?: readonly string[] } = {}) {
  const ctx = new Context()
  benches.push(ctx)
  await ctx.plugin(shell.runtime.SlotRegistry).await()
  const slots = ctx.get('slots')!
  // Stand-in for the shell's layout, conversation and settings entries: declare the seats without their owners.
  slots.register({
    name: 'root',
    children: {
      'shell.overlay': { kind: 'list', scope: 'root' },
      'settings.plugin.item': { kind: 'keyed', scope: 'root' },
      'conversation.input.dock': { kind: 'list', scope: 'session' },
      'conversation.input.overlay': { kind: 'list', scope: 'session' },
      'conversation.session.header.actions': { kind: 'list', scope: 'session' },
    },
  } as never, () => null)
  const scope = shell.runtime.createScope(ctx, sid('session-a'))
  ctx.provide('sessions', {
    scope: (id: SessionId) => (id === sid('session-a') ? scope.ctx : undefined),
    scopeOf: (c: Context) => shell.runtime.scopeOf(c),
    list: { getSnapshot: () => ({ current: sid('session-a'), byId: {} }), subscribe: () => () => {} },
    // The host's answer for a session that has no view bound yet.
    binding: () => undefined,
  })
  const locale = new shell.locale.LocaleRuntime(ctx)
  locale.setLocale('en')
  ctx.provide('locale', locale)
  const stand: Record<string, unknown> = {
    conversation: { input: { for: () => ({ state: { getSnapshot: () => ({ draft: '', draftRev: 1, phase: 'plain', occurrences: [] }), subscribe: () => () => {} } }) } },
    remote: { fileReferences: { list: () => Promise.resolve({ ok: true, value: [] }) } },
    'remote.fileReferences': {},
    settingsScope: { bind: () => ({ getSnapshot: () => ({ status: 'loading' }), subscribe: () => () => {}, set: vi.fn(), unset: vi.fn() }) },
  }
  for (const [name, service] of Object.entries(stand)) if (!options.without?.includes(name)) ctx.provide(name, service)
  if (!options.without?.includes('inputTriggers')) {
    await ctx.plugin({ inject: [...shell.inputTrigger.inject], apply: shell.inputTrigger.apply }).await()
  }
  return { ctx, slots, locale }
}

const SEATS = ['conversation.input.dock', 'shell.overlay', 'settings.plugin.item', 'conversation.session.header.actions'] as const
const ids = (entries: readonly { options: { id?: string; key?: string } }[]) => entries.map(entry => entry.options.id ?? entry.options.key)

describe('the browser half on the shell\'s own services', () => {
  it('registers its zh and en dictionaries with the real locale runtime', async () => {
    const { ctx, locale } = await bench()
    await ctx.plugin(client).await()
    const t = locale.bind(NS)
    expect(t('quote.add')).toBe(en['quote.add'])
    expect(t('error.outOfScope', { label: 'Orchard plans' })).toBe(en['error.outOfScope'].replace('{label}', 'Orchard plans'))
    locale.setLocale('zh')
    expect(t('quote.add')).toBe(zh['quote.add'])
    expect(t('copy.reference.done')).toBe(zh['copy.reference.done'])
  })

  it('puts every entry into its declared slot with the dsh-sessions locale seat, and its @ sources into the real input-trigger service', async () => {
    const { ctx, slots } = await bench()
    await ctx.plugin(client).await()
    expect(ids(slots.entries('conversation.input.dock'))).toEqual(expect.arrayContaining(['dsh-sessions-references', 'dsh-sessions-quotes']))
    expect(ids(slots.entries('shell.overlay'))).toEqual(['dsh-sessions-quote-button'])
    expect(ids(slots.entries('settings.plugin.item'))).toEqual(['dsh-sessions'])
    expect(ids(slots.entries('conversation.session.header.actions'))).toEqual(['dsh-sessions-find', 'dsh-sessions-copy'])
    for (const name of SEATS) {
      for (const entry of slots.entries(name).filter(entry => String(entry.options.id ?? entry.options.key).startsWith('dsh-sessions'))) expect(entry.locale).toBe(NS)
    }
    const inputTriggers = ctx.get('inputTriggers')!
    const probe = { trigger: '@' as const, candidates: () => Promise.resolve([]), onPick: () => undefined }
    expect(() => inputTriggers.registerSource({ ...probe, name: 'dsh-sessions' })).toThrow()
    expect(() => inputTriggers.registerSource({ ...probe, name: 'dsh-sessions-quote' })).toThrow()
    expect(mountWorkspaceBrowser).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({
      rowMenu: expect.objectContaining({ items: expect.any(Function), select: expect.any(Function) }),
      sidebar: expect.objectContaining({ search: expect.any(Function), openResult: expect.any(Function), useList: expect.any(Function) }),
    }))
  })

  it('hands each entry the face its contract declares', async () => {
    const { ctx, slots } = await bench()
    await ctx.plugin(client).await()
    const dock = slots.entries('conversation.input.dock').find(entry => entry.options.id === 'dsh-sessions-references')!
    const face = (dock.inject as unknown as (sessionId: SessionId) => ReferenceDockInjected)(sid('session-a'))
    expect(face.source).toBe('dsh-sessions')
    expect(face.locale()).toBe('en')
    const card = slots.entries('settings.plugin.item')[0]!
    const cardFace = (card.inject as unknown as () => ScopeCardInjected)()
    expect(cardFace.hooks.scopeCard.getSnapshot()).toMatchObject({ available: false })
  })

  it('starts a feature whose service arrives late, and costs only that feature while it is missing', async () => {
    const { ctx, slots } = await bench({ without: ['settingsScope'] })
    await ctx.plugin(client).await()
    expect(slots.entries('settings.plugin.item')).toHaveLength(0)
    expect(ids(slots.entries('conversation.session.header.actions'))).toEqual(['dsh-sessions-find', 'dsh-sessions-copy'])
    expect(ids(slots.entries('shell.overlay'))).toEqual(['dsh-sessions-quote-button'])
    ctx.provide('settingsScope', { bind: () => ({ getSnapshot: () => ({ status: 'loading' }), subscribe: () => () => {}, set: vi.fn(), unset: vi.fn() }) })
    await new Promise(resolve => setImmediate(resolve))
    expect(ids(slots.entries('settings.plugin.item'))).toEqual(['dsh-sessions'])
  })

  it('removes every entry, source and dictionary when the row is disposed', async () => {
    const { ctx, slots, locale } = await bench()
    const fiber = ctx.plugin(client)
    await fiber.await()
    await fiber.dispose()
    for (const name of SEATS) {
      expect(ids(slots.entries(name)).filter(id => String(id).startsWith('dsh-sessions')), name).toEqual([])
    }
    const inputTriggers = ctx.get('inputTriggers')!
    const probe = { trigger: '@' as const, candidates: () => Promise.resolve([]), onPick: () => undefined }
    expect(() => inputTriggers.registerSource({ ...probe, name: 'dsh-sessions' })()).not.toThrow()
    expect(locale.bind(NS)('quote.add')).toBe('quote.add')
  })
})
