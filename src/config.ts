/**
 * Configuration of the `dsh-sessions` plugin row: the reference scope, the
 * mention forms the pre-step resolves, the candidate cap, the failure mode
 * and whether the agent gets the session tools.
 * @module @wishp3/dsh-sessions/config
 */
import z from '@deepseek-ai/schemastery'

/** Which persisted sessions a target session may reference. */
export type ReferenceScope = 'workspace' | 'all'

/** What the pre-step does with a reference that fails after the send was accepted. */
export type FailureMode = 'passthrough' | 'reject'

/** Effective plugin configuration after defaults. */
export interface Config {
  /** `workspace`: only sessions whose cwd equals the target's cwd; `all`: every persisted session. */
  scope: ReferenceScope
  /** Resolve bare `session-…` ids written in a message. */
  allowBareSessionIds: boolean
  /** Resolve a typed `@Title` that names exactly one in-scope session. */
  allowPlainTitleMentions: boolean
  /** Upper bound on the candidates one `@` query returns. */
  candidateLimit: number
  /** `passthrough` keeps the readable text and continues; `reject` rejects the step. */
  failureMode: FailureMode
  /** Offer the model the `search_sessions` and `read_session` tools, under the same scope. */
  agentTools: boolean
}

/** Schema validated by cordis at load; every key is optional on input, and an invalid value fails naming its key. */
export const Config: z<Partial<Config>, Config> = z.object({
  scope: z.union(['workspace', 'all'] as const).default('workspace')
    .description('Reference only sessions of the current workspace, or every visible session.'),
  allowBareSessionIds: z.boolean().default(true)
    .description('Resolve bare session ids written in a message.'),
  allowPlainTitleMentions: z.boolean().default(true)
    .description('Resolve a typed @Title that names exactly one in-scope session.'),
  candidateLimit: z.natural().min(1).default(50)
    .description('Maximum number of @ candidates returned for one query.'),
  failureMode: z.union(['passthrough', 'reject'] as const).default('passthrough')
    .description('On a reference failure at send time: keep the text and continue, or reject the step.'),
  agentTools: z.boolean().default(true)
    .description('Let the agent search and read the sessions it may reference (search_sessions, read_session).'),
})
