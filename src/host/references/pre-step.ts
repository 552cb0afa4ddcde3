/**
 * The `agent/pre-step` listener. Registered without `prepend` while the official session-reference
 * service registers its listener with `prepend: true`, so this one runs inside it.
 * @module @wishp3/dsh-sessions/host/references/pre-step
 */
import type { Context } from '@deepseek-ai/cordis'
import type { PreStepDecision } from '@deepseek-ai/dsh-agent'
import { freezeMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import type { SessionsSettings } from '../settings.ts'
import type { ReferenceTarget } from '../sessions/scope.ts'
import type { OutcomeLog } from './outcome-log.ts'
import { outcomeReference } from './reference-failure.ts'
import type { SendCheck } from './send-check.ts'

/** What the listener uses. */
export interface PreStepDependencies {
  readonly check: SendCheck
  readonly settings: SessionsSettings
  readonly outcomes: OutcomeLog
}

/** Failures of one message logged one by one; the rest are counted in one line. */
const LOGGED_FAILURES = 8

/** Registers the listener on the row's fiber. `deps`: the send check, the live settings and the outcome log. */
export function registerPreStep(ctx: Context, deps: PreStepDependencies): void {
  const logger = ctx.logger('dsh-sessions')
  ctx.on('agent/pre-step', async ({ agent, signal }, next): Promise<PreStepDecision> => {
    const decision = await next()
    if (decision.kind === 'reject') return decision
    const config = deps.settings.current()
    const target: ReferenceTarget = { id: agent.id, cwd: agent.session.header.cwd }
    const messages: UserMessage[] = []
    for (const message of decision.messages) {
      if (message.source.kind !== 'user') {
        messages.push(message)
        continue
      }
      const checked = await deps.check.message({ target: target, content: message.content }, config, signal)
      const left = checked.failures
      for (const failure of left.slice(0, LOGGED_FAILURES)) {
        logger.warn('session %s: reference %s failed (%s): %s', agent.id, failure.sessionId ?? '-', failure.code, failure.message)
      }
      if (left.length > LOGGED_FAILURES) logger.warn('session %s: %d more references failed', agent.id, left.length - LOGGED_FAILURES)
      if (left.length > 0 && config.failureMode === 'reject') {
        const typed = message.content.map(block => (block.type === 'text' ? block.text : '')).join('\n')
        deps.outcomes.record(agent.id, { kind: 'rejected', references: left.map(outcomeReference), text: typed })
        return { kind: 'reject' }
      }
      if (left.length > 0) deps.outcomes.record(agent.id, { kind: 'not-attached', references: left.map(outcomeReference) })
      // Ids that named nothing here go as text; the user is told how many, never which, in one line.
      if (checked.idsAsText > 0) deps.outcomes.record(agent.id, { kind: 'ids-as-text', references: [], count: checked.idsAsText })
      // A chip's session the text names too went once, as the chip cites it: said in one quiet line.
      if (checked.sameSource.length > 0) deps.outcomes.record(agent.id, { kind: 'same-source', references: [], labels: checked.sameSource.map(source => source.label ?? source.title ?? source.sessionId) })
      const prepared = checked.prepared
      const direct = prepared !== undefined
        ? freezeMessage({ ...message, content: prepared.content })
        : checked.changed ? freezeMessage({ ...message, content: checked.content }) : message
      messages.push(direct)
      if (prepared?.additionalContext !== undefined) messages.push(prepared.additionalContext)
    }
    return { kind: 'enter', messages }
  })
}
