/** Session age in words of the active locale. */
import { describe, expect, it } from 'vitest'
import { formatAge } from '../../../src/client/core/age.ts'

describe('session age', () => {
  const now = Date.UTC(2026, 10, 29, 12)
  it.each([
    [now - 5_000, 'en', '5 seconds ago'],
    [now - 5 * 60_000, 'en', '5 minutes ago'],
    [now - 3 * 3_600_000, 'en', '3 hours ago'],
    [now - 24 * 3_600_000, 'en', 'yesterday'],
    [now - 400 * 24 * 3_600_000, 'en', 'last year'],
    [now - 5 * 60_000, 'zh', '5分钟前'],
    [now - 48_000, 'zh', '48秒前'],
    [now - 2 * 3_600_000, 'zh-CN', '2小时前'],
    [now + 60_000, 'en', 'now'],
  ])('formats %d in %s as %s', (createdAt, locale, text) => {
    expect(formatAge(createdAt, now, locale)).toBe(text)
  })
})
