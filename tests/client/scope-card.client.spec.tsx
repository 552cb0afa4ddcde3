// @vitest-environment jsdom
/** The Session references card: collapsed by default, the scope switch, localized read-only keys with their sources, and saving. */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useSyncExternalStore } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Config } from '../../src/config.ts'
import { en, zh } from '../../src/client/locales.ts'
import type { ScopeCardState } from '../../src/client/contract.ts'
import { ScopeCard } from '../../src/client/settings/ScopeCard.tsx'
import { bindSettingsSection } from '../../src/client/settings/section.ts'

vi.mock('@deepseek-ai/dsh-client-ui-primitives', () => ({ IconChevronDownOutline14: () => null }))

afterEach(cleanup)

/** A settings scope as the host's `settingsScope.bind` returns it, held in memory. */
function memoryScope(value: object | undefined, status: 'loading' | 'ready' | 'unavailable' = 'ready', user: object = {}) {
  let snapshot = { status, value, base: {}, user, revision: 1, writable: true, mode: 'host' as const }
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

function renderCard(scope: ReturnType<typeof memoryScope>, saveScope?: (scope: 'workspace' | 'all') => Promise<void>, dictionary: Record<keyof typeof en, string> = en) {
  const face = bindSettingsSection(scope)
  const source = face.hooks.scopeCard
  function useScopeCard<T>(selector: (state: ScopeCardState) => T): T {
    return selector(useSyncExternalStore(source.subscribe, source.getSnapshot))
  }
  return render(<ScopeCard t={key => dictionary[key]} useScopeCard={useScopeCard} saveScope={saveScope ?? face.saveScope} />)
}

/** Each read-only setting as [name, value, source]. */
function settingRows(): string[][] {
  return [...document.querySelectorAll('[data-dsh-sessions-setting]')].map(row => [
    row.querySelector('dt')!.textContent!,
    ...[...row.querySelectorAll('dd > span')].map(span => span.textContent!),
  ])
}

describe('the Session references card', () => {
  it('is collapsed by default and expands to the scope switch and the other keys, read-only', () => {
    renderCard(memoryScope(Config({ candidateLimit: 20 })))
    const header = screen.getByRole('button', { name: 'Expand: Session references' })
    expect(header.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('radio')).toBeNull()
    fireEvent.click(header)
    expect(screen.getByRole('button', { name: 'Collapse: Session references' }).getAttribute('aria-expanded')).toBe('true')
    expect((screen.getByRole('radio', { name: 'Current workspace only' }) as HTMLInputElement).checked).toBe(true)
    expect((screen.getByRole('radio', { name: 'All visible sessions' }) as HTMLInputElement).checked).toBe(false)
    expect(settingRows()).toEqual([
      ['Resolve bare session ids', 'On', 'row config'],
      ['Resolve typed @Title mentions', 'On', 'row config'],
      ['Candidates per @ query', '20', 'row config'],
      ['When a reference fails after sending', 'Keep the text and continue', 'row config'],
      ['Let the agent search sessions', 'On', 'row config'],
      ['Disk space the content index leaves free', 'Automatic (1 GiB or 5 % of the disk, whichever is larger)', 'row config'],
    ])
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('names each read-only key and value in the UI language and says which come from settings.yaml', () => {
    const value = Config({ allowBareSessionIds: false, failureMode: 'reject', candidateLimit: 7, agentTools: false, indexFreeSpaceMiB: 2048 })
    renderCard(memoryScope(value, 'ready', { failureMode: 'reject', scope: 'all', agentTools: false, indexFreeSpaceMiB: 2048 }))
    fireEvent.click(screen.getByRole('button', { name: 'Expand: Session references' }))
    expect(settingRows()).toEqual([
      ['Resolve bare session ids', 'Off', 'row config'],
      ['Resolve typed @Title mentions', 'On', 'row config'],
      ['Candidates per @ query', '7', 'row config'],
      ['When a reference fails after sending', 'Reject the send', 'settings.yaml'],
      ['Let the agent search sessions', 'Off', 'settings.yaml'],
      ['Disk space the content index leaves free', '2048 MiB', 'settings.yaml'],
    ])
    expect(screen.getByText(/^Other settings \(read-only here\)/).textContent).toContain('settings.yaml')
    cleanup()
    renderCard(memoryScope(value, 'ready', { allowBareSessionIds: false }), undefined, zh)
    fireEvent.click(screen.getByRole('button', { name: '展开: 会话引用' }))
    expect(settingRows()).toEqual([
      ['解析裸会话 ID', '关闭', 'settings.yaml'],
      ['解析手写的 @标题', '开启', '插件行配置'],
      ['每次 @ 查询的候选上限', '7', '插件行配置'],
      ['发送后引用失败时', '拒绝本次发送', '插件行配置'],
      ['允许智能体搜索会话', '关闭', '插件行配置'],
      ['内容索引为主机留出的磁盘空间', '2048 MiB', '插件行配置'],
    ])
    expect(document.body.textContent).not.toMatch(/allowBareSessionIds|failureMode|agentTools|indexFreeSpaceMiB|true|false/)
  })

  it('saves a new scope through the settings scope and shows the saved value', async () => {
    const scope = memoryScope(Config({}))
    renderCard(scope)
    fireEvent.click(screen.getByRole('button', { name: 'Expand: Session references' }))
    fireEvent.click(screen.getByRole('radio', { name: 'All visible sessions' }))
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement
    expect(save.disabled).toBe(false)
    await act(async () => { fireEvent.click(save) })
    expect(scope.set).toHaveBeenCalledWith('scope', 'all')
    expect(screen.getByRole('status').textContent).toBe('Saved')
    expect((screen.getByRole('radio', { name: 'All visible sessions' }) as HTMLInputElement).checked).toBe(true)
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('reports a failed save and keeps the choice', async () => {
    renderCard(memoryScope(Config({})), () => Promise.reject(new Error('refused')))
    fireEvent.click(screen.getByRole('button', { name: 'Expand: Session references' }))
    fireEvent.click(screen.getByRole('radio', { name: 'All visible sessions' }))
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Save' })) })
    expect(screen.getByRole('status').textContent).toBe('Save failed')
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
    expect(first).toEqual({ available: true, writable: true, value: Config({}), fromFile: new Set() })
  })
})
