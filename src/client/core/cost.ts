/**
 * How the reference dock words what a chip adds to the context.
 * @module @wishp3/dsh-sessions/client/core/cost
 */

/** A byte count as people write it: bytes (the word, with its plural) under 1 KB, then kilobytes with one decimal. */
export function formatSize(bytes: number, locale: string): string {
  if (bytes < 1000) return new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes)
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilobyte', unitDisplay: 'short', maximumFractionDigits: 1 }).format(bytes / 1000)
}

export function formatTokens(tokens: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(tokens)
}
