/** The /dsh-sessions routes on a real web server: candidates (equal to the official call), preflight, settings, and the guards on every request. */
import { request } from 'node:http'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { describe, expect, it } from 'vitest'
import { formatMessageReference } from '../../src/shared/message-reference.ts'
import { A, B, createHostHarness, type HostHarness, id, mention, post, TARGET, unknownId } from './harness.ts'

async function setup(config: Record<string, unknown> = {}): Promise<{ h: HostHarness; url: string }> {
  const h = await createHostHarness()
  h.session(TARGET, { cwd: A })
  h.session(id(2), { cwd: A, title: 'Alpha notes', messages: ['alpha text'] })
  h.session(id(3), { cwd: B, title: 'Beta notes', messages: ['beta text'] })
  h.session(id(4), { messages: ['no cwd'] })
  const { url } = await h.mount(config)
  return { h, url }
}

async function ids(url: string, body: Record<string, unknown>): Promise<string[]> {
  const res = await post(url, 'candidates', { citingSessionId: TARGET, ...body })
  expect(res.status).toBe(200)
  return ((await res.json()) as { candidates: { sessionId: string }[] }).candidates.map(c => c.sessionId)
}

describe('candidates route', () => {
  it('lists in-scope sessions with label, cwd, creation time and canonical mention, excluding the target', async () => {
    const { url } = await setup()
    const res = await post(url, 'candidates', { citingSessionId: TARGET })
    const { candidates } = await res.json() as { candidates: Record<string, unknown>[] }
    expect(candidates).toEqual([{
      sessionId: id(2), label: 'Alpha notes', cwd: A, createdAt: expect.any(Number),
      mention: expect.stringMatching(/^@\[Alpha notes\]\(dsh-session:[A-Za-z0-9_-]+\)$/),
    }])
  })

  it('follows scope all with the official ranking: same cwd, no cwd, other cwd', async () => {
    const { url } = await setup({ scope: 'all' })
    expect(await ids(url, {})).toEqual([id(2), id(4), id(3)])
    expect(await ids(url, { query: 'BETA' })).toEqual([id(3)])
    expect(await ids(url, { query: '/w/' })).toEqual([id(2), id(3)])
    expect(await ids(url, { limit: 1 })).toEqual([id(2)])
  })

  it('leaves out a draft open with no message yet, and names another workspace\'s folder under scope all', async () => {
    const h = await createHostHarness()
    h.session(TARGET, { cwd: A })
    h.session(id(2), { cwd: A, title: 'Alpha notes', messages: ['alpha text'] })
    h.session(id(3), { cwd: B, title: 'Beta notes', messages: ['beta text'] })
    h.session(id(5), { cwd: A })
    const { url } = await h.mount({ scope: 'all' })
    const res = await post(url, 'candidates', { citingSessionId: TARGET })
    const { candidates } = await res.json() as { candidates: { sessionId: string; workspace?: string }[] }
    expect(candidates.map(c => [c.sessionId, c.workspace])).toEqual([[id(2), undefined], [id(3), B.split('/').at(-1)]])
    // Once the draft has a message it is offered like any other session.
    h.turn(id(5), 'a first question', 'an answer')
    expect(await ids(url, {})).toContain(id(5))
  })

  it('returns the official listCandidates set and order first for every query, then titles holding every word of a query of several', async () => {
    const h = await createHostHarness()
    const cwds = [A, B, '/w/gamma', undefined]
    h.session(TARGET, { cwd: A })
    for (let n = 2; n < 60; n += 1) {
      const title = n % 5 === 0 ? undefined : `Topic ${n} ${n % 3 === 0 ? 'Pear' : 'apple'}`
      const cwd = cwds[n % 4]
      h.session(id(n), { ...(cwd === undefined ? {} : { cwd }), ...(title === undefined ? {} : { title }), messages: [`m${n}`] })
    }
    const { url } = await h.mount({ scope: 'all', candidateLimit: 50 })
    const agent = { id: TARGET, session: h.ctx.sessions.get(TARGET as never) } as unknown as Agent
    for (const query of ['', 'p', 'pear', 'TOPIC 1', 'gamma', 'session-0000', 'zzz']) {
      const official = await h.ctx.sessionReferenceResolver.listCandidates(agent, query)
      const res = await post(url, 'candidates', { citingSessionId: TARGET, query })
      const ours = ((await res.json()) as { candidates: { sessionId: string; label: string }[] }).candidates
      expect(ours.slice(0, official.length).map(c => [c.sessionId, c.label]), query).toEqual(official.map(c => [c.sessionId, c.label]))
      const words = query.toLowerCase().split(' ').filter(Boolean)
      const extra = ours.slice(official.length)
      if (words.length < 2) expect(extra, query).toEqual([])
      for (const row of extra) expect(words.every(word => row.label.toLowerCase().includes(word)), `${query}: ${row.label}`).toBe(true)
    }
    const both = ((await (await post(url, 'candidates', { citingSessionId: TARGET, query: 'TOPIC 1' })).json()) as { candidates: { label: string }[] }).candidates.map(c => c.label)
    expect(both).toContain('Topic 21 Pear')
  })

  it('shows a new or retitled session in the very next request', async () => {
    const { h, url } = await setup()
    h.retitle(id(2), 'Renamed alpha')
    h.session(id(9), { cwd: A, title: 'Fresh one', messages: ['fresh'] })
    const { candidates } = await (await post(url, 'candidates', { citingSessionId: TARGET })).json() as { candidates: { sessionId: string; label: string }[] }
    expect(candidates.map(c => [c.sessionId, c.label])).toEqual([[id(9), 'Fresh one'], [id(2), 'Renamed alpha']])
  })

  it('takes the citing session\'s workspace from the host alone, refusing a draft it does not know whatever cwd the body names', async () => {
    const { url } = await setup()
    for (const [route, body] of [
      ['candidates', { citingSessionId: id(50), cwd: B, query: 'beta' }],
      ['preflight', { citingSessionId: id(50), cwd: B, text: `see ${id(3)}` }],
      ['messages', { citingSessionId: id(50), cwd: B, sourceId: id(3) }],
    ] as const) {
      const res = await post(url, route, body)
      expect([route, res.status], route).toEqual([route, 404])
      expect(await res.text(), route).not.toContain('beta text')
    }
    // A known session's own workspace wins over any cwd in the body.
    const res = await post(url, 'candidates', { citingSessionId: TARGET, cwd: B })
    expect(((await res.json()) as { candidates: { sessionId: string }[] }).candidates.map(c => c.sessionId)).toEqual([id(2)])
    expect((await post(url, 'messages', { citingSessionId: TARGET, cwd: B, sourceId: id(3) })).status).toBe(404)
  })

  it('answers a session of another workspace and one that does not exist alike, in every mention form', async () => {
    const { url } = await setup()
    const strip = (answer: Record<string, unknown>, named: string) => JSON.stringify(answer).replaceAll(named, '<id>')
    const forms: [string, (sessionId: string) => string, object][] = [
      ['bare id', sessionId => sessionId, { ok: true, references: [], sources: [] }],
      ['mention', sessionId => mention(sessionId, 'x'), { ok: false, code: 'out-of-scope' }],
      ['message reference', sessionId => formatMessageReference({ sessionId, selection: [[0, 0]], label: 'x' }), { ok: false, code: 'out-of-scope' }],
    ]
    for (const [name, form, expected] of forms) {
      const elsewhere = await (await post(url, 'preflight', { citingSessionId: TARGET, text: `see ${form(id(3))}` })).json() as Record<string, unknown>
      const nowhere = await (await post(url, 'preflight', { citingSessionId: TARGET, text: `see ${form(unknownId(3))}` })).json() as Record<string, unknown>
      expect(elsewhere, name).toMatchObject(expected)
      expect(strip(nowhere, unknownId(3)), name).toBe(strip(elsewhere, id(3)))
    }
  })
})

