/**
 * Registers the reference dock in `conversation.input.dock`, bound to the routes.
 * @module @wishp3/dsh-sessions/client/references/register
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import { SessionId } from '@deepseek-ai/dsh-session/types'
import { createReferenceLookup } from '../copy/session-mention-lookup.ts'
import type { Outcome } from '../../shared/wire.ts'
import type { SessionsApi } from '../api.ts'
import type { ReferenceDockInjected } from '../contract.ts'
import { NS, type SessionsLookup } from '../locales.ts'
import { MENTION_SOURCE, sessionChipReference } from '../mention/source.ts'
import { ReferenceDock } from './ReferenceDock.tsx'
import { bindReadingSettings } from '../settings/section.ts'
import type {} from '@deepseek-ai/dsh-client-ui-settings/client'
import { decorateSentReferences } from './sent-references.ts'
import type { RefusedSends } from '../core/refused-sends.ts'

/** Milliseconds one outcomes request waits for news. */
const WAIT_MS = 20_000

/** Milliseconds before asking again after a failed request. */
const RETRY_MS = 3_000

/** Longest wait for the composer to settle before a rejected message is given back. */
const RESTORE_WAIT_MS = 15_000

/** Reports a session's outcomes as they arrive, from the newest one known at the first call on, until the signal ends. */
async function follow(api: SessionsApi, session: { readonly id: string; readonly seen: Map<string, number>; readonly report: (outcome: Outcome) => void }, signal: AbortSignal): Promise<void> {
  const { id: sessionId, seen, report } = session
  while (!signal.aborted) {
    try {
      const known = seen.get(sessionId)
      const response = await api.outcomes({ sessionId, after: known ?? 0, waitMs: known === undefined ? 0 : WAIT_MS }, signal)
      if (known !== undefined) for (const outcome of response.outcomes) report(outcome)
      seen.set(sessionId, response.last)
    } catch {
      // The next poll asks again from the same outcome; nothing is marked seen.
      if (signal.aborted) return
      await new Promise(resolve => setTimeout(resolve, RETRY_MS))
    }
  }
}

/** The reference dock feature, a child plugin of the browser half; it waits only for the services it uses. */
export const referenceDockFeature = {
  name: 'dsh-sessions-reference-dock',
  inject: ['slots', 'sessions', 'conversation', 'locale'],
  apply: registerReferenceDock,
}

/** Registers the dock on the feature's fiber. */
function registerReferenceDock(ctx: ClientContext, { api, t, refused }: { readonly api: SessionsApi; readonly t: SessionsLookup; readonly refused: RefusedSends }): void {
  const seen = new Map<string, number>()
  const wholeMentions = createReferenceLookup({ api })
  // The host's settings service is optional here: without it, the defaults, and the dock still works.
  const reading = bindReadingSettings(ctx.get('settingsScope')?.bind({ namespace: NS }))

  ctx.effect(() => ctx.slots.inject('conversation.input.dock', () => ctx.slots.register({
    name: 'conversation.input.dock',
    id: 'dsh-sessions-references',
    order: 10,
    locale: NS,
    inject: (sessionId): ReferenceDockInjected => ({
      source: MENTION_SOURCE,
      locale: () => ctx.locale.getLocale().active,
      measure: (chips, signal) =>
        api.preflight({ sessionId, text: chips.map(chip => chip.mention).join(' '), chips: chips.map(chip => chip.sessionId) }, signal),
      watch: (report, signal) => { void follow(api, { id: sessionId, seen, report }, signal) },
      onRefused: listener => refused.follow(sessionId, listener),
      open: cited => { ctx.sessions.open(SessionId(cited)) },
      messages: (cited, signal) => api.messages(sessionId, cited, signal),
      wholeMention: cited => wholeMentions.load(cited),
      replace: (occurrenceId, chip) => replaceChip(ctx, { sessionId, occurrenceId }, chip),
      readingSettings: () => reading.current(),
      onReadingSettings: listener => reading.subscribe(listener),
      restore: text => {
        const actx = ctx.sessions.scope(sessionId)
        if (actx === undefined) return
        const input = ctx.conversation.input.for(actx)
        // The outcome can arrive while the send that carried the message is still settling: wait for the
        // composer to be idle and empty, and give up if the user types something else first.
        const tryRestore = () => {
          const state = input.state.getSnapshot()
          if (state.phase !== 'plain') return false
          if (state.draft.trim() === '') input.setDraft(text)
          return true
        }
        if (tryRestore()) return
        const off = input.state.subscribe(() => {
          if (tryRestore()) stop()
        })
        const timer = setTimeout(() => { stop() }, RESTORE_WAIT_MS)
        function stop() {
          off()
          clearTimeout(timer)
        }
      },
    }),
  }, ReferenceDock)), 'dsh-sessions: reference dock')
  // Last, and contained: a shell without what the sent references follow costs them alone, never the dock.
  ctx.effect(() => {
    try {
      return decorateSentReferences({
        sessions: ctx.sessions,
        since: (sources, signal) => api.since(sources, signal),
        t,
        locale: () => ctx.locale.getLocale().active,
      })
    } catch (error) {
      console.warn('dsh-sessions: sent references cannot lead back here', error)
      return () => {}
    }
  }, 'dsh-sessions: sent references lead back')
}

/** Attempts at an edit whose draft revision moved under it. */
const ATTEMPTS = 5

/** Replaces one chip of a session's draft with a chip of this plugin citing `chip`: the chip comes out (`slash/input-consume-token` over its span) and the new one goes in at its place (`slash/input-insert-reference`), each guarded by the draft revision and retried when it moved. Returns true when the new chip is in. */
function replaceChip(ctx: ClientContext, at: { readonly sessionId: string; readonly occurrenceId: number }, chip: { readonly sessionId: string; readonly label: string; readonly mention: string }): boolean {
  const { sessionId, occurrenceId } = at
  const actx = ctx.sessions.scope(SessionId(sessionId))
  if (actx === undefined) return false
  const input = ctx.conversation.input.for(actx)
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const state = input.state.getSnapshot()
    const occurrence = state.occurrences.find(candidate => candidate.occurrenceId === occurrenceId)
    if (occurrence === undefined || state.phase !== 'plain') return false
    const span = { start: occurrence.offset, end: occurrence.offset + occurrence.length, draftRev: state.draftRev }
    if (actx.bail(actx, 'slash/input-consume-token', { guard: { kind: 'span', span } }) !== true) continue
    for (let insert = 0; insert < ATTEMPTS; insert += 1) {
      const next = input.state.getSnapshot()
      const at = Math.min(span.start, next.draft.length)
      const reference = sessionChipReference(sessionId, chip)
      if (actx.bail(actx, 'slash/input-insert-reference', { reference, span: { start: at, end: at, draftRev: next.draftRev } }) === true) return true
    }
    return false
  }
  return false
}
