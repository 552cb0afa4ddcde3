/**
 * Quote chips in a session's draft (Q2, Q3), through the input machine's own
 * events: insertion at the end of the draft with `slash/input-insert-reference`
 * and removal with `slash/input-consume-token`, both guarded by the draft
 * revision; a revision that moved under the request is read again and the
 * request retried.
 * @module @wishp3/dsh-sessions/client/quote/composer
 */
import { QUOTE_SOURCE, encodeQuoteRef } from '../../core/quote.ts'
import { quoteChipText } from './source.ts'

/** The part of the input machine's state this module reads. */
export interface DraftState {
  readonly draft: string
  readonly draftRev: number
  readonly phase: string
  readonly occurrences: readonly QuoteOccurrence[]
}

/** An occurrence (chip) of the draft. */
export interface QuoteOccurrence {
  readonly occurrenceId: number
  readonly source: string
  readonly ref: string
  readonly offset: number
  readonly length: number
  readonly label: string
}

/** What the composer half reads and dispatches, per session. */
export interface ComposerPort {
  /** The session's input state, when the session has one. */
  state(sessionId: string): DraftState | undefined
  /** Dispatches `slash/input-insert-reference`; true when applied. */
  insertReference(sessionId: string, request: { reference: object; span: { start: number; end: number; draftRev: number } }): boolean
  /** Dispatches `slash/input-consume-token`; true when applied. */
  consumeToken(sessionId: string, request: { guard: { kind: 'span'; span: { start: number; end: number; draftRev: number } } }): boolean
}

const ATTEMPTS = 5

/**
 * The quote chips of a draft, in draft order.
 * @param state - the input state.
 * @returns its `dsh-sessions-quote` occurrences.
 */
export function quoteOccurrences(state: Pick<DraftState, 'occurrences'>): QuoteOccurrence[] {
  return state.occurrences.filter(occurrence => occurrence.source === QUOTE_SOURCE)
}

/**
 * Appends a quote chip at the end of the draft.
 * @param port - the session's input machine.
 * @param sessionId - the session.
 * @param text - the quote text (already trimmed and truncated).
 * @param label - the chip label for its number in the draft (`Quote N`).
 * @returns the draft length after the insertion, or `undefined` when the draft does not accept it.
 */
export function appendQuote(port: ComposerPort, sessionId: string, text: string, label: (n: number) => string): number | undefined {
  const ref = encodeQuoteRef(text)
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const state = port.state(sessionId)
    if (state === undefined || state.phase !== 'plain') return undefined
    const end = state.draft.length
    const reference = {
      source: QUOTE_SOURCE,
      ref,
      label: label(quoteOccurrences(state).length + 1),
      clipboardText: quoteChipText(ref),
    }
    if (port.insertReference(sessionId, { reference, span: { start: end, end, draftRev: state.draftRev } })) {
      return port.state(sessionId)?.draft.length
    }
  }
  return undefined
}

/**
 * Removes one quote chip with the gap space after it (kept when another chip
 * follows, so that chip survives).
 * @param port - the session's input machine.
 * @param sessionId - the session.
 * @param occurrenceId - the chip to remove.
 * @returns true when removed.
 */
export function removeQuote(port: ComposerPort, sessionId: string, occurrenceId: number): boolean {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const state = port.state(sessionId)
    const occurrence = state?.occurrences.find(candidate => candidate.occurrenceId === occurrenceId)
    if (state === undefined || occurrence === undefined || (state.phase !== 'plain' && state.phase !== 'claimed')) return false
    const end = occurrence.offset + occurrence.length
    // The gap space goes too, unless another chip starts right after it: the
    // machine drops every chip the span touches, boundaries included.
    const gap = state.draft[end] === ' ' && !state.occurrences.some(other => other.offset === end + 1)
    const span = { start: occurrence.offset, end: gap ? end + 1 : end, draftRev: state.draftRev }
    if (port.consumeToken(sessionId, { guard: { kind: 'span', span } })) return true
  }
  return false
}