describe('preflight route', () => {
  it('resolves and prepares, or returns a stable code with a readable message', async () => {
    const { url } = await setup()
    const ok = await (await post(url, 'preflight', { citingSessionId: TARGET, text: `see ${id(2)}` })).json()
    expect(ok).toMatchObject({ ok: true, text: `see ${id(2)}`, references: [{ sessionId: id(2), label: 'Alpha notes' }] })
    expect(ok.sources).toEqual([{ sessionId: id(2), label: 'Alpha notes', chip: true, ok: true, bytes: expect.any(Number), truncated: false }])
    expect(ok.sources[0].bytes).toBeGreaterThan('alpha text'.length)
    const scope = await (await post(url, 'preflight', { citingSessionId: TARGET, text: mention(id(3)) })).json()
    expect(scope).toMatchObject({ ok: false, code: 'out-of-scope', sessionId: id(3) })
    const self = await (await post(url, 'preflight', { citingSessionId: TARGET, text: TARGET })).json()
    expect(self).toMatchObject({ ok: false, code: 'self-reference' })
    const malformed = await (await post(url, 'preflight', { citingSessionId: TARGET, text: '@[x](dsh-session:!!)' })).json()
    expect(malformed).toMatchObject({ ok: false, code: 'invalid-reference' })
  })

  it('reports a source deleted after the pick', async () => {
    const { h, url } = await setup()
    // The pick: the `@` menu lists the source.
    expect(await ids(url, {})).toContain(id(2))
    h.breakLog(id(2))
    const res = await (await post(url, 'preflight', { citingSessionId: TARGET, text: id(2) })).json()
    expect(res).toMatchObject({ ok: false, code: 'not-found' })
  })
})

