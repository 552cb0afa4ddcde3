import { describe, expect, it } from 'vitest'
import { decodeChipRef, encodeChipRef } from '../../src/core/chip-ref.ts'
import { formatAge } from '../../src/core/age.ts'

describe('chip refs', () => {
  it('round-trips session and file refs, labels with ], \\, newlines and astral characters included', () => {
    const session = { kind: 'session', target: 'session-t', source: 'session-s', label: 'a]b\\c\n🍐', mention: '@[a\\]b\\\\c\n🍐](dsh-session:abc)' } as const
    expect(decodeChipRef(encodeChipRef(session))).toEqual(session)
    expect(decodeChipRef(encodeChipRef({ kind: 'file', mention: '@"with space.md"' }))).toEqual({ kind: 'file', mention: '@"with space.md"' })
  })

  it.each(['', 'not json', 'null', '[]', '{"kind":"session","target":"t"}', '{"kind":"file"}', '{"kind":"file","mention":""}', '{"kind":"other","mention":"x"}'])(
    'refuses %j', value => {
      expect(decodeChipRef(value)).toBeUndefined()
    },
  )
})

describe('session age', () => {
  const now = Date.UTC(2026, 10, 29, 12)
  it.each([
    [now - 5_000, 'en', '5 seconds ago'],
    [now - 5 * 60_000, 'en', '5 minutes ago'],
    [now - 3 * 3_600_000, 'en', '3 hours ago'],
    [now - 24 * 3_600_000, 'en', 'yesterday'],
    [now - 400 * 24 * 3_600_000, 'en', 'last year'],
    [now - 5 * 60_000, 'zh', '5分钟前'],
    [now + 60_000, 'en', 'now'],
  ])('formats %d in %s as %s', (createdAt, locale, text) => {
    expect(formatAge(createdAt, now, locale)).toBe(text)
  })
})
