/** Chip refs of the @ source: round trips, and refusal of anything that is not one. */
import { describe, expect, it } from 'vitest'
import { decodeChipRef, encodeChipRef } from '../../../src/client/core/chip-ref.ts'

describe('chip refs', () => {
  it('round-trips session and file refs, labels with ], \\, newlines and astral characters included', () => {
    const session = { kind: 'session', citingSessionId: 'session-t', citedSessionId: 'session-s', label: 'a]b\\c\n🍐', mention: '@[a\\]b\\\\c\n🍐](dsh-session:abc)' } as const
    expect(decodeChipRef(encodeChipRef(session))).toEqual(session)
    expect(decodeChipRef(encodeChipRef({ kind: 'file', mention: '@"with space.md"' }))).toEqual({ kind: 'file', mention: '@"with space.md"' })
  })

  it.each(['', 'not json', 'null', '[]', '{"kind":"session","citingSessionId":"t"}', '{"kind":"file"}', '{"kind":"file","mention":""}', '{"kind":"other","mention":"x"}'])(
    'refuses %j', value => {
      expect(decodeChipRef(value)).toBeUndefined()
    },
  )
})
