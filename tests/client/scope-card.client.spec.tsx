// @vitest-environment jsdom
/** The Session references card: collapsed by default, every key edited, checked as the route checks it, saved together, each with where its value comes from. */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { type ReactNode, useSyncExternalStore } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Config } from '../../src/config.ts'
import { en, zh } from '../../src/client/locales.ts'
import type { ScopeCardState } from '../../src/client/contract.ts'
import { ScopeCard } from '../../src/client/settings/ScopeCard.tsx'
import { bindSettingsSection } from '../../src/client/settings/section.ts'

// The host's atoms as plain elements: the card's behaviour, not their look, is what this file checks.
vi.mock('@deepseek-ai/dsh-client-ui-primitives', () => ({
  IconChevronDownOutline14: () => null,
  Input: ({ icon: _icon, className, ...rest }: { icon?: unknown; className?: string } & Record<string, unknown>) => <span className={className}><input {...rest} /></span>,
  Button: ({ variant: _variant, size: _size, children, ...rest }: { variant?: string; size?: string; children?: ReactNode } & Record<string, unknown>) => <button type="button" {...rest}>{children}</button>,
}))

afterEach(cleanup)

/** A settings scope as the host's `settingsScope.bind` returns it, held in memory. */
function memoryScope(value: object | undefined, status: 'loading' | 'ready' | 'unavailable' = 'ready', user: object = {}, base: object = Config({})) {
  let snapshot = { status, value, base, user, revision: 1, writable: true, mode: 'host' as const }
  const listeners = new Set<() => void>()
  return {
    getSnapshot: () => snapshot,
    subscribe: (listener: () => void) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    set: vi.fn(async (field: string, next: unknown) => {
      snapshot = { ...snapshot, value: { ...(snapshot.value ?? {}), [field]: next }, revision: snapshot.revision + 1 }
      for (const listener of listeners) listener()
    }),
    unset: vi.fn(() => Promise.resolve()),
  }
}

function renderCard(scope: ReturnType<typeof memoryScope>, save?: (patch: object) => Promise<void>, dictionary: Record<keyof typeof en, string> = en) {
  const face = bindSettingsSection(scope)
  const source = face.hooks.scopeCard
  function useScopeCard<T>(selector: (state: ScopeCardState) => T): T {
    return selector(useSyncExternalStore(source.subscribe, source.getSnapshot))
  }
  const t = (key: keyof typeof en, params: Record<string, string> = {}) => dictionary[key].replace(/\{(\w+)\}/g, (match, name: string) => params[name] ?? match)
  return render(<ScopeCard t={t} useScopeCard={useScopeCard} save={save ?? face.save} />)
}

/** Each key as [name, value shown by its control, where it comes from]. */
function settingRows(): string[][] {
  return [...document.querySelectorAll<HTMLElement>('[data-dsh-sessions-setting]')].filter(row => row.tagName === 'DIV').map(row => {
    const control = row.querySelector<HTMLInputElement | HTMLSelectElement>('input, select')!
    const shown = control instanceof HTMLSelectElement ? control.selectedOptions[0]!.textContent! : control.type === 'checkbox' ? String((control as HTMLInputElement).checked) : control.value
    return [row.querySelector('dt label')!.textContent!, shown, row.querySelector('[data-dsh-sessions-source]')!.textContent!]
  })
}

const expand = (name = 'Expand: Session references') => { fireEvent.click(screen.getByRole('button', { name })) }

