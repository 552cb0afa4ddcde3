/**
 * The related-sessions feature: a row in `conversation.input.dock` offering, while a draft takes shape,
 * up to three past sessions it is about; one click attaches one as a chip of the `@` menu's kind (so it
 * takes the default form, `referenceMode`); nothing reaches the model unless clicked.
 * @module @wishp3/dsh-sessions/client/related/register
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import type {} from '@deepseek-ai/dsh-client-ui-settings/client'
import { SessionId } from '@deepseek-ai/dsh-session/types'
import type { Snippet } from '../../shared/wire.ts'
import type { SessionsApi } from '../api.ts'
import type { RelatedRowInjected } from '../contract.ts'
import { NS } from '../locales.ts'
import { MENTION_SOURCE, sessionChipReference } from '../mention/source.ts'
import { bindReadingSettings } from '../settings/section.ts'
import { RelatedRow } from './RelatedRow.tsx'

/** Dock order: after the reference dock and the quote bar. */
const DOCK_ORDER = 30

/** What the browser entry gives the feature. */
export interface RelatedConfig {
  readonly api: SessionsApi
  /** The text an excerpt shows, its matches highlighted where drawn. */
  readonly highlight: (snippet: Snippet) => string
}

/** The feature, a child plugin of the browser half; it waits only for the services it uses. */
export const relatedFeature = {
  name: 'dsh-sessions-related',
  inject: ['slots', 'sessions', 'conversation', 'locale'],
  apply: registerRelated,
}

function registerRelated(ctx: ClientContext, { api, highlight }: RelatedConfig): void {
  const reading = bindReadingSettings(ctx.get('settingsScope')?.bind({ namespace: NS }))
  ctx.effect(() => ctx.slots.inject('conversation.input.dock', () => ctx.slots.register({
    name: 'conversation.input.dock',
    id: 'dsh-sessions-related',
    order: DOCK_ORDER,
    locale: NS,
    inject: (sessionId): RelatedRowInjected => ({
      source: MENTION_SOURCE,
      locale: () => ctx.locale.getLocale().active,
      ask: (text, except, signal) => api.related({ sessionId, text, except }, signal),
      attach: session => {
        const actx = ctx.sessions.scope(SessionId(sessionId))
        if (actx === undefined) return false
        const state = ctx.conversation.input.for(actx).state.getSnapshot()
        if (state.phase !== 'plain') return false
        const at = state.draft.length
        return actx.bail(actx, 'slash/input-insert-reference', { reference: sessionChipReference(sessionId, session), span: { start: at, end: at, draftRev: state.draftRev } }) === true
      },
      excerpt: highlight,
      readingSettings: () => reading.current(),
      onReadingSettings: listener => reading.subscribe(listener),
    }),
  }, RelatedRow)), 'dsh-sessions: related sessions')
}