describe('settings routes', () => {
  it('serves the effective settings and writes valid changes live', async () => {
    const { h, url } = await setup()
    expect(await (await fetch(`${url}/dsh-sessions/settings`)).json()).toEqual({
      scope: 'workspace', allowBareSessionIds: true, allowPlainTitleMentions: true, candidateLimit: 50, failureMode: 'passthrough', agentTools: true, referenceMode: 'snapshot', suggestRelated: true, indexFreeSpaceMiB: 0,
    })
    const res = await post(url, 'settings', { scope: 'all' })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ scope: 'all' })
    expect(h.persisted().at(-1)).toEqual({ 'dsh-sessions': { scope: 'all' } })
    expect(await ids(url, {})).toEqual([id(2), id(4), id(3)])
  })

  it('refuses invalid settings naming the key and writes nothing', async () => {
    const { h, url } = await setup()
    for (const body of [{ scope: 'everything' }, { candidateLimit: 0 }, { failureMode: 1 }, { unknownKey: true }, [1], 'null']) {
      const res = await post(url, 'settings', body)
      expect(res.status).toBe(400)
      const { error } = await res.json() as { error: { code: string; message: string } }
      if (typeof body === 'object' && !Array.isArray(body)) expect(error.message).toContain(Object.keys(body)[0])
    }
    expect(h.persisted()).toEqual([])
  })

  it('refuses values that are not values of their key: null, out of range, of another type, and says which key and why', async () => {
    const { h, url } = await setup()
    const refused: [Record<string, unknown>, string][] = [
      [{ scope: null }, 'settings key "scope" must be "workspace" or "all"'],
      [{ failureMode: null }, 'settings key "failureMode" must be "passthrough" or "reject"'],
      [{ agentTools: null }, 'settings key "agentTools" must be true or false'],
      [{ referenceMode: 'pointer' }, 'settings key "referenceMode" must be "snapshot" or "agent"'],
      [{ allowBareSessionIds: 'yes' }, 'settings key "allowBareSessionIds" must be true or false'],
      [{ candidateLimit: 1e308 }, 'settings key "candidateLimit" must be a whole number from 1 to 500'],
      [{ candidateLimit: 501 }, 'settings key "candidateLimit" must be a whole number from 1 to 500'],
      [{ candidateLimit: 2.5 }, 'settings key "candidateLimit" must be a whole number from 1 to 500'],
      [{ candidateLimit: null }, 'settings key "candidateLimit" must be a whole number from 1 to 500'],
      [{ indexFreeSpaceMiB: -1 }, 'settings key "indexFreeSpaceMiB" must be a whole number from 0 to 1073741824'],
      [{ indexFreeSpaceMiB: '100' }, 'settings key "indexFreeSpaceMiB" must be a whole number from 0 to 1073741824'],
      [{ scope: 'all', candidateLimit: 1e308 }, 'settings key "candidateLimit" must be a whole number from 1 to 500'],
    ]
    for (const [body, message] of refused) {
      const res = await post(url, 'settings', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(await res.json()).toEqual({ error: { code: 'invalid-settings', message } })
    }
    expect(h.persisted()).toEqual([])
    // Each key's edges are taken.
    for (const body of [{ candidateLimit: 500 }, { candidateLimit: 1 }, { indexFreeSpaceMiB: 0 }, { indexFreeSpaceMiB: 2048 }]) expect((await post(url, 'settings', body)).status).toBe(200)
    expect(h.persisted().at(-1)).toEqual({ 'dsh-sessions': { candidateLimit: 1, indexFreeSpaceMiB: 2048 } })
  })

  it('refuses a body nested nine levels deep for its depth, and one nested eight levels for what it says', async () => {
    const { h, url } = await setup()
    // The body is level 1; each array inside the value adds one.
    const nested = (levels: number): string => `{"scope":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`
    const eight = await post(url, 'settings', nested(8))
    expect(eight.status).toBe(400)
    expect((await eight.json() as { error: { message: string } }).error.message).toBe('settings key "scope" must be a string, a number or a boolean')
    const nine = await post(url, 'settings', nested(9))
    expect(nine.status).toBe(400)
    expect(await nine.json()).toEqual({ error: { code: 'bad-request', message: 'the body nests deeper than 8 levels' } })
    expect(h.persisted()).toEqual([])
  })

  it('refuses a deeply nested value with its own sentence before anything walks it, and keeps serving', async () => {
    const { h, url } = await setup()
    const deep = `{"scope":${'['.repeat(20_000)}${']'.repeat(20_000)}}`
    const res = await post(url, 'settings', deep)
    expect(res.status).toBe(400)
    const { error } = await res.json() as { error: { code: string; message: string } }
    expect(error).toEqual({ code: 'bad-request', message: 'the body nests deeper than 8 levels' })
    const shallow = await post(url, 'settings', { scope: { nested: 'all' } })
    expect(shallow.status).toBe(400)
    expect((await shallow.json() as { error: { message: string } }).error.message).toBe('settings key "scope" must be a string, a number or a boolean')
    expect(h.persisted()).toEqual([])
    expect((await fetch(`${url}/dsh-sessions/settings`)).status).toBe(200)
  })
})

