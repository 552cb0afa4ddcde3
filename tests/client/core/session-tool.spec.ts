/** What a session tool row shows, read from the call alone. */
import { describe, expect, it } from 'vitest'
import { toolRowModel } from '../../../src/client/core/session-tool.ts'

const framed = (value: object) => `## Referenced sessions\n\nuntrusted…\n\n<referenced-sessions>\n${JSON.stringify(value)}\n</referenced-sessions>`
const settled = (argsRaw: string, value: object) => ({ argsRaw, settled: true, isError: false, interrupted: false, text: framed(value) })

describe('session tool rows', () => {
  it('read a search: its query, running, then the sessions found', () => {
    expect(toolRowModel('search_sessions', { argsRaw: '{"query":"quetzal"}', settled: false, isError: false, interrupted: false })).toEqual({ tool: 'search', state: 'running', query: 'quetzal' })
    expect(toolRowModel('search_sessions', settled('{"query":"quetzal"}', { query: 'quetzal', sessions: [{ sessionId: 's1', title: 'Kiwi', excerpt: 'x' }, { title: 'no id' }] })))
      .toEqual({ tool: 'search', state: 'ok', query: 'quetzal', sessions: [{ sessionId: 's1', title: 'Kiwi' }] })
  })

  it('read a page: the session and the first and last message numbers, or that none could be read', () => {
    expect(toolRowModel('read_session', settled('{"sessionId":"s1"}', { found: true, sessionId: 's1', title: 'Kiwi', messages: [{ n: 4 }, { n: 5 }, { n: 9 }] })))
      .toEqual({ tool: 'read', state: 'ok', found: true, session: { sessionId: 's1', title: 'Kiwi' }, range: [4, 9] })
    expect(toolRowModel('read_session', settled('{"sessionId":"x"}', { found: false, note: 'No session' }))).toEqual({ tool: 'read', state: 'ok', found: false })
  })

  it('read a search inside a session: its query, then how many messages matched', () => {
    expect(toolRowModel('read_session', { argsRaw: '{"sessionId":"s1","query":"rollout"}', settled: false, isError: false, interrupted: false })).toEqual({ tool: 'read', state: 'running', query: 'rollout' })
    expect(toolRowModel('read_session', settled('{"sessionId":"s1","query":"rollout"}', { found: true, sessionId: 's1', title: 'Kiwi', matches: [{ n: 31, excerpt: 'a' }, { n: 8, excerpt: 'b' }] })))
      .toEqual({ tool: 'read', state: 'ok', found: true, query: 'rollout', matches: 2, session: { sessionId: 's1', title: 'Kiwi' } })
  })

  it('read failures, stops, malformed arguments and other tools', () => {
    expect(toolRowModel('search_sessions', { argsRaw: 'not json', settled: true, isError: true, interrupted: false, text: 'boom' })).toEqual({ tool: 'search', state: 'error', query: '' })
    expect(toolRowModel('read_session', { argsRaw: '{}', settled: true, isError: true, interrupted: true })).toEqual({ tool: 'read', state: 'stopped' })
    expect(toolRowModel('read_session', { argsRaw: '{}', settled: true, isError: false, interrupted: false, text: 'no json here' })).toEqual({ tool: 'read', state: 'ok' })
    expect(toolRowModel('bash', { argsRaw: '{}', settled: false, isError: false, interrupted: false })).toBeUndefined()
  })
})
