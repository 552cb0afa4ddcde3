/**
 * The composer's mark on chips whose source cannot be attached: a style
 * sheet that draws the host's chips of the given occurrences in the theme's
 * error colour with a wavy underline, the way the dock draws its row. The
 * host draws each chip as an element with `data-decoration="chip"` and its
 * occurrence id in `data-occurrence`; the real-host tests fail when it stops.
 * @module @wishp3/dsh-sessions/client/core/failed-chips
 */

/**
 * The style sheet marking the chips of some occurrences.
 * @param occurrenceIds - the draft's occurrence ids of the failing chips.
 * @returns the CSS text, empty when none fails.
 */
export function failedChipStyle(occurrenceIds: readonly number[]): string {
  const selectors = occurrenceIds
    .filter(id => Number.isSafeInteger(id))
    .map(id => `[data-decoration="chip"][data-occurrence="${id}"]`)
  if (selectors.length === 0) return ''
  return `${selectors.join(',\n')} {\n  color: var(--dsw-alias-state-error-primary);\n  text-decoration: underline wavy var(--dsw-alias-state-error-primary);\n  text-underline-offset: 3px;\n}\n`
}
