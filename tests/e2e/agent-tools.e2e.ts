/**
 * The session tools in the real host: the stand-in model calls
 * `search_sessions` and `read_session` (a person's message `CALL_TOOL <name>
 * <JSON>` makes it call a tool once), and the tests read, from the
 * recorded requests, the tools the model was offered and exactly what each
 * call gave back to it.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { hostDir } from '../../dev/pinned-host.ts'
import { type StoredSession, writeSessionStore } from '../../dev/session-store.ts'
import { textOf, type RecordedRequest } from '../../dev/stand-in-model.ts'
import { send } from '../../dev/web-ui.ts'
import { useRealHost } from './harness/real-host.ts'
import { until, untilAsync } from './harness/wait.ts'

const TURNS = Array.from({ length: 6 }, (_, n) => ({ user: `Kiwi question ${n + 1}: ${n === 3 ? 'the QUETZAL rollout waits for 灰度策略 review' : 'what about the orchard?'}`, reply: `Kiwi answer ${n + 1}: ${'planting notes '.repeat(20)}` }))

describe('search_sessions and read_session in the real host', () => {
  let kiwi: StoredSession
  let plum: StoredSession
  const host = useRealHost({
    stack: {
      beforeBoot: async home => {
        const written = await writeSessionStore(hostDir(), home, [
          { cwd: home.project('beta'), title: 'Plum plans', text: 'The quetzal also lives in beta.', reply: 'Noted in beta.' },
          { cwd: home.project('alpha'), title: 'Kiwi plans', text: TURNS[0]!.user, turns: TURNS },
        ])
        plum = written[0]!
        kiwi = written[1]!
      },
    },
    workspace: 'alpha',
  })

  const turns = () => host.stack.model.turns()
  /** Sends a tool call and returns the request that carried its result to the model. */
  async function call(name: string, args: object): Promise<{ offered: string[]; result: string }> {
    const before = turns().length
    await send(host.browser.page, `CALL_TOOL ${name} ${JSON.stringify(args)}`)
    await until(() => turns().length >= before + 2, `the model's turn after ${name}`)
    const [asked, answered] = turns().slice(before, before + 2) as [RecordedRequest, RecordedRequest]
    const tools = (asked.body.tools as { function: { name: string } }[] | undefined) ?? []
    const last = answered.body.messages.at(-1)!
    expect(last.role).toBe('tool')
    return { offered: tools.map(tool => tool.function.name), result: textOf(last) }
  }
  const payload = (result: string): unknown => JSON.parse(result.slice(result.indexOf('{'), result.lastIndexOf('}') + 1))

  beforeAll(async () => {
    // The index knows the stored sessions once it has listed them; the content index once it has read their logs.
    await untilAsync(async () => (await (await fetch(`${host.stack.web.url}/dsh-sessions/content-index`)).json() as { ready: boolean }).ready, 'the content index')
  })

  it('finds an alpha session by a rare word of its messages, with an excerpt and the message number, and not the beta one', async () => {
    const { offered, result } = await call('search_sessions', { query: 'quetzal' })
    expect(offered).toEqual(expect.arrayContaining(['search_sessions', 'read_session']))
    expect(result).toMatch(/^## Referenced sessions/)
    const found = payload(result) as { sessions: { sessionId: string; title: string; excerpt?: string; message?: number }[] }
    expect(found.sessions.map(session => session.sessionId)).toEqual([kiwi.id])
    expect(found.sessions[0]).toMatchObject({ title: 'Kiwi plans', message: 7 })
    expect(found.sessions[0]!.excerpt).toContain('QUETZAL')
    expect(result).not.toContain(plum.id)
  })
})
