/**
 * The `dsh-sessions` settings section: registered with the host's settings
 * service so it persists as the top-level `dsh-sessions:` key of
 * `$DSH_HOME/settings.yaml`, with the row's `config` as its base layer.
 * Without a settings service the row config is the effective value.
 * @module @wishp3/dsh-sessions/host/settings
 */
import type { Context } from '@deepseek-ai/cordis'
import { installSettingsSection, settingsNamespace } from '@deepseek-ai/dsh-settings'
import type z from '@deepseek-ai/schemastery'
import { Config } from '../config.ts'

/** The settings namespace, also the YAML key. */
export const SETTINGS_NAMESPACE = settingsNamespace('dsh-sessions')

const KEYS = new Set(Object.keys(Config({})))

/** A refused settings write; the message names the offending key. */
export class SettingsWriteError extends Error {
  override readonly name = 'SettingsWriteError'
  readonly status: 400 | 409 | 503

  constructor(message: string, status: 400 | 409 | 503) {
    super(message)
    this.status = status
  }
}

/** The plugin's live view of its settings. */
export interface SessionsSettings {
  /** The effective configuration now. */
  current(): Config
  /**
   * Validates a partial configuration and writes it through the settings service.
   * @param patch - keys to set.
   * @returns the effective configuration after the write.
   * @throws {SettingsWriteError} when the patch is invalid (400), the settings service refuses the write (409), or none is mounted (503).
   */
  update(patch: unknown): Promise<Config>
}

/**
 * Registers the section on the row's fiber.
 * @param ctx - the row's context.
 * @param config - the validated row configuration (the base layer).
 * @returns the live settings.
 */
export function installSessionsSettings(ctx: Context, config: Config): SessionsSettings {
  let source = (): Config => config
  installSettingsSection(ctx, SETTINGS_NAMESPACE, Config as z<Config>, config, {
    setSource: current => { source = current },
    onChange: () => {},
  })
  return {
    current: () => source(),
    async update(patch) {
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
        throw new SettingsWriteError('settings must be a JSON object', 400)
      }
      for (const key of Object.keys(patch)) {
        if (!KEYS.has(key)) throw new SettingsWriteError(`unknown settings key "${key}"`, 400)
      }
      try {
        Config({ ...source(), ...patch })
      } catch (error) {
        throw new SettingsWriteError(`invalid settings: ${(error as Error).message}`, 400)
      }
      const settings = ctx.get('settings')
      if (settings === undefined) throw new SettingsWriteError('no settings service is mounted', 503)
      try {
        await settings.update(SETTINGS_NAMESPACE, patch)
      } catch (error) {
        // The service refuses the write, e.g. while the stored section is invalid and unregistered.
        throw new SettingsWriteError(`settings were not written: ${(error as Error).message}`, 409)
      }
      return source()
    },
  }
}
