/**
 * Configuration of the `dsh-sessions` plugin row.
 * @module @wishp3/dsh-sessions/config
 */
import z from '@deepseek-ai/schemastery'
import { DEFAULTS, FAILURE_MODES, REFERENCE_MODES, REFERENCE_SCOPES, type SettingValues } from './shared/settings-rules.ts'

export { DEFAULTS, FAILURE_MODES, type FailureMode, MAX_CANDIDATE_LIMIT, MAX_FREE_SPACE_MIB, REFERENCE_MODES, type ReferenceMode, REFERENCE_SCOPES, type ReferenceScope, settingRefusal } from './shared/settings-rules.ts'

/** Effective plugin configuration after defaults (the keys are described in `shared/settings-rules.ts`). */
export type Config = SettingValues

/** Schema validated by cordis at load; every key is optional on input, and an invalid value fails naming its key. */
export const Config: z<Partial<Config>, Config> = z.object({
  scope: z.union(REFERENCE_SCOPES).default(DEFAULTS.scope)
    .description('Reference only sessions of the current workspace, or every visible session.'),
  allowBareSessionIds: z.boolean().default(DEFAULTS.allowBareSessionIds)
    .description('Resolve bare session ids written in a message.'),
  allowPlainTitleMentions: z.boolean().default(DEFAULTS.allowPlainTitleMentions)
    .description('Resolve a typed @Title that names exactly one in-scope session.'),
  candidateLimit: z.natural().min(1).default(DEFAULTS.candidateLimit)
    .description('Maximum number of @ candidates returned for one query.'),
  failureMode: z.union(FAILURE_MODES).default(DEFAULTS.failureMode)
    .description('On a reference failure at send time: keep the text and continue, or reject the step.'),
  agentTools: z.boolean().default(DEFAULTS.agentTools)
    .description('Let the agent search and read the sessions it may reference (search_sessions, read_session).'),
  referenceMode: z.union(REFERENCE_MODES).default(DEFAULTS.referenceMode)
    .description('What a new session chip gives the model: its snapshot, or a pointer the agent reads on demand with read_session (needs agentTools).'),
  suggestRelated: z.boolean().default(DEFAULTS.suggestRelated)
    .description('Offer, by the composer, up to three past sessions in scope that the draft is about; nothing is sent unless clicked.'),
  indexFreeSpaceMiB: z.natural().default(DEFAULTS.indexFreeSpaceMiB)
    .description('Free disk space, in MiB, the content index leaves on its disk: below it, indexing pauses. 0: the larger of 1 GiB and 5 % of the disk.'),
})

