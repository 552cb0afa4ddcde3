/** The browser's route calls: each sends its declared body to its route, and a refusal keeps the host's message, code and status. */
import { describe, expect, it } from 'vitest'
import { createSessionsApi, RouteError } from '../../src/client/api.ts'

const signal = new AbortController().signal

function fetcherAnswering(status: number, body: unknown, sent: { url?: string; body?: unknown }[] = []): typeof fetch {
  return (input, init) => {
    sent.push({ url: String(input), body: JSON.parse(String(init?.body)) })
    return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))
  }
}

describe('the route calls', () => {
  it('post each declared body to its route and answer the body the host sent', async () => {
    const sent: { url?: string; body?: unknown }[] = []
    const api = createSessionsApi(fetcherAnswering(200, { sessionId: 's', label: 'L', mention: '@[L](dsh-session:x)' }, sent))
    expect(await api.mention('s', signal)).toEqual({ sessionId: 's', label: 'L', mention: '@[L](dsh-session:x)' })
    await api.messageReference('s', { seq: 4 }, signal)
    expect(sent).toEqual([
      { url: '/dsh-sessions/mention', body: { sourceId: 's' } },
      { url: '/dsh-sessions/message-reference', body: { sourceId: 's', seq: 4 } },
    ])
  })

  it('throw a refusal with the host\'s message, code and status, the body as its cause', async () => {
    const body = { error: { code: 'not-found', message: 'session "s" not found' } }
    const refused = await createSessionsApi(fetcherAnswering(404, body)).mention('s', signal).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(RouteError)
    expect(refused).toBeInstanceOf(Error)
    expect(refused).toMatchObject({ message: 'session "s" not found', code: 'not-found', status: 404, cause: body })
  })

  it('name the HTTP status when the refusal carries no message', async () => {
    const refused = await createSessionsApi(fetcherAnswering(502, {})).titles(['s'], signal).catch((error: unknown) => error)
    expect(refused).toMatchObject({ message: 'HTTP 502', code: undefined, status: 502 })
  })
})
