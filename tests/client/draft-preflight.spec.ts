/** One preflight per send: the whole draft, chips and typed references together, checked once per draft revision. */
import { describe, expect, it, vi } from 'vitest'
import { en, type SessionsKey } from '../../src/client/locales.ts'
import { DraftPreflight, type DraftSnapshot, sentText } from '../../src/client/mention/draft-preflight.ts'
import { encodeChipRef } from '../../src/client/core/chip-ref.ts'
import type { PreflightResponse } from '../../src/shared/wire.ts'

const t = (key: SessionsKey, params: Record<string, string> = {}) => en[key].replace(/\{(\w+)\}/g, (match, name: string) => params[name] ?? match)
const chip = (source: string, label: string) => encodeChipRef({ kind: 'session', citingSessionId: 'session-t', citedSessionId: source, label, mention: `@[${label}](dsh-session:${source})` })

/** A draft with three session chips, a quote chip, and a typed bare id between them. */
function draft(rev = 1): DraftSnapshot {
  const text = 'compare @A and @B with @C, see session-9 @Quote 1 '
  const at = (needle: string) => text.indexOf(needle)
  return {
    draft: text,
    draftRev: rev,
    occurrences: [
      { source: 'dsh-sessions', ref: chip('s-a', 'A'), offset: at('@A'), length: 2, clipboardText: '' },
      { source: 'dsh-sessions', ref: chip('s-b', 'B'), offset: at('@B'), length: 2, clipboardText: '' },
      { source: 'dsh-sessions', ref: chip('s-c', 'C'), offset: at('@C'), length: 2, clipboardText: '' },
      { source: 'dsh-sessions-quote', ref: 'q', offset: at('@Quote 1'), length: 8, clipboardText: '> quoted' },
    ],
  }
}

function setup(response: PreflightResponse, snapshot: () => DraftSnapshot = () => draft()) {
  const preflight = vi.fn((_draft: { readonly sessionId: string; readonly text: string; readonly chips: readonly string[] }, _signal: AbortSignal) => Promise.resolve(response))
  const batch = new DraftPreflight({
    source: 'dsh-sessions',
    draft: snapshot,
    serializeOther: (_id, other) => Promise.resolve(`\n> quoted ${other.ref}\n`),
    preflight,
    t,
  })
  return { batch, preflight }
}

const ok: PreflightResponse = { ok: true, text: '', references: [], sources: [] }

describe('the draft preflight', () => {
  it('sends one request for every chip of a send, with the text the machine will send', async () => {
    const { batch, preflight } = setup(ok)
    const signal = new AbortController().signal
    await Promise.all([batch.check('session-t', signal), batch.check('session-t', signal), batch.check('session-t', signal)])
    expect(preflight).toHaveBeenCalledTimes(1)
    expect(preflight.mock.calls[0]![0].text).toBe('compare @[A](dsh-session:s-a) and @[B](dsh-session:s-b) with @[C](dsh-session:s-c), see session-9 \n> quoted q')
    expect(preflight.mock.calls[0]![0].chips).toEqual(['s-a', 's-b', 's-c'])
  })

  it('checks again for the next send, even of the same draft', async () => {
    const { batch, preflight } = setup(ok)
    await batch.check('session-t', new AbortController().signal)
    await batch.check('session-t', new AbortController().signal)
    expect(preflight).toHaveBeenCalledTimes(2)
  })

  it('checks a new revision separately while an older one is pending', async () => {
    let rev = 1
    const { batch, preflight } = setup(ok, () => draft(rev))
    const first = batch.check('session-t', new AbortController().signal)
    rev = 2
    await Promise.all([first, batch.check('session-t', new AbortController().signal)])
    expect(preflight).toHaveBeenCalledTimes(2)
  })

  it('blocks every chip with the one reason, naming the source or the limit', async () => {
    const tooMany = setup({ ok: false, code: 'too-many', message: 'raw', sources: [] })
    const checks = [tooMany.batch.check('session-t', new AbortController().signal), tooMany.batch.check('session-t', new AbortController().signal)]
    for (const check of checks) await expect(check).rejects.toThrow('A message can reference at most 3 sessions.')
    const gone = setup({ ok: false, code: 'not-found', message: 'raw', sessionId: 's-b', label: 'B', sources: [] })
    await expect(gone.batch.check('session-t', new AbortController().signal)).rejects.toThrow('Cannot reference "B": the session was deleted or cannot be read.')
  })

  it('blocks with a readable reason when the host cannot answer or the draft is gone', async () => {
    const preflight = vi.fn(() => Promise.reject(new Error('offline')))
    const batch = new DraftPreflight({ source: 'dsh-sessions', draft: () => draft(), serializeOther: () => Promise.resolve(''), preflight, t })
    await expect(batch.check('session-t', new AbortController().signal)).rejects.toThrow(en['error.unavailable'])
    const none = new DraftPreflight({ source: 'dsh-sessions', draft: () => undefined, serializeOther: () => Promise.resolve(''), preflight, t })
    await expect(none.check('session-t', new AbortController().signal)).rejects.toThrow(en['error.unavailable'])
  })

  it('splices model forms over display ranges and trims like the input machine', () => {
    const snapshot: DraftSnapshot = { draft: '  @x mid @y  ', draftRev: 1, occurrences: [
      { source: 's', ref: '', offset: 2, length: 2, clipboardText: '' },
      { source: 's', ref: '', offset: 9, length: 2, clipboardText: '' },
    ] }
    expect(sentText(snapshot, ['ONE', 'TWO'])).toBe('ONE mid TWO')
  })
})
