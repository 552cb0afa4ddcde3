/**
 * How long ago a session was created, in words of the active locale.
 * @module @wishp3/dsh-sessions/client/core/age
 */

const STEPS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60], ['minute', 60], ['hour', 24], ['day', 30], ['month', 12], ['year', Number.POSITIVE_INFINITY],
]

export function formatAge(createdAt: number, now: number, locale: string): string {
  let amount = Math.max(0, (now - createdAt) / 1000)
  // Chinese reads 48秒前 in the short style (the long one says 48秒钟前); the other units read alike in both.
  const style = locale.startsWith('zh') ? 'short' : 'long'
  for (const [unit, size] of STEPS) {
    if (amount < size) return new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style }).format(-Math.floor(amount), unit)
    amount /= size
  }
  return ''
}
