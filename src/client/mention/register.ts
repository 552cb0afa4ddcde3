/**
 * The `@` feature: the source for files and scoped sessions, with the batch
 * that checks a whole draft once per send. It waits for the services it
 * uses and for nothing else, so a missing one costs this feature alone.
 * @module @wishp3/dsh-sessions/client/mention/register
 */
import type {} from '@deepseek-ai/dsh-api-remotes/client'
import type {} from '@deepseek-ai/dsh-client-locale/client'
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import type {} from '@deepseek-ai/dsh-client-ui-input-trigger/client'
import { SessionId } from '@deepseek-ai/dsh-session/types'
import type { SessionsApi } from '../api.ts'
import type { SessionsLookup } from '../locales.ts'
import { DraftPreflight } from './draft-preflight.ts'
import { createMentionSource, MENTION_SOURCE } from './source.ts'

/** What the browser entry gives the feature. */
export interface MentionsConfig {
  /** The plugin's routes. */
  readonly api: SessionsApi
  readonly t: SessionsLookup
}

/** The `@` feature, a child plugin of the browser half. */
export const mentionsFeature = {
  name: 'dsh-sessions-mentions',
  inject: ['inputTriggers', 'sessions', 'conversation', 'remote', 'remote.fileReferences', 'locale'],
  apply: registerMentions,
}

/**
 * Registers the source on the feature's fiber.
 * @param ctx - the feature's context.
 * @param config - the routes and the locale lookup.
 */
function registerMentions(ctx: ClientContext, { api, t }: MentionsConfig): void {
  const scope = (sessionId: string) => ctx.sessions.scope(SessionId(sessionId))
  const batch = new DraftPreflight({
    source: MENTION_SOURCE,
    draft(sessionId) {
      const actx = scope(sessionId)
      return actx === undefined ? undefined : ctx.conversation.input.for(actx).state.getSnapshot()
    },
    serializeOther(sessionId, chip, signal) {
      const actx = scope(sessionId)
      if (actx === undefined) return Promise.resolve(chip.clipboardText)
      return ctx.inputTriggers.sessionOf(actx).serializeReference(chip.source, chip.ref, signal)
    },
    preflight: (sessionId, text, chips, signal) => api.preflight(sessionId, text, chips, signal),
    t,
  })
  const source = createMentionSource({
    listFiles: (sessionId, query, signal) => ctx.remote.fileReferences.list(SessionId(sessionId), query, signal)
      .then(result => (result.ok ? result.value : [])),
    api,
    checkDraft: (sessionId, signal) => batch.check(sessionId, signal),
    t,
    locale: () => ctx.locale.getLocale().active,
    now: Date.now,
  })
  ctx.effect(() => ctx.inputTriggers.registerSource(source), 'dsh-sessions: @ source')
}
