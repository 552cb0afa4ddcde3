/**
 * Quote chips in a session's draft, through the input machine's own events.
 * @module @wishp3/dsh-sessions/client/quote/composer
 */
import type { InputState, QuoteChip } from '../contract.ts'
import { CONVERSATION_APPEARANCE } from '../core/chip-ref.ts'
import { encodeQuoteRef, nextQuoteNumber, QUOTE_SOURCE } from '../core/quote.ts'
import { quoteChipText } from './source.ts'

/** The part of the input machine's state the quote edits read. */
export type DraftState = Pick<InputState, 'draft' | 'draftRev' | 'phase'> & { readonly occurrences: readonly QuoteChip[] }

/** A draft range guarded by the revision it was read at. */
export interface DraftSpan {
  readonly start: number
  readonly end: number
  readonly draftRev: number
}

/** What the composer half reads and dispatches, per session. */
export interface ComposerPort {
  /** The session's input state, when the session has one. */
  state(sessionId: string): DraftState | undefined
  /** Dispatches `slash/input-insert-reference`; true when applied. */
  insertReference(sessionId: string, request: { reference: { source: string; ref: string; label: string; appearance: typeof CONVERSATION_APPEARANCE; clipboardText: string }; span: DraftSpan }): boolean
  /** Dispatches `slash/input-insert-text`; true when applied. */
  insertText(sessionId: string, request: { text: string; span: DraftSpan }): boolean
  /** Dispatches `slash/input-consume-token`; true when applied. */
  consumeToken(sessionId: string, request: { guard: { kind: 'span'; span: DraftSpan } }): boolean
}

const ATTEMPTS = 5

/** The quote chips of a draft, in draft order. */
export function quoteOccurrences<C extends { readonly source: string }>(state: { readonly occurrences: readonly C[] }): C[] {
  return state.occurrences.filter(occurrence => occurrence.source === QUOTE_SOURCE)
}

/** Runs `step` against fresh state until it reports done (applied, or nothing to do) or the attempts run out; false when the draft stops accepting edits. */
function retried(port: ComposerPort, sessionId: string, step: (state: DraftState) => boolean): boolean {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const state = port.state(sessionId)
    if (state === undefined || state.phase !== 'plain') return false
    if (step(state)) return true
  }
  return false
}

/** Appends a quote chip at the end of the draft, on a line of its own. `text`: the quote text (already trimmed and truncated). `label`: the chip label for a number (`Quote N`). Returns the draft length after the insertion, or `undefined` when the draft does not accept it. */
export function appendQuote(port: ComposerPort, quote: { readonly sessionId: string; readonly text: string }, label: (n: number) => string): number | undefined {
  const { sessionId, text } = quote
  const lineStart = retried(port, sessionId, state => {
    const end = state.draft.length
    if (end === 0 || state.draft.endsWith('\n')) return true
    return port.insertText(sessionId, { text: '\n', span: { start: end, end, draftRev: state.draftRev } })
  })
  if (!lineStart) return undefined
  let chipEnd = -1
  const inserted = retried(port, sessionId, state => {
    const end = state.draft.length
    const n = nextQuoteNumber(quoteOccurrences(state).map(occurrence => occurrence.ref))
    const ref = encodeQuoteRef({ text, n })
    const reference = { source: QUOTE_SOURCE, ref, label: label(n), appearance: CONVERSATION_APPEARANCE, clipboardText: quoteChipText(ref) }
    if (!port.insertReference(sessionId, { reference, span: { start: end, end, draftRev: state.draftRev } })) return false
    const chip = port.state(sessionId)?.occurrences.find(occurrence => occurrence.ref === ref && occurrence.offset === end)
    chipEnd = chip === undefined ? -1 : chip.offset + chip.length
    return true
  })
  if (!inserted) return undefined
  // The machine keeps a space after the chip; that space becomes the line break that ends the chip's line.
  retried(port, sessionId, state => {
    if (chipEnd < 0 || state.draft[chipEnd] === '\n') return true
    const end = state.draft[chipEnd] === ' ' ? chipEnd + 1 : chipEnd
    return port.insertText(sessionId, { text: '\n', span: { start: chipEnd, end, draftRev: state.draftRev } })
  })
  return port.state(sessionId)?.draft.length
}

/** Whether removing `[start, end)` leaves the machine an edit it reads as exactly that range. The machine recovers the edit from the text before and after (longest common prefix first), so the removed text's first character must differ from the character after it; otherwise the recovered range slides right, into a chip that follows. */
function exactRemoval(draft: string, start: number, end: number): boolean {
  return start < end && (end === draft.length || draft[start] !== draft[end])
}

/** Removes one quote chip, with the line break or space after it when that keeps every other chip intact. */
export function removeQuote(port: ComposerPort, sessionId: string, occurrenceId: number): boolean {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const state = port.state(sessionId)
    const occurrence = state?.occurrences.find(candidate => candidate.occurrenceId === occurrenceId)
    if (state === undefined || occurrence === undefined || (state.phase !== 'plain' && state.phase !== 'claimed')) return false
    const { draft } = state
    const start = occurrence.offset
    const end = start + occurrence.length
    const spans: [number, number][] = []
    if (draft[end] === '\n' || draft[end] === ' ') spans.push([start, end + 1])
    spans.push([start, end])
    if (start > 0) spans.push([start - 1, end])
    const [from, to] = spans.find(([a, b]) => exactRemoval(draft, a, b)) ?? [start, end]
    if (port.consumeToken(sessionId, { guard: { kind: 'span', span: { start: from, end: to, draftRev: state.draftRev } } })) return true
  }
  return false
}
