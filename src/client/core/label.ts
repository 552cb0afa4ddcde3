/**
 * Display clamping of user-given names (session titles) in places that hold a single line.
 * @module @wishp3/dsh-sessions/client/core/label
 */

export const CHIP_LABEL_MAX = 60

/** Longest title a blocked-send reason shows, in characters (code points). */
export const REASON_LABEL_MAX = 80

/** The text cut to at most `max` characters, ending in `…` when cut. Whole code points and whole grapheme clusters only: an emoji or a combined character is never split. `max`: the most characters shown, the ellipsis included. */
export function clampLabel(text: string, max: number): string {
  if (Array.from(text).length <= max) return text
  let out = ''
  let length = 0
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    const size = Array.from(segment).length
    if (length + size > max - 1) break
    out += segment
    length += size
  }
  return `${out.trimEnd()}…`
}

/** Most labels one sentence names; the rest are counted. */
export const LISTED_LABELS_MAX = 3

/** Labels named in one sentence as the locale lists them (`Kiwi plans and Plum notes`, `Kiwi plans和Plum notes`), each clamped to {@link REASON_LABEL_MAX}, at most {@link LISTED_LABELS_MAX} of them and then how many more. */
export function listedLabels(labels: readonly string[], locale: string, more: (n: number) => string): string {
  const shown = labels.slice(0, LISTED_LABELS_MAX).map(label => clampLabel(label, REASON_LABEL_MAX))
  const rest = labels.length - shown.length
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(rest > 0 ? [...shown, more(rest)] : shown)
}
