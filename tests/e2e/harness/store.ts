/**
 * A large persisted session store, written by the pinned host's own session
 * store and JSONL persistence in this process (never while `dsh web` runs on
 * the same home). Each session has one completed turn (user message, title,
 * assistant reply) in one of the given workspace folders, and creation times
 * one second apart, oldest first.
 */
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Home } from './home.ts'

/** One written session. */
export interface StoredSession {
  readonly id: string
  readonly cwd: string
  readonly title: string
  readonly text: string
}

const FRUITS = ['apple', 'pear', 'plum', 'cherry', 'grape', 'mango', 'lemon', 'peach', 'melon', 'kiwi']

async function hostModule<T>(hostDir: string, specifier: string): Promise<T> {
  const resolved = createRequire(join(hostDir, 'package.json')).resolve(specifier)
  return import(pathToFileURL(resolved).href) as Promise<T>
}

/**
 * Writes `count` sessions spread round-robin over `workspaces` folders under HOME.
 * @param hostDir - the pinned host's install folder (its node_modules supply the writer).
 * @param home - the throwaway home; sessions go to `$DSH_HOME/sessions`.
 * @param count - how many sessions.
 * @param workspaces - how many workspace folders (`ws-00`, `ws-01`, …), created when missing.
 * @returns the sessions, oldest first.
 */
export async function writeSessionStore(hostDir: string, home: Home, count: number, workspaces: number): Promise<StoredSession[]> {
  const { Context } = await hostModule<typeof import('@deepseek-ai/cordis')>(hostDir, '@deepseek-ai/cordis')
  const session = await hostModule<typeof import('@deepseek-ai/dsh-session')>(hostDir, '@deepseek-ai/dsh-session')
  const llm = await hostModule<typeof import('@deepseek-ai/dsh-llm')>(hostDir, '@deepseek-ai/dsh-llm')
  const persistence = await hostModule<{ default: unknown }>(hostDir, '@deepseek-ai/dsh-session-persistence-jsonl')
  const folders = Array.from({ length: workspaces }, (_, n) => join(home.home, `ws-${String(n).padStart(2, '0')}`))
  for (const folder of folders) mkdirSync(folder, { recursive: true })
  const ctx = new Context()
  await ctx.plugin(session.default)
  await ctx.plugin(persistence.default as never, { root: join(home.dshHome, 'sessions') } as never)
  const written: StoredSession[] = []
  const start = Date.now() - count * 1000
  const batch = 50
  for (let offset = 0; offset < count; offset += batch) {
    const sessions = []
    for (let n = offset; n < Math.min(count, offset + batch); n += 1) {
      const id = `session-${crypto.randomUUID()}`
      const cwd = folders[n % workspaces]!
      const fruit = FRUITS[n % FRUITS.length]!
      const title = `Topic ${String(n).padStart(4, '0')} ${fruit} notes`
      const text = `Notes about ${fruit} number ${n}`
      const s = ctx.sessions.create(session.SessionId(id), { meta: { cwd, createdAt: start + n * 1000 } })
      s.append('turn/start', { turn: 1 } as never)
      s.append('step/start', { turn: 1, step: 1 } as never)
      const user = s.append('user/message', llm.createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }), { surfaceOp: 'append' })
      s.append('session/title', { title, messageSeqs: [user.seq], source: { kind: 'fallback' } } as never)
      s.append('assistant/message', {
        turn: 1,
        step: 1,
        message: llm.createAssistantMessage({ content: [{ type: 'text', text: `Reply about ${fruit}` }], source: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } } as never),
      } as never, { surfaceOp: 'append' })
      s.append('step/end', { turn: 1, step: 1 } as never)
      s.append('turn/end', { turn: 1, reason: { kind: 'completed' } } as never)
      sessions.push(s)
      written.push({ id, cwd, title, text })
    }
    await Promise.all(sessions.map(s => ctx.sessions.flush(s)))
  }
  return written
}
