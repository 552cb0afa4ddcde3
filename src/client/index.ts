/**
 * `@wishp3/dsh-sessions`, browser half: the closure-factory bundle the web
 * shell loads for the `session-bridge` row. Registers the dictionaries, the
 * `@` source (files and scoped sessions), the settings card, the quote
 * feature (its chip source, the selection button and the quote bar), the copy
 * actions (the session header's buttons and the copy toast), and the
 * vendored workspace browser with "Copy session ID" and "Copy reference" in
 * its row menu.
 * @module @wishp3/dsh-sessions/client
 */
import type {} from '@deepseek-ai/dsh-client-locale/client'
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import { mountWorkspaceBrowser } from '../workspace-browser/mount.ts'
import { createRowMenu } from '../workspace-browser/row-menu.tsx'
import { createSessionsApi } from './api.ts'
import { registerCopyActions } from './copy/register.ts'
import { en, NS, zh } from './locales.ts'
import { registerMentions } from './mention/register.ts'
import { registerQuotes } from './quote/register.ts'
import { registerReferenceDock } from './references/register.ts'
import { registerSettingsCard } from './settings/register.ts'

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
  const api = createSessionsApi((input, init) => fetch(input, init))
  registerMentions(ctx, api, t)
  registerReferenceDock(ctx, api)
  registerSettingsCard(ctx)
  registerQuotes(ctx, t)
  mountWorkspaceBrowser(ctx, createRowMenu(t, registerCopyActions(ctx, t)))
}
