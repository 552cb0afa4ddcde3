/**
 * Registers the "Session references" card into `settings.plugin.item`.
 * @module @wishp3/dsh-sessions/client/settings/register
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-settings/client'
import type {} from '@deepseek-ai/dsh-client-ui-settings-plugins/client'
import { NS } from '../locales.ts'
import { ScopeCard } from './ScopeCard.tsx'
import { bindSettingsSection } from './section.ts'

/**
 * Registers the card on the row's fiber, keyed by the settings namespace.
 * @param ctx - the browser row's context.
 */
export function registerSettingsCard(ctx: ClientContext): void {
  const card = bindSettingsSection(ctx.settingsScope.bind({ namespace: NS }))
  ctx.effect(() => ctx.slots.inject('settings.plugin.item', () => ctx.slots.register({
    name: 'settings.plugin.item',
    key: NS,
    locale: NS,
    inject: () => card,
  }, ScopeCard)), 'dsh-sessions: settings card')
}
