/**
 * Turns message references written in a draft as text into chips.
 * @module @wishp3/dsh-sessions/client/mention/written-chips
 */
import type { InputState } from '../contract.ts'
import type { CONVERSATION_APPEARANCE } from '../core/chip-ref.ts'
import { type WrittenReference, writtenReferences } from '../core/pasted-reference.ts'

/** What a chip inserted over a span carries. */
export interface ChipInsert {
  readonly source: string
  readonly ref: string
  readonly label: string
  readonly appearance: typeof CONVERSATION_APPEARANCE
  readonly clipboardText: string
}

/** The input machine of a session, as this reads and edits it. */
export interface WrittenChipsPort {
  state(sessionId: string): {
    readonly draft: string
    readonly draftRev: number
    readonly phase: InputState['phase']
    readonly occurrences: readonly Pick<InputState['occurrences'][number], 'offset' | 'length'>[]
  } | undefined
  /** Dispatches `slash/input-insert-reference`; true when applied. */
  insertReference(sessionId: string, request: { reference: ChipInsert; span: { start: number; end: number; draftRev: number } }): boolean
}

/** Most edits one pass makes, so a draft that keeps changing under it cannot hold it. */
const MAX_EDITS = 16

/** Turns the written references of a session's draft into chips. */
export function chipWrittenReferences(port: WrittenChipsPort, sessionId: string, chipOf: (written: WrittenReference) => ChipInsert): number {
  let chipped = 0
  for (let edit = 0; edit < MAX_EDITS; edit += 1) {
    const state = port.state(sessionId)
    if (state === undefined || state.phase !== 'plain') return chipped
    const [first] = writtenReferences(state.draft, state.occurrences)
    if (first === undefined) return chipped
    if (port.insertReference(sessionId, { reference: chipOf(first), span: { start: first.start, end: first.end, draftRev: state.draftRev } })) chipped += 1
  }
  return chipped
}