describe('route guards', () => {
  it.each([
    [{ origin: 'http://evil.example' }],
    [{ origin: 'null' }],
    [{ 'sec-fetch-site': 'cross-site' }],
    [{ host: 'evil.example' }],
  ])('refuses a request failing the trust fence (%j) with 403', async headers => {
    const { url } = await setup()
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${url}/dsh-sessions/candidates`, {
        method: 'POST', headers: { 'content-type': 'application/json', ...headers },
      }, res => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end(JSON.stringify({ sessionId: TARGET }))
    })
    expect(status).toBe(403)
  })

  it('answers malformed, oversized and mistyped bodies with 4xx and keeps serving', async () => {
    const { url } = await setup()
    expect((await post(url, 'candidates', '{"sessionId":')).status).toBe(400)
    expect((await post(url, 'candidates', { query: 'x' })).status).toBe(400)
    expect((await post(url, 'candidates', { citingSessionId: 7 })).status).toBe(400)
    expect((await post(url, 'candidates', { citingSessionId: TARGET, limit: 0 })).status).toBe(400)
    expect((await post(url, 'preflight', { citingSessionId: TARGET })).status).toBe(400)
    expect((await post(url, 'candidates', { citingSessionId: TARGET, query: 'x'.repeat(70_000) })).status).toBe(413)
    expect((await post(url, 'candidates', 'x', { 'content-type': 'text/plain' })).status).toBe(415)
    expect((await fetch(`${url}/dsh-sessions/candidates`)).status).toBe(405)
    expect((await fetch(`${url}/dsh-sessions/nothing`)).status).toBe(404)
    expect((await post(url, 'candidates', { citingSessionId: TARGET })).status).toBe(200)
  })
})
