/**
 * Registers the quote feature: the chip source, the "Add to chat" button in
 * `shell.overlay`, and the quote bar in `conversation.input.dock`.
 * @module @wishp3/dsh-sessions/client/quote/register
 */
import type { ClientContext, ISessions } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import type { InputTriggerServiceContract } from '@deepseek-ai/dsh-client-ui-input-trigger/client'
import type {} from '@deepseek-ai/dsh-client-ui-layout/client'
import type { SessionId } from '@deepseek-ai/dsh-session'
import { quoteText } from '../core/quote.ts'
import { NS, type SessionsKey } from '../locales.ts'
import { appendQuote, type ComposerPort, type DraftState, removeQuote } from './composer.ts'
import { QuoteBar } from './QuoteBar.tsx'
import { SelectionButton } from './SelectionButton.tsx'
import { createQuoteSource } from './source.ts'

/**
 * Registers the quote feature on the row's fiber.
 * @param ctx - the browser row's context.
 * @param t - the plugin's locale lookup, with `{n}` parameters.
 */
export function registerQuotes(ctx: ClientContext, t: (key: SessionsKey, params?: Record<string, string>) => string): void {
  const inputTriggers = ctx.get('inputTriggers') as InputTriggerServiceContract
  const sessions = ctx.get('sessions') as unknown as ISessions
  const port = composerPort(ctx, sessions)
  ctx.effect(() => inputTriggers.registerSource(createQuoteSource()), 'dsh-sessions: quote chip source')
  const current = () => sessions.list.getSnapshot().current
  ctx.effect(() => ctx.slots.inject('shell.overlay', () => ctx.slots.register({
    name: 'shell.overlay',
    id: 'dsh-sessions-quote-button',
    order: 100,
    label: 'Add to chat',
    locale: NS,
    inject: () => ({
      canQuote: () => {
        const id = current()
        return id !== undefined && port.state(id)?.phase === 'plain'
      },
      quote: (selected: string) => {
        const id = current()
        const text = quoteText(selected, t('quote.truncated'))
        if (id === undefined || text === '') return
        const end = appendQuote(port, id, text, n => t('quote.chip', { n: String(n) }))
        if (end !== undefined) focusComposer(end)
      },
    }),
  } as never, SelectionButton as never)), 'dsh-sessions: selection button')
  ctx.effect(() => ctx.slots.inject('conversation.input.dock', () => ctx.slots.register({
    name: 'conversation.input.dock',
    id: 'dsh-sessions-quotes',
    order: 20,
    locale: NS,
    inject: (sessionId: string) => ({ remove: (occurrenceId: number) => { removeQuote(port, sessionId, occurrenceId) } }),
  } as never, QuoteBar as never)), 'dsh-sessions: quote bar')
}

/** The input machine of each session, through the conversation service and the session scope's events. */
function composerPort(ctx: ClientContext, sessions: ISessions): ComposerPort {
  const scope = (sessionId: string) => sessions.scope(sessionId as SessionId)
  return {
    state(sessionId) {
      const actx = scope(sessionId)
      return actx === undefined ? undefined : ctx.conversation.input.for(actx).state.getSnapshot() as unknown as DraftState
    },
    insertReference(sessionId, request) {
      const actx = scope(sessionId)
      return actx !== undefined && actx.bail(actx, 'slash/input-insert-reference', request) === true
    },
    insertText(sessionId, request) {
      const actx = scope(sessionId)
      return actx !== undefined && actx.bail(actx, 'slash/input-insert-text', request) === true
    },
    consumeToken(sessionId, request) {
      const actx = scope(sessionId)
      return actx !== undefined && actx.bail(actx, 'slash/input-consume-token', request) === true
    },
  }
}

/** Focuses the composer with the caret at `offset`, after the input machine's render. */
function focusComposer(offset: number): void {
  requestAnimationFrame(() => {
    const textarea = document.querySelector<HTMLTextAreaElement>('[data-composer-card] textarea')
    textarea?.focus()
    textarea?.setSelectionRange(offset, offset)
  })
}
