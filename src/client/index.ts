/**
 * `@wishp3/dsh-sessions`, browser half: the closure-factory bundle the web
 * shell loads for the `session-bridge` row.
 * @module @wishp3/dsh-sessions/client
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-locale/client'
import { en, NS, zh } from './locales.ts'

/** Browser services this half needs before it applies. */
export const inject = ['locale']

/**
 * Registers the plugin's dictionaries. Every registration is an effect, so
 * disposing the fiber removes it.
 * @param ctx - the browser row's context.
 */
export function apply(ctx: ClientContext): void {
  ctx.effect(() => ctx.locale.register(NS, { zh, en }), 'dsh-sessions: dictionaries')
}
