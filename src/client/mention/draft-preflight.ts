/**
 * One preflight per send. The input machine serializes every chip of a draft at once; each session
 * chip's codec asks this batch, which checks the whole draft in one request.
 * @module @wishp3/dsh-sessions/client/mention/draft-preflight
 */
import type { PreflightResponse } from '../../shared/wire.ts'
import type { DraftChip, InputState } from '../contract.ts'
import { decodeChipRef } from '../core/chip-ref.ts'
import { clampLabel, REASON_LABEL_MAX } from '../core/label.ts'
import type { SessionsKey } from '../locales.ts'
import { failureKey } from './failure.ts'

/** A chip of the draft being sent, as the batch reads it. */
export type SentChip = Pick<DraftChip, 'source' | 'ref' | 'offset' | 'length' | 'clipboardText'>

/** The draft being sent. */
export type DraftSnapshot = Pick<InputState, 'draft' | 'draftRev'> & { readonly occurrences: readonly SentChip[] }

/** What the batch reads. */
export interface DraftPreflightDeps {
  /** The name chips of this plugin's `@` source carry. */
  readonly source: string
  /** The draft of a session now. */
  draft(sessionId: string): DraftSnapshot | undefined
  /** Another source's model form of one of its chips. */
  serializeOther(sessionId: string, chip: SentChip, signal: AbortSignal): Promise<string>
  /** Asks the host to check a whole draft (`POST /dsh-sessions/preflight`). */
  preflight(draft: { readonly sessionId: string; readonly text: string; readonly chips: readonly string[] }, signal: AbortSignal): Promise<PreflightResponse>
  /** Text of a key in the active locale. */
  t(key: SessionsKey, params?: Record<string, string>): string
}

/** The text the input machine will send for a draft: each chip's model form over its display range, trimmed. `forms`: the model form of each chip, in chip order. */
export function sentText(snapshot: DraftSnapshot, forms: readonly string[]): string {
  let out = ''
  let cursor = 0
  snapshot.occurrences.forEach((chip, n) => {
    out += snapshot.draft.slice(cursor, chip.offset) + forms[n]
    cursor = chip.offset + chip.length
  })
  return (out + snapshot.draft.slice(cursor)).trim()
}

/** The batch of one plugin instance. */
export class DraftPreflight {
  private readonly pending = new Map<string, { rev: number; check: Promise<void> }>()
  private readonly deps: DraftPreflightDeps

  constructor(deps: DraftPreflightDeps) {
    this.deps = deps
  }

  /** Checks the draft of a session once per revision. Returns resolves when the send may go on. Throws {Error} with the reason, in the user's language, when the send is blocked. */
  check(sessionId: string, signal: AbortSignal): Promise<void> {
    const snapshot = this.deps.draft(sessionId)
    if (snapshot === undefined) return Promise.reject(new Error(this.deps.t('error.unavailable')))
    const known = this.pending.get(sessionId)
    if (known !== undefined && known.rev === snapshot.draftRev) return known.check
    const check = this.run(sessionId, snapshot, signal)
    const entry = { rev: snapshot.draftRev, check }
    this.pending.set(sessionId, entry)
    const settle = () => {
      if (this.pending.get(sessionId) === entry) this.pending.delete(sessionId)
    }
    check.then(settle, settle)
    return check
  }

  private async run(sessionId: string, snapshot: DraftSnapshot, signal: AbortSignal): Promise<void> {
    const chips: string[] = []
    const forms = await Promise.all(snapshot.occurrences.map(async chip => {
      if (chip.source !== this.deps.source) return this.deps.serializeOther(sessionId, chip, signal)
      const ref = decodeChipRef(chip.ref)
      if (ref === undefined) throw new Error(this.deps.t('error.invalid'))
      if (ref.kind === 'session' && !chips.includes(ref.citedSessionId)) chips.push(ref.citedSessionId)
      return ref.mention
    }))
    let result: PreflightResponse
    try {
      result = await this.deps.preflight({ sessionId, text: sentText(snapshot, forms), chips }, signal)
    } catch {
      // The send is held with a sentence the person sees; the draft is kept.
      throw new Error(this.deps.t('error.unavailable'))
    }
    if (!result.ok) {
      throw new Error(this.deps.t(failureKey(result.code), { label: clampLabel(result.label ?? result.sessionId ?? '', REASON_LABEL_MAX) }))
    }
  }
}
