/**
 * The `agent/pre-step` listener (H5–H7, D4). Registered without `prepend`
 * after the official session-reference service's prepended listener, so it
 * runs inside it: it post-processes the step's messages first, and the
 * official listener then finds no session URI left to prepare.
 *
 * For every direct user message: canonical mentions, bare ids and `@Title`
 * mentions resolve under the current scope; the message keeps its id and
 * source with readable text; exactly one snapshot (from the official
 * `prepare()`) follows a message that cites an in-scope session. Failures
 * follow `failureMode`: `passthrough` logs them and keeps the readable text
 * without the failed snapshot, `reject` rejects the step.
 * @module @wishp3/dsh-sessions/host/pre-step
 */
import type { Context } from '@deepseek-ai/cordis'
import type { PreStepDecision } from '@deepseek-ai/dsh-agent'
import { type ContentBlock, freezeMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import type { SessionReferenceInput } from '@deepseek-ai/dsh-session-reference'
import { codeOf, type ReferenceFailure, type ReferenceResolver } from './resolver.ts'
import type { ReferenceTarget } from './scope.ts'
import type { SessionsSettings } from './settings.ts'

/**
 * Registers the listener on the row's fiber.
 * @param ctx - the row's context.
 * @param resolver - the shared resolver.
 * @param settings - the live settings.
 */
export function registerPreStep(ctx: Context, resolver: ReferenceResolver, settings: SessionsSettings): void {
  const logger = ctx.logger('dsh-sessions')
  ctx.on('agent/pre-step', async ({ agent, signal }, next): Promise<PreStepDecision> => {
    const decision = await next()
    if (decision.kind === 'reject') return decision
    const config = settings.current()
    const target: ReferenceTarget = { id: agent.id, cwd: agent.session.header.cwd }
    const messages: UserMessage[] = []
    for (const message of decision.messages) {
      if (message.source.kind !== 'user') {
        messages.push(message)
        continue
      }
      const references: SessionReferenceInput[] = []
      const failures: ReferenceFailure[] = []
      let changed = false
      const content: ContentBlock[] = []
      for (const block of message.content) {
        if (block.type !== 'text') {
          content.push(block)
          continue
        }
        const resolved = await resolver.resolveText(target, block.text, config)
        changed ||= resolved.text !== block.text
        content.push({ ...block, text: resolved.text })
        failures.push(...resolved.failures)
        for (const reference of resolved.references) {
          if (!references.some(known => known.sessionId === reference.sessionId)) references.push(reference)
        }
      }
      let prepared: Awaited<ReturnType<ReferenceResolver['prepare']>> | undefined
      if (references.length > 0 && (failures.length === 0 || config.failureMode === 'passthrough')) {
        try {
          prepared = await resolver.prepare(target, content, references, signal)
        } catch (error) {
          failures.push({ code: codeOf(error, 'SESSION_REFERENCE_READ_FAILED'), message: (error as Error).message })
        }
      }
      for (const failure of failures) {
        logger.warn('session %s: reference %s failed (%s): %s', agent.id, failure.sessionId ?? '-', failure.code, failure.message)
      }
      if (failures.length > 0 && config.failureMode === 'reject') return { kind: 'reject' }
      const direct = prepared !== undefined
        ? freezeMessage({ ...message, content: prepared.content })
        : changed ? freezeMessage({ ...message, content }) : message
      messages.push(direct)
      if (prepared?.additionalContext !== undefined) messages.push(prepared.additionalContext)
    }
    return { kind: 'enter', messages }
  })
}
