/**
 * The `@` feature: the source for files and scoped sessions, with the batch that checks a whole draft
 * once per send.
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
import type { MarkedText } from '../core/snippet.ts'
import { DraftPreflight } from './draft-preflight.ts'
import { createMentionSource, MENTION_SOURCE, sessionChipReference } from './source.ts'
import { openChipsOnClick } from './chip-open.ts'
import { chipWrittenReferences, type WrittenChipsPort } from './written-chips.ts'
import type { RefusedSends } from '../core/refused-sends.ts'

/** What the browser entry gives the feature. */
export interface MentionsConfig {
  /** The plugin's routes. */
  readonly api: SessionsApi
  readonly t: SessionsLookup
  /** Where a refused send is reported, for the reference dock. */
  readonly refused: RefusedSends
  /** The text a row shows for an excerpt, its matches highlighted or marked. */
  readonly excerpt: (snippet: MarkedText) => string
}

/** The `@` feature, a child plugin of the browser half. */
export const mentionsFeature = {
  name: 'dsh-sessions-mentions',
  inject: ['inputTriggers', 'sessions', 'conversation', 'remote', 'remote.fileReferences', 'locale'],
  apply: registerMentions,
}

/** Registers the source on the feature's fiber. */
function registerMentions(ctx: ClientContext, { api, t, refused, excerpt }: MentionsConfig): void {
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
    preflight: (draft, signal) => api.preflight(draft, signal),
    t,
  })
  const source = createMentionSource({
    listFiles: (sessionId, query, signal) => ctx.remote.fileReferences.list(SessionId(sessionId), query, signal)
      .then(result => (result.ok ? result.value : [])),
    api,
    checkDraft: (sessionId, signal) => batch.check(sessionId, signal).catch((error: unknown) => {
      refused.report(sessionId)
      throw error
    }),
    t,
    locale: () => ctx.locale.getLocale().active,
    now: Date.now,
    excerpt,
  })
  ctx.effect(() => ctx.inputTriggers.registerSource(source), 'dsh-sessions: @ source')
  // Contained: a shell without what the watch follows costs the chips of written references alone; they still resolve as text.
  ctx.effect(() => {
    try {
      return watchWrittenReferences(ctx)
    } catch (error) {
      console.warn('dsh-sessions: written message references stay text here', error)
      return () => {}
    }
  }, 'dsh-sessions: message references become chips')
  ctx.effect(() => openChipsOnClick({
    sessions: ctx.sessions,
    source: MENTION_SOURCE,
    occurrences(sessionId) {
      const actx = scope(sessionId)
      return actx === undefined ? [] : ctx.conversation.input.for(actx).state.getSnapshot().occurrences
    },
  }), 'dsh-sessions: a chip opens its source')
}

/** Follows the current session's draft and turns the message references written in it (pasted, usually) into chips of this source. */
function watchWrittenReferences(ctx: ClientContext): () => void {
  const scope = (sessionId: string) => ctx.sessions.scope(SessionId(sessionId))
  const port: WrittenChipsPort = {
    state(sessionId) {
      const actx = scope(sessionId)
      return actx === undefined ? undefined : ctx.conversation.input.for(actx).state.getSnapshot()
    },
    insertReference(sessionId, request) {
      const actx = scope(sessionId)
      return actx !== undefined && actx.bail(actx, 'slash/input-insert-reference', request) === true
    },
  }
  let watched: string | undefined
  let offDraft: (() => void) | undefined
  let pending = false
  const pass = (sessionId: string) => {
    if (pending) return
    pending = true
    // Once the edit that changed the draft has finished (a microtask, before the next paint): the machine is not re-entered from its own notification.
    queueMicrotask(() => {
      pending = false
      if (watched !== sessionId) return
      chipWrittenReferences(port, sessionId, written => sessionChipReference(sessionId, written))
    })
  }
  const follow = () => {
    const current = ctx.sessions.list.getSnapshot().current
    if (current === watched) return
    offDraft?.()
    offDraft = undefined
    watched = current
    const actx = current === undefined ? undefined : scope(current)
    if (current === undefined || actx === undefined) {
      watched = undefined
      return
    }
    offDraft = ctx.conversation.input.for(actx).state.subscribe(() => { pass(current) })
    pass(current)
  }
  const offList = ctx.sessions.list.subscribe(follow)
  follow()
  return () => {
    offList()
    offDraft?.()
    watched = undefined
  }
}
