/**
 * The `dsh-sessions` settings section as the card reads and writes it, through the host's settings
 * scope: a snapshot source for the card's selector hook, and the scope write.
 * @module @wishp3/dsh-sessions/client/settings/section
 */
import type { SettingsScope } from '@deepseek-ai/dsh-client-runtime/client'
import type { Config } from '../../config.ts'
import { DEFAULTS } from '../../shared/settings-rules.ts'
import type { ReadingSettings, ScopeCardInjected, ScopeCardState } from '../contract.ts'

/** The section the host resolved (defaults, row config, user layer), when it has the shape the card reads. */
function resolved(value: unknown): Config | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const scope = (value as { scope?: unknown }).scope
  return scope === 'workspace' || scope === 'all' ? value as Config : undefined
}

/** The keys the user layer (the `dsh-sessions` section of `settings.yaml`) sets: a key present there is an override, whatever its value. */
function userKeys(user: unknown): ReadonlySet<string> {
  return typeof user === 'object' && user !== null ? new Set(Object.keys(user)) : new Set()
}

/** Binds the card to the section. */
export function bindSettingsSection(scope: SettingsScope<unknown>): ScopeCardInjected {
  let source: unknown
  let state: ScopeCardState = { available: false, writable: false, value: undefined, fromFile: new Set(), base: undefined }
  const getSnapshot = (): ScopeCardState => {
    const snapshot = scope.getSnapshot()
    if (snapshot === source) return state
    source = snapshot
    const base = typeof snapshot.base === 'object' && snapshot.base !== null ? snapshot.base as Partial<Config> : undefined
    state = { available: snapshot.status === 'ready', writable: snapshot.writable, value: resolved(snapshot.value), fromFile: userKeys(snapshot.user), base }
    return state
  }
  return {
    hooks: { scopeCard: { getSnapshot, subscribe: listener => scope.subscribe(listener) } },
    save: async patch => {
      for (const [key, value] of Object.entries(patch)) await scope.set(key, value)
    },
  }
}

/** The settings the reference dock reads, from the same section as the card; without the host's settings service, the defaults. `scope`: the section, bound to the plugin's namespace; `undefined` when the host has none. */
export function bindReadingSettings(scope: SettingsScope<unknown> | undefined): { current(): ReadingSettings; subscribe(listener: () => void): () => void } {
  const defaults: ReadingSettings = { agentTools: DEFAULTS.agentTools, referenceMode: DEFAULTS.referenceMode, suggestRelated: DEFAULTS.suggestRelated }
  if (scope === undefined) return { current: () => defaults, subscribe: () => () => {} }
  const card = bindSettingsSection(scope).hooks.scopeCard
  // The same object while the values are the same, for a store hook.
  let last = defaults
  return {
    current: () => {
      const value = card.getSnapshot().value
      const agentTools = value?.agentTools ?? DEFAULTS.agentTools
      const referenceMode = value?.referenceMode ?? DEFAULTS.referenceMode
      const suggestRelated = value?.suggestRelated ?? DEFAULTS.suggestRelated
      if (last.agentTools !== agentTools || last.referenceMode !== referenceMode || last.suggestRelated !== suggestRelated) last = { agentTools, referenceMode, suggestRelated }
      return last
    },
    subscribe: listener => card.subscribe(listener),
  }
}
