/**
 * The `agent/pre-step` listener. Registered without `prepend` while the
 * official session-reference service registers its listener with `prepend:
 * true`, so this one runs inside it: it post-processes the step's messages
 * first, and the official listener then finds no session URI left to prepare.
 *
 * For every direct user message: canonical mentions, bare ids and `@Title`
 * mentions resolve under the current scope; the message keeps its id and
 * source with readable text; exactly one snapshot follows a message that
 * cites an in-scope session, holding every source that could be attached.
 * Failures follow `failureMode`: `passthrough` leaves out each source that
 * failed on its own (and every source past the limit of 3), keeps the rest,
 * and continues; `reject` rejects the step. Either way each failure goes to
 * the host logger and to the session's outcome log, which the browser shows
 * in the session the message was sent from; a rejected message's text goes
 * with it, so the browser can give it back to the user.
 * @module @wishp3/dsh-sessions/host/pre-step
 */
import type { Context } from '@deepseek-ai/cordis'
import type { PreStepDecision } from '@deepseek-ai/dsh-agent'
import { type ContentBlock, freezeMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import type { SessionReferenceInput } from '@deepseek-ai/dsh-session-reference'
import type { OutcomeReference } from '../shared/wire.ts'
import { messageOf } from './errors.ts'
import { codeOf, type ReferenceFailure } from './failures.ts'
import type { OutcomeLog } from './outcomes.ts'
import type { ScopedMentionResolver } from './mention-resolver.ts'
import type { ReferenceTarget } from './scope.ts'
import type { SessionsSettings } from './settings.ts'
import type { Attachment, SnapshotPreparer } from './snapshots.ts'

/** What the listener uses. */
export interface PreStepDependencies {
  readonly resolver: ScopedMentionResolver
  readonly preparer: SnapshotPreparer
  readonly settings: SessionsSettings
  readonly outcomes: OutcomeLog
}

/** Failures of one message logged one by one; the rest are counted in one line. */
const LOGGED_FAILURES = 8

function outcomeReference(failure: ReferenceFailure): OutcomeReference {
  return {
    ...(failure.sessionId === undefined ? {} : { sessionId: failure.sessionId }),
    label: failure.label ?? failure.sessionId ?? '',
    code: failure.code,
    message: failure.message,
  }
}

/**
 * Registers the listener on the row's fiber.
 * @param ctx - the row's context.
 * @param deps - the resolver, the snapshot preparer, the live settings and the outcome log.
 */
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
      const references: SessionReferenceInput[] = []
      const failures: ReferenceFailure[] = []
      const failedIds = new Set<string>()
      const referencedIds = new Set<string>()
      let changed = false
      const content: ContentBlock[] = []
      for (const block of message.content) {
        if (block.type !== 'text') {
          content.push(block)
          continue
        }
        const resolved = await deps.resolver.resolveText(target, block.text, config)
        changed ||= resolved.text !== block.text
        content.push({ ...block, text: resolved.text })
        for (const failure of resolved.failures) {
          if (failure.sessionId !== undefined && failedIds.has(failure.sessionId)) continue
          if (failure.sessionId !== undefined) failedIds.add(failure.sessionId)
          failures.push(failure)
        }
        for (const reference of resolved.references) {
          if (referencedIds.has(reference.sessionId)) continue
          referencedIds.add(reference.sessionId)
          references.push(reference)
        }
      }
      let attachment: Attachment = { attached: [], failures: [] }
      if (references.length > 0 && (failures.length === 0 || config.failureMode === 'passthrough')) {
        try {
          attachment = await deps.preparer.attach(target, content, references, signal)
        } catch (error) {
          const code = codeOf(error, 'SESSION_REFERENCE_READ_FAILED')
          const text = messageOf(error)
          attachment = { attached: [], failures: references.map(reference => ({ code, message: text, sessionId: reference.sessionId, label: reference.label ?? reference.sessionId })) }
        }
      }
      const left = [...failures, ...attachment.failures]
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
      const prepared = attachment.prepared
      const direct = prepared !== undefined
        ? freezeMessage({ ...message, content: prepared.content })
        : changed ? freezeMessage({ ...message, content }) : message
      messages.push(direct)
      if (prepared?.additionalContext !== undefined) messages.push(prepared.additionalContext)
    }
    return { kind: 'enter', messages }
  })
}
