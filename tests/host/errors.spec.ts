/** One error type: refused settings writes carry a stable code and the error they wrap, and the routes answer each code with its status. */
import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { Config } from '../../src/config.ts'
import { DshSessionsError, messageOf } from '../../src/host/errors.ts'
import { installSessionsSettings } from '../../src/host/settings.ts'
import { A, createHostHarness, post, TARGET } from './harness.ts'

describe('DshSessionsError', () => {
  it('carries its code and chains its cause', () => {
    const cause = new TypeError('inner')
    const error = new DshSessionsError('outer', 'invalid-settings', { cause })
    expect(error).toBeInstanceOf(Error)
    expect([error.name, error.message, error.code, error.cause]).toEqual(['DshSessionsError', 'outer', 'invalid-settings', cause])
    expect(messageOf(error)).toBe('outer')
    expect(messageOf('plain')).toBe('plain')
  })

  it('is what a refused settings write throws, naming the key and why', async () => {
    const ctx = new Context()
    const settings = installSessionsSettings(ctx, Config({}))
    const invalid = await settings.update({ scope: 'everywhere' }).catch((error: unknown) => error)
    expect(invalid).toBeInstanceOf(DshSessionsError)
    expect((invalid as DshSessionsError).code).toBe('invalid-settings')
    expect((invalid as DshSessionsError).message).toBe('settings key "scope" must be "workspace" or "all"')
    await expect(settings.update({ colour: 'red' })).rejects.toMatchObject({ code: 'invalid-settings', message: 'unknown settings key "colour"' })
    await expect(settings.update({ scope: 'all' })).rejects.toMatchObject({ code: 'unavailable' })
  })
})

describe('error bodies', () => {
  it('answer each code with its status and the code itself', async () => {
    const h = await createHostHarness()
    h.session(TARGET, { cwd: A })
    const { url } = await h.mount()
    const answers = await Promise.all([
      post(url, 'candidates', '{'),
      post(url, 'candidates', { citingSessionId: '' }),
      post(url, 'nowhere', {}),
      post(url, 'settings', { scope: 'everywhere' }),
      fetch(`${url}/dsh-sessions/candidates`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }),
      fetch(`${url}/dsh-sessions/candidates`),
    ])
    const seen = await Promise.all(answers.map(async res => [res.status, ((await res.json()) as { error: { code: string } }).error.code]))
    expect(seen).toEqual([
      [400, 'malformed-json'], [400, 'bad-request'], [404, 'not-found'], [400, 'invalid-settings'], [415, 'unsupported-media-type'], [405, 'method-not-allowed'],
    ])
  })
})
