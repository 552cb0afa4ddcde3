/**
 * The composer's mark on chips whose source cannot be attached.
 * @module @wishp3/dsh-sessions/client/core/failed-chips
 */

/** The style sheet marking the chips of some occurrences. `occurrenceIds`: the draft's occurrence ids of the failing chips. Returns the CSS text, empty when none fails. */
export function failedChipStyle(occurrenceIds: readonly number[]): string {
  const selectors = occurrenceIds
    .filter(id => Number.isSafeInteger(id))
    .map(id => `[data-decoration="chip"][data-occurrence="${id}"]`)
  if (selectors.length === 0) return ''
  return `${selectors.join(',\n')} {\n  color: var(--dsw-alias-state-error-primary);\n  text-decoration: underline wavy var(--dsw-alias-state-error-primary);\n  text-underline-offset: 3px;\n}\n`
}
