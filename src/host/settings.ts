/**
 * The `dsh-sessions` settings section.
 * @module @wishp3/dsh-sessions/host/settings
 */
import type { Context } from '@deepseek-ai/cordis'
import { installSettingsSection, settingsNamespace } from '@deepseek-ai/dsh-settings'
import type z from '@deepseek-ai/schemastery'
import { Config, settingRefusal } from '../config.ts'
import { DshSessionsError, messageOf } from './errors.ts'

export const SETTINGS_NAMESPACE = settingsNamespace('dsh-sessions')

const KEYS = new Set(Object.keys(Config({})))

/** The plugin's live view of its settings. */
export interface SessionsSettings {
  current(): Config
  /** Validates a partial configuration and writes it through the settings service. Throws {DshSessionsError} naming the offending key: `invalid-settings` for an invalid patch, `settings-refused` when the settings service refuses the write, `unavailable` when none is mounted. */
  update(patch: unknown): Promise<Config>
  /** Calls a listener whenever the effective configuration changes. */
  onChange(listener: () => void): () => void
}

/** Registers the section on the row's fiber. `config`: the validated row configuration (the base layer). */
export function installSessionsSettings(ctx: Context, config: Config): SessionsSettings {
  let source = (): Config => config
  const listeners = new Set<() => void>()
  installSettingsSection(ctx, SETTINGS_NAMESPACE, Config as z<Config>, config, {
    setSource: current => { source = current },
    onChange: () => {
      for (const listener of [...listeners]) {
        try {
          listener()
        } catch (error) {
          ctx.logger('dsh-sessions').warn('settings listener: %s', error)
        }
      }
    },
  })
  return {
    current: () => source(),
    onChange(listener) {
      listeners.add(listener)
      return () => { listeners.delete(listener) }
    },
    async update(patch) {
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
        throw new DshSessionsError('settings must be a JSON object', 'invalid-settings')
      }
      for (const [key, value] of Object.entries(patch)) {
        if (!KEYS.has(key)) throw new DshSessionsError(`unknown settings key "${key}"`, 'invalid-settings')
        // Every setting is a single value; anything nested is refused before the schema walks it.
        if (typeof value === 'object' && value !== null) throw new DshSessionsError(`settings key "${key}" must be a string, a number or a boolean`, 'invalid-settings')
        const refusal = settingRefusal(key as keyof Config, value)
        if (refusal !== undefined) throw new DshSessionsError(`settings key "${key}" ${refusal}`, 'invalid-settings')
      }
      try {
        Config({ ...source(), ...patch })
      } catch (error) {
        throw new DshSessionsError(`invalid settings: ${messageOf(error)}`, 'invalid-settings', { cause: error })
      }
      const settings = ctx.get('settings')
      if (settings === undefined) throw new DshSessionsError('no settings service is mounted', 'unavailable')
      try {
        await settings.update(SETTINGS_NAMESPACE, patch)
      } catch (error) {
        // The service refuses the write, e.g. while the stored section is invalid and unregistered.
        throw new DshSessionsError(`settings were not written: ${messageOf(error)}`, 'settings-refused', { cause: error })
      }
      return source()
    },
  }
}
