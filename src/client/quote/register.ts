/**
 * The quote feature: the chip source, the "Add to chat" button in `shell.overlay`, and the quote bar
 * in `conversation.input.dock`. It waits for the services it uses and for nothing else.
 * @module @wishp3/dsh-sessions/client/quote/register
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import type {} from '@deepseek-ai/dsh-client-ui-input-trigger/client'
import type {} from '@deepseek-ai/dsh-client-ui-layout/client'
import { SessionId } from '@deepseek-ai/dsh-session/types'
import type { QuoteBarInjected, SelectionButtonInjected } from '../contract.ts'
import { quoteText } from '../core/quote.ts'
import { NS, type SessionsLookup } from '../locales.ts'
import { composerTextArea } from '../official/markup.ts'
import { appendQuote, type ComposerPort, removeQuote } from './composer.ts'
import { QuoteBar } from './QuoteBar.tsx'
import { SelectionButton } from './SelectionButton.tsx'
import { createQuoteSource } from './source.ts'

/** The quote feature, a child plugin of the browser half. */
export const quotesFeature = {
  name: 'dsh-sessions-quotes',
  inject: ['inputTriggers', 'slots', 'sessions', 'conversation'],
  apply: registerQuotes,
}

/** Registers the quote feature on its fiber. `config`: the plugin's locale lookup, with `{n}` parameters. */
function registerQuotes(ctx: ClientContext, { t }: { readonly t: SessionsLookup }): void {
  const port = composerPort(ctx)
  ctx.effect(() => ctx.inputTriggers.registerSource(createQuoteSource()), 'dsh-sessions: quote chip source')
  const current = () => ctx.sessions.list.getSnapshot().current
  const button: SelectionButtonInjected = {
    canQuote: () => {
      const id = current()
      return id !== undefined && port.state(id)?.phase === 'plain'
    },
    quote: selected => {
      const id = current()
      const text = quoteText(selected, t('quote.truncated'))
      if (id === undefined || text === '') return
      const end = appendQuote(port, { sessionId: id, text }, n => t('quote.chip', { n: String(n) }))
      if (end !== undefined) focusComposer(end)
    },
  }
  ctx.effect(() => ctx.slots.inject('shell.overlay', () => ctx.slots.register({
    name: 'shell.overlay',
    id: 'dsh-sessions-quote-button',
    order: 100,
    label: 'Add to chat',
    locale: NS,
    inject: () => button,
  }, SelectionButton)), 'dsh-sessions: selection button')
  ctx.effect(() => ctx.slots.inject('conversation.input.dock', () => ctx.slots.register({
    name: 'conversation.input.dock',
    id: 'dsh-sessions-quotes',
    order: 20,
    locale: NS,
    inject: (sessionId): QuoteBarInjected => ({ remove: occurrenceId => { removeQuote(port, sessionId, occurrenceId) } }),
  }, QuoteBar)), 'dsh-sessions: quote bar')
}

/** The input machine of each session, through the conversation service and the session scope's events. */
function composerPort(ctx: ClientContext): ComposerPort {
  const scope = (sessionId: string) => ctx.sessions.scope(SessionId(sessionId))
  return {
    state(sessionId) {
      const actx = scope(sessionId)
      return actx === undefined ? undefined : ctx.conversation.input.for(actx).state.getSnapshot()
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

/** Focuses the composer with the caret at `offset`, after the input machine's render; unless the person typed before that frame, whose caret then stays where their keys left it (moving it would put their later keys before their earlier ones). */
export function focusComposer(offset: number): void {
  const typedIn = composerTextArea()
  let typed = false
  const onInput = (): void => {
    typed = true
  }
  typedIn?.addEventListener('input', onInput, { once: true })
  requestAnimationFrame(() => {
    typedIn?.removeEventListener('input', onInput)
    if (typed) return
    const textarea = composerTextArea()
    textarea?.focus()
    textarea?.setSelectionRange(offset, offset)
  })
}
