/** The row configuration: defaults, valid values kept, invalid ones refused naming the key, validated by cordis at load. */
import { describe, expect, it } from 'vitest'
import { Config } from '../../src/config.ts'
import { createHostHarness } from './harness.ts'

const DEFAULTS = {
  scope: 'workspace',
  allowBareSessionIds: true,
  allowPlainTitleMentions: true,
  candidateLimit: 50,
  failureMode: 'passthrough',
  agentTools: true,
  referenceMode: 'snapshot',
  suggestRelated: true,
  indexFreeSpaceMiB: 0,
}

describe('plugin configuration', () => {
  it('fills every key with its default', () => {
    expect(Config({})).toEqual(DEFAULTS)
    expect(Config(undefined)).toEqual(DEFAULTS)
  })

  it('keeps valid values', () => {
    const config = { scope: 'all', allowBareSessionIds: false, allowPlainTitleMentions: false, candidateLimit: 1, failureMode: 'reject', agentTools: false, referenceMode: 'agent', suggestRelated: false, indexFreeSpaceMiB: 2048 } as const
    expect(Config(config)).toEqual(config)
  })

  it.each([
    ['scope', { scope: 'everything' }],
    ['scope', { scope: 1 }],
    ['allowBareSessionIds', { allowBareSessionIds: 'yes' }],
    ['allowPlainTitleMentions', { allowPlainTitleMentions: 0 }],
    ['candidateLimit', { candidateLimit: 0 }],
    ['candidateLimit', { candidateLimit: 2.5 }],
    ['candidateLimit', { candidateLimit: '50' }],
    ['failureMode', { failureMode: 'ignore' }],
    ['agentTools', { agentTools: 'on' }],
    ['referenceMode', { referenceMode: 'pointer' }],
    ['suggestRelated', { suggestRelated: 'no' }],
    ['indexFreeSpaceMiB', { indexFreeSpaceMiB: -1 }],
  ])('refuses an invalid %s with a message naming the key', (key, config) => {
    expect(() => Config(config as never)).toThrow(new RegExp(`\\$\\.${key}\\b`))
  })

  it('is validated by cordis when the row loads', async () => {
    const valid = await createHostHarness()
    const { url } = await valid.mount({ scope: 'all' })
    expect(await (await fetch(`${url}/dsh-sessions/settings`)).json()).toEqual({ ...DEFAULTS, scope: 'all' })
    const invalid = await createHostHarness()
    await expect(invalid.mount({ failureMode: 'drop' } as never)).rejects.toThrow(/failureMode/)
  })
})
