/**
 * Registers the rows of the plugin's two model tools in the conversation: one `tool.call.toolview`
 * entry per tool name, as the host's own skill tool registers its row, with the session opener
 * injected.
 * @module @wishp3/dsh-sessions/client/tools/register
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import type {} from '@deepseek-ai/dsh-client-ui-tool/client'
import { SessionId } from '@deepseek-ai/dsh-session/types'
import type { SessionToolRowInjected } from '../contract.ts'
import { READ_SESSION_TOOL, SEARCH_SESSIONS_TOOL } from '../core/session-tool.ts'
import { NS } from '../locales.ts'
import { SessionToolRow } from './SessionToolRow.tsx'

/** The feature, a child plugin of the browser half. */
export const sessionToolsFeature = {
  name: 'dsh-sessions-tool-rows',
  inject: ['slots', 'sessions'],
  apply: registerSessionToolRows,
}

function registerSessionToolRows(ctx: ClientContext): void {
  const inject = (): SessionToolRowInjected => ({ openSession: sessionId => { ctx.sessions.open(SessionId(sessionId)) } })
  for (const key of [SEARCH_SESSIONS_TOOL, READ_SESSION_TOOL]) {
    ctx.effect(() => ctx.slots.inject('tool.call.toolview', () => ctx.slots.register({
      name: 'tool.call.toolview',
      key,
      locale: NS,
      inject,
    }, SessionToolRow)), `dsh-sessions: ${key} row`)
  }
}