describe('the Session references card', () => {
  it('is collapsed by default and expands to every key, each editable, with where its value comes from', () => {
    renderCard(memoryScope(Config({ candidateLimit: 20 }), 'ready', {}, Config({ candidateLimit: 20 })))
    const header = screen.getByRole('button', { name: 'Expand: Session references' })
    expect(header.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('radio')).toBeNull()
    expand()
    expect(screen.getByRole('button', { name: 'Collapse: Session references' }).getAttribute('aria-expanded')).toBe('true')
    expect((screen.getByRole('radio', { name: 'Current workspace only' }) as HTMLInputElement).checked).toBe(true)
    expect(settingRows()).toEqual([
      ['Resolve bare session ids', 'true', 'plugin default'],
      ['Resolve typed @Title mentions', 'true', 'plugin default'],
      ['Let the agent search sessions', 'true', 'plugin default'],
      ['Suggest related sessions while drafting', 'true', 'plugin default'],
      ['When a reference fails after sending', 'Keep the text and continue', 'plugin default'],
      ['A new reference gives the model', 'The session\'s snapshot', 'plugin default'],
      ['Candidates per @ query', '20', 'set in the profile'],
      ['Disk space the content index leaves free', '0', 'plugin default'],
    ])
    expect(document.querySelectorAll('[data-dsh-sessions-card] input:disabled, [data-dsh-sessions-card] select:disabled')).toHaveLength(0)
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('says in the UI language which keys are set here, in the profile, or left at the default', () => {
    const value = Config({ allowBareSessionIds: false, failureMode: 'reject', candidateLimit: 7, agentTools: false, referenceMode: 'agent', indexFreeSpaceMiB: 2048 })
    renderCard(memoryScope(value, 'ready', { allowBareSessionIds: false }, Config({ candidateLimit: 7 })), undefined, zh)
    expand('展开: 会话引用')
    expect(settingRows()).toEqual([
      ['解析裸会话 ID', 'false', '在此设置'],
      ['解析手写的 @标题', 'true', '插件默认值'],
      ['允许智能体搜索会话', 'false', '插件默认值'],
      ['撰写时推荐相关会话', 'true', '插件默认值'],
      ['发送后引用失败时', '拒绝本次发送', '插件默认值'],
      ['新引用给模型的内容', '让智能体按需读取', '插件默认值'],
      ['每次 @ 查询的候选上限', '7', '在配置档中设置'],
      ['内容索引为宿主留出的磁盘空间', '2048', '插件默认值'],
    ])
    expect(document.body.textContent).toContain('settings.yaml 的 dsh-sessions 段')
    expect(document.body.textContent).not.toMatch(/allowBareSessionIds|failureMode|agentTools|suggestRelated|referenceMode|indexFreeSpaceMiB|true|false/)
  })

  it('saves every changed key together through the settings scope, and shows the saved values', async () => {
    const scope = memoryScope(Config({}))
    renderCard(scope)
    expand()
    fireEvent.click(screen.getByRole('radio', { name: 'All visible sessions' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Let the agent search sessions' }))
    fireEvent.change(screen.getByRole('combobox', { name: 'When a reference fails after sending' }), { target: { value: 'reject' } })
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Candidates per @ query' }), { target: { value: '120' } })
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Save' })) })
    expect(scope.set.mock.calls).toEqual([['scope', 'all'], ['agentTools', false], ['failureMode', 'reject'], ['candidateLimit', 120]])
    expect(screen.getByRole('status').textContent).toBe('Saved')
    expect((screen.getByRole('checkbox', { name: 'Let the agent search sessions' }) as HTMLInputElement).checked).toBe(false)
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('refuses a number the route would refuse, naming the key and the range, and writes nothing', async () => {
    const scope = memoryScope(Config({}))
    renderCard(scope)
    expand()
    for (const typed of ['0', '501', '2.5', '']) {
      fireEvent.change(screen.getByRole('spinbutton', { name: 'Candidates per @ query' }), { target: { value: typed } })
      await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Save' })) })
      expect(screen.getByRole('alert').textContent).toBe('“Candidates per @ query” must be a whole number from 1 to 500.')
    }
    expect(scope.set).not.toHaveBeenCalled()
  })

  it('reports a failed save and keeps the choice', async () => {
    renderCard(memoryScope(Config({})), () => Promise.reject(new Error('refused')))
    expand()
    fireEvent.click(screen.getByRole('radio', { name: 'All visible sessions' }))
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Save' })) })
    expect(screen.getByRole('alert').textContent).toBe('Save failed')
    expect((screen.getByRole('radio', { name: 'All visible sessions' }) as HTMLInputElement).checked).toBe(true)
  })

  it('renders nothing while the host does not serve the section or serves something else', () => {
    const { container } = renderCard(memoryScope(undefined, 'unavailable'))
    expect(container.innerHTML).toBe('')
    cleanup()
    const other = renderCard(memoryScope({ scope: 'galaxy' }))
    expect(other.container.innerHTML).toBe('')
  })

  it('keeps one snapshot object per settings revision', () => {
    const scope = memoryScope(Config({}))
    const face = bindSettingsSection(scope)
    const first = face.hooks.scopeCard.getSnapshot()
    expect(face.hooks.scopeCard.getSnapshot()).toBe(first)
    expect(first).toEqual({ available: true, writable: true, value: Config({}), fromFile: new Set(), base: Config({}) })
  })
})
