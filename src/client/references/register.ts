/**
 * Registers the reference dock in `conversation.input.dock`, bound to the
 * routes: it measures the draft's session chips and follows the session's
 * reference outcomes with one long-lived request at a time.
 * @module @wishp3/dsh-sessions/client/references/register
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import type { Outcome } from '../../shared/wire.ts'
import type { SessionsApi } from '../api.ts'
import type { ReferenceDockInjected } from '../contract.ts'
import { NS } from '../locales.ts'
import { MENTION_SOURCE } from '../mention/source.ts'
import { ReferenceDock } from './ReferenceDock.tsx'

/** Milliseconds one outcomes request waits for news. */
const WAIT_MS = 20_000

/** Milliseconds before asking again after a failed request. */
const RETRY_MS = 3_000

/** Longest wait for the composer to settle before a rejected message is given back. */
const RESTORE_WAIT_MS = 15_000

/**
 * Reports a session's outcomes as they arrive, from the newest one known at
 * the first call on, until the signal ends.
 */
async function follow(api: SessionsApi, sessionId: string, seen: Map<string, number>, report: (outcome: Outcome) => void, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    try {
      const known = seen.get(sessionId)
      const response = await api.outcomes(sessionId, known ?? 0, known === undefined ? 0 : WAIT_MS, signal)
      if (known !== undefined) for (const outcome of response.outcomes) report(outcome)
      seen.set(sessionId, response.last)
    } catch {
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

/**
 * Registers the dock on the feature's fiber.
 * @param ctx - the feature's context.
 * @param config - the plugin's routes.
 */
function registerReferenceDock(ctx: ClientContext, { api }: { readonly api: SessionsApi }): void {
  const seen = new Map<string, number>()
  ctx.effect(() => ctx.slots.inject('conversation.input.dock', () => ctx.slots.register({
    name: 'conversation.input.dock',
    id: 'dsh-sessions-references',
    order: 10,
    locale: NS,
    inject: (sessionId): ReferenceDockInjected => ({
      source: MENTION_SOURCE,
      locale: () => ctx.locale.getLocale().active,
      measure: (chips, signal) =>
        api.preflight(sessionId, chips.map(chip => chip.mention).join(' '), chips.map(chip => chip.sessionId), signal),
      watch: (report, signal) => { void follow(api, sessionId, seen, report, signal) },
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
}
