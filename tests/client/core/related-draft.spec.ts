/** When a draft is worth asking about, and the sessions its chips cite. */
import { describe, expect, it } from 'vitest'
import { encodeChipRef } from '../../../src/client/core/chip-ref.ts'
import { draftStart, isDismissedDraft, isTelling } from '../../../src/client/core/related-draft.ts'
import { citedByChips } from '../../../src/client/related/draft-chips.ts'

describe('related draft', () => {
  it('is telling from six words, eight Chinese characters, or a mix', () => {
    expect(isTelling('Stripe is sending the invoice')).toBe(false)
    expect(isTelling('Stripe is sending the invoice twice')).toBe(true)
    expect(isTelling('回调签名校验要')).toBe(false)
    expect(isTelling('回调签名校验要改')).toBe(true)
    expect(isTelling('Stripe webhook 签名')).toBe(false)
    expect(isTelling('Stripe webhook retries 签名校验')).toBe(true)
    expect(isTelling('a b c d e f g')).toBe(false)
  })

  it('keeps a dismissal for the draft it was made for as it grows, and drops it for a draft that begins otherwise, even one written before an empty composer was seen', () => {
    const dismissed = draftStart('回调的签名校验要支持密钥轮换，旧密钥和新密钥同时有效一段时间')
    expect(isDismissedDraft('回调的签名校验要支持密钥轮换，旧密钥和新密钥同时有效一段时间，重放攻击也要检查', dismissed)).toBe(true)
    expect(isDismissedDraft('Stripe is sending the invoice webhook twice again, where do we dedupe the events', dismissed)).toBe(false)
    expect(isDismissedDraft('签名校验的中间件要记录每次失败的原因', dismissed)).toBe(false)
    expect(isDismissedDraft('anything', undefined)).toBe(false)
    expect(isDismissedDraft('anything', '')).toBe(false)
  })

  it('names the sessions cited by this plugin\'s session chips only', () => {
    const chip = (cited: string) => ({ source: 'dsh-sessions', ref: encodeChipRef({ kind: 'session', citingSessionId: 'session-draft', citedSessionId: cited, label: 'x', mention: '@x' }) })
    expect(citedByChips([chip('session-a'), chip('session-a'), { source: 'files', ref: '{}' }, { source: 'dsh-sessions', ref: encodeChipRef({ kind: 'file', mention: '@a.ts' }) }, chip('session-b')], 'dsh-sessions')).toEqual(['session-a', 'session-b'])
  })
})
