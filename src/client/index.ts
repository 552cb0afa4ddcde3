/**
 * `@wishp3/dsh-sessions`, browser half: the closure-factory bundle the web
 * shell loads for the `session-bridge` row. Registers the dictionaries, the
 * `@` source (files and scoped sessions), the settings card, the quote
 * feature (its chip source, the selection button and the quote bar), and the
 * vendored workspace browser with "Copy session ID" in its row menu.
 * @module @wishp3/dsh-sessions/client
 */
import type {} from '@deepseek-ai/dsh-api-remotes/client'
import type {} from '@deepseek-ai/dsh-client-locale/client'
import type { ClientContext, ISessions } from '@deepseek-ai/dsh-client-runtime/client'
import type { InputTriggerServiceContract } from '@deepseek-ai/dsh-client-ui-input-trigger/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import type {} from '@deepseek-ai/dsh-client-ui-layout/client'
import type {} from '@deepseek-ai/dsh-client-ui-settings/client'
import type {} from '@deepseek-ai/dsh-client-ui-settings-plugins/client'
import type { SessionId } from '@deepseek-ai/dsh-session'
import { createSessionsApi } from './api.ts'
import { en, NS, zh } from './locales.ts'
import { createMentionSource } from './mention/source.ts'
import { quoteText } from '../core/quote.ts'
import { appendQuote, type ComposerPort, type DraftState, removeQuote } from './quote/composer.ts'
import { QuoteBar } from './quote/QuoteBar.tsx'
import { SelectionButton } from './quote/SelectionButton.tsx'
import { createQuoteSource } from './quote/source.ts'
import { ScopeCard } from './settings/ScopeCard.tsx'
import { createScopeCardFace } from './settings/scope-card.ts'
import { mountVendoredWorkspace } from '../vendor/workspace/glue.ts'
import { createRowMenu } from '../vendor/workspace/row-menu.tsx'

/** Browser services this half needs before it applies. */
export const inject = ['locale', 'inputTriggers', 'remote', 'remote.fileReferences', 'slots', 'settingsScope', 'sessions', 'conversation', 'workspaces', 'connection']

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

  const sessions = ctx.get('sessions') as unknown as ISessions
  mountVendoredWorkspace(ctx, createRowMenu(t))
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
      return actx !== undefined && actx.bail(actx, 'slash/input-insert-reference', request as never) === true
    },
    consumeToken(sessionId, request) {
      const actx = scope(sessionId)
      return actx !== undefined && actx.bail(actx, 'slash/input-consume-token', request as never) === true
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
