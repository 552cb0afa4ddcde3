/** The stand-in model's scripted tool turns: the calls a request makes one after another, and the answer once the tools have answered. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StandInModel, startModel, toolAnswersSinceHuman, type WireMessage } from '../../dev/stand-in-model.ts'

const ASK = 'Where did it come up?'
let model: StandInModel

beforeAll(async () => {
  model = await startModel({
    toolCall: messages => (messages.some(message => message.content === ASK) ? [{ name: 'search_sessions', arguments: '{"query":"q"}' }][toolAnswersSinceHuman(messages)] : undefined),
    toolReply: messages => (messages.some(message => message.content === ASK) ? 'Found it.' : undefined),
  })
})
afterAll(() => model.stop())

async function ask(messages: WireMessage[]): Promise<string> {
  const res = await fetch(`${model.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages }) })
  return res.text()
}

describe('the stand-in model\'s scripted tool turns', () => {
  it('makes the scripted call, then answers with the scripted reply once the tool has answered', async () => {
    expect(await ask([{ role: 'user', content: ASK }])).toContain('"name":"search_sessions"')
    const after = await ask([{ role: 'user', content: ASK }, { role: 'assistant', content: null }, { role: 'tool', content: 'two sessions' }])
    expect(after).not.toContain('tool_calls')
    expect(model.turns().at(-1)!.reply).toBe('Found it.')
  })

  it('falls back to its own replies for any other request', async () => {
    await ask([{ role: 'user', content: 'hello' }, { role: 'tool', content: 'x' }])
    expect(model.turns().at(-1)!.reply).toMatch(/^Stand-in reply #\d+\. The tool said: x$/)
    expect(toolAnswersSinceHuman([{ role: 'user', content: 'a' }, { role: 'tool', content: '1' }, { role: 'assistant', content: null }, { role: 'tool', content: '2' }])).toBe(2)
  })
})
