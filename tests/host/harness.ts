/**
 * A real cordis context with the official rc.8 session services: the
 * in-memory session store, a session query engine over it, the official
 * session-reference resolver, and an in-memory settings provider.
 */
import { Context } from '@deepseek-ai/cordis'
import { agentEvents, type Agent, type PreStepDecision } from '@deepseek-ai/dsh-agent'
import { createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import SessionQueryEngine from '@deepseek-ai/dsh-session-query'
import SessionReferenceResolver from '@deepseek-ai/dsh-session-reference'

class TestSessionQueryEngine extends SessionQueryEngine {
  searchSessions() {
    return Promise.resolve({ items: [] })
  }

  searchEvents(request: { sessionId: SessionId }) {
    return this.readSurface(request.sessionId).then(surface => ({ session: surface.session, items: [] }))
  }
}

export interface HostHarness {
  ctx: Context
  /** Creates a session with a header cwd and optional title and messages. */
  session(id: string, options?: { cwd?: string; title?: string; messages?: string[]; createdAt?: number }): SessionId
  /** Appends a title event. */
  retitle(id: string, title: string): void
  /** Runs the pre-step waterfall for a target session with the given direct texts. */
  preStep(target: string, texts: string[]): Promise<PreStepDecision>
}

let clock = 1_000

export async function createHostHarness(): Promise<HostHarness> {
  const ctx = new Context()
  await ctx.plugin(SessionStore)
  await ctx.plugin(TestSessionQueryEngine as never)
  await ctx.plugin(SessionReferenceResolver, {})
  const harness: HostHarness = {
    ctx,
    session(id, options = {}) {
      const sessionId = SessionId(id)
      const session = ctx.sessions.create(sessionId, {
        meta: { ...(options.cwd === undefined ? {} : { cwd: options.cwd }), createdAt: options.createdAt ?? clock++ },
      })
      for (const text of options.messages ?? []) {
        session.append('user/message', createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }), { surfaceOp: 'append' })
      }
      if (options.title !== undefined) harness.retitle(id, options.title)
      return sessionId
    },
    retitle(id, title) {
      const session = ctx.sessions.get(SessionId(id))!
      session.append('session/title', { title, messageSeqs: [], source: { kind: 'user' } } as never)
    },
    async preStep(target, texts) {
      const session = ctx.sessions.get(SessionId(target))!
      const agent = { id: session.id, session } as unknown as Agent
      const messages: UserMessage[] = texts.map(text => createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }))
      return agentEvents(ctx, agent).waterfall('agent/pre-step',
        { agent, messages, turn: 1, step: 1, signal: new AbortController().signal },
        () => Promise.resolve({ kind: 'enter', messages }))
    },
  }
  return harness
}
