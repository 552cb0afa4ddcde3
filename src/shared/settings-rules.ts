/**
 * The settings' values without their schema, for both halves.
 * @module @wishp3/dsh-sessions/shared/settings-rules
 */

/** Which persisted sessions a target session may reference. */
export const REFERENCE_SCOPES = ['workspace', 'all'] as const
export type ReferenceScope = (typeof REFERENCE_SCOPES)[number]

/** What the pre-step does with a reference that fails after the send was accepted. */
export const FAILURE_MODES = ['passthrough', 'reject'] as const
export type FailureMode = (typeof FAILURE_MODES)[number]

/** What a new session chip gives the model: the session's snapshot, or a pointer the agent reads on demand. */
export const REFERENCE_MODES = ['snapshot', 'agent'] as const
export type ReferenceMode = (typeof REFERENCE_MODES)[number]

export interface SettingValues {
  /** `workspace`: only sessions whose cwd equals the target's cwd; `all`: every persisted session. */
  scope: ReferenceScope
  allowBareSessionIds: boolean
  allowPlainTitleMentions: boolean
  candidateLimit: number
  /** `passthrough` keeps the readable text and continues; `reject` rejects the step. */
  failureMode: FailureMode
  /** Offer the model the `search_sessions` and `read_session` tools, under the same scope. */
  agentTools: boolean
  /** What a new session chip gives the model: `snapshot`, or `agent` (a pointer it reads with `read_session`, while `agentTools` is on). */
  referenceMode: ReferenceMode
  /** Offer, by the composer, past sessions in scope that the draft is about. */
  suggestRelated: boolean
  /** Free space, in MiB, the content index leaves on its disk; 0: the larger of 1 GiB and 5 % of the disk. */
  indexFreeSpaceMiB: number
}

/** Each key's value when neither the profile's row nor `settings.yaml` sets it. */
export const DEFAULTS: SettingValues = {
  scope: 'workspace',
  allowBareSessionIds: true,
  allowPlainTitleMentions: true,
  candidateLimit: 50,
  failureMode: 'passthrough',
  agentTools: true,
  referenceMode: 'snapshot',
  suggestRelated: true,
  indexFreeSpaceMiB: 0,
}

/** Largest `candidateLimit` a settings write may set (the `@` menu shows a screenful; the tools cap their own). */
export const MAX_CANDIDATE_LIMIT = 500

/** Largest `indexFreeSpaceMiB` a settings write may set: 1 PiB. */
export const MAX_FREE_SPACE_MIB = 2 ** 30

/** Why a value may not be written to a settings key, or `undefined` when it may: each key takes only its own type and range (`null`, which the schema reads as "the default", is not a value). */
export function settingRefusal(key: keyof SettingValues, value: unknown): string | undefined {
  const oneOf = (values: readonly string[]): string | undefined =>
    values.includes(value as string) ? undefined : `must be ${values.map(name => `"${name}"`).join(' or ')}`
  const natural = (max: number, min: number): string | undefined =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? undefined : `must be a whole number from ${min} to ${max}`
  switch (key) {
    case 'scope':
      return oneOf(REFERENCE_SCOPES)
    case 'failureMode':
      return oneOf(FAILURE_MODES)
    case 'referenceMode':
      return oneOf(REFERENCE_MODES)
    case 'allowBareSessionIds':
    case 'allowPlainTitleMentions':
    case 'agentTools':
    case 'suggestRelated':
      return typeof value === 'boolean' ? undefined : 'must be true or false'
    case 'candidateLimit':
      return natural(MAX_CANDIDATE_LIMIT, 1)
    case 'indexFreeSpaceMiB':
      return natural(MAX_FREE_SPACE_MIB, 0)
  }
}
