/**
 * `@wishp3/dsh-sessions`, browser half: the closure-factory bundle the web
 * shell loads for the `session-bridge` row. Registers the dictionaries, the
 * `@` source (files and scoped sessions) and the settings card.
 * @module @wishp3/dsh-sessions/client
 */
import type {} from '@deepseek-ai/dsh-api-remotes/client'
import type {} from '@deepseek-ai/dsh-client-locale/client'
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type { InputTriggerServiceContract } from '@deepseek-ai/dsh-client-ui-input-trigger/client'
import type {} from '@deepseek-ai/dsh-client-ui-settings/client'
import type {} from '@deepseek-ai/dsh-client-ui-settings-plugins/client'
import type { SessionId } from '@deepseek-ai/dsh-session'
import { createSessionsApi } from './api.ts'
import { en, NS, zh } from './locales.ts'
import { createMentionSource } from './mention/source.ts'
import { ScopeCard } from './settings/ScopeCard.tsx'
import { createScopeCardFace } from './settings/scope-card.ts'

/** Browser services this half needs before it applies. */
export const inject = ['locale', 'inputTriggers', 'remote', 'remote.fileReferences', 'slots', 'settingsScope']

/**
 * Registers the browser half's contributions; each is an effect, so disposing
 * the fiber removes it.
 * @param ctx - the browser row's context.
 */
export function apply(ctx: ClientContext): void {
  ctx.effect(() => ctx.locale.register(NS, { zh, en }), 'dsh-sessions: dictionaries')
  const t = ctx.locale.bind(NS)
  const source = createMentionSource({
    listFiles: (sessionId, query, signal) => ctx.remote.fileReferences.list(sessionId as SessionId, query, signal)
      .then(result => (result.ok ? result.value : [])),
    api: createSessionsApi((input, init) => fetch(input, init)),
    t,
    locale: () => ctx.locale.getLocale().active,
    now: Date.now,
  })
  const inputTriggers = ctx.get('inputTriggers') as InputTriggerServiceContract
  ctx.effect(() => inputTriggers.registerSource(source), 'dsh-sessions: @ source')
  const card = createScopeCardFace(ctx.settingsScope.bind({ namespace: NS }))
  ctx.effect(() => ctx.slots.inject('settings.plugin.item', () => ctx.slots.register({
    name: 'settings.plugin.item',
    key: NS,
    locale: NS,
    inject: () => card,
  } as never, ScopeCard as never)), 'dsh-sessions: settings card')
}
