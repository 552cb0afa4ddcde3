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

/** The settings card feature, a child plugin of the browser half; it waits only for the services it uses. */
export const settingsCardFeature = {
  name: 'dsh-sessions-settings-card',
  inject: ['slots', 'settingsScope'],
  apply: registerSettingsCard,
}

/** Registers the card on the feature's fiber, keyed by the settings namespace. */
function registerSettingsCard(ctx: ClientContext): void {
  const card = bindSettingsSection(ctx.settingsScope.bind({ namespace: NS }))
  ctx.effect(() => ctx.slots.inject('settings.plugin.item', () => ctx.slots.register({
    name: 'settings.plugin.item',
    key: NS,
    locale: NS,
    inject: () => card,
  }, ScopeCard)), 'dsh-sessions: settings card')
}
