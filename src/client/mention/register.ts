/**
 * Registers the `@` source for files and scoped sessions.
 * @module @wishp3/dsh-sessions/client/mention/register
 */
import type {} from '@deepseek-ai/dsh-api-remotes/client'
import type {} from '@deepseek-ai/dsh-client-locale/client'
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type { InputTriggerServiceContract } from '@deepseek-ai/dsh-client-ui-input-trigger/client'
import type { SessionId } from '@deepseek-ai/dsh-session'
import { createSessionsApi } from '../api.ts'
import type { SessionsKey } from '../locales.ts'
import { createMentionSource } from './source.ts'

/**
 * Registers the source on the row's fiber.
 * @param ctx - the browser row's context.
 * @param t - the plugin's locale lookup.
 */
export function registerMentions(ctx: ClientContext, t: (key: SessionsKey) => string): void {
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
}
