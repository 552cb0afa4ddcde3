/**
 * Persisted sessions written by the pinned host's own session store and JSONL
 * persistence in this process (never while `dsh web` runs on the same home).
 * Each has one or more completed turns (user message, assistant reply; a
 * realistic turn's tool calls and their results between them), and
 * its title right after the first user message. Like a store dsh wrote
 * itself, it also gets the host's projection cache (the sidebar's titles),
 * written by the host's own cache service, unless asked for a store without
 * one (a copied or older store, whose titles only the logs hold).
 */
import { readFileSync } from 'node:fs'
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type ConversationSpec, type ConversationTurn, type RealisticTurn, toolOutput } from './corpus.ts'
import type { Home } from './home.ts'
import { until } from './poll.ts'

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

/** What one written session holds. */
export interface SessionSpec {
  readonly cwd: string
  readonly title: string
  /** The first user message. */
  readonly text: string
  /** The assistant's reply to it when `turns` is absent (default: `Reply: <text>`). */
  readonly reply?: string
  /** Every turn, oldest first; when present it is what gets written (its first user message should be `text`), and `reply` is unused. */
  readonly turns?: readonly ConversationTurn[]
}

function workspaceFolders(home: Home, workspaces: number): string[] {
  const folders = Array.from({ length: workspaces }, (_, n) => join(home.home, `ws-${String(n).padStart(2, '0')}`))
  for (const folder of folders) mkdirSync(folder, { recursive: true })
  return folders
}

/**
 * `count` sessions spread round-robin over `workspaces` folders (`ws-00`, …)
 * under HOME, titled `Topic <n> <fruit> notes`; the folders are created.
 * @param home - the throwaway home.
 * @param count - how many sessions.
 * @param workspaces - how many workspace folders.
 * @returns the specs, oldest first.
 */
export function spreadSessions(home: Home, count: number, workspaces: number): SessionSpec[] {
  const folders = workspaceFolders(home, workspaces)
  return Array.from({ length: count }, (_, n) => {
    const fruit = FRUITS[Math.floor(n / workspaces) % FRUITS.length]!
    return { cwd: folders[n % workspaces]!, title: `Topic ${String(n).padStart(4, '0')} ${fruit} notes`, text: `Notes about ${fruit} number ${n}` }
  })
}

/**
 * Specs of a generated corpus (`conversationCorpus`), each in the workspace
 * folder `ws-NN` under HOME its workspace index names; the folders are created.
 * @param home - the throwaway home.
 * @param corpus - the sessions, oldest first.
 * @returns the specs in the same order, with every turn.
 */
export function corpusSessions(home: Home, corpus: readonly ConversationSpec[]): SessionSpec[] {
  const folders = workspaceFolders(home, corpus.reduce((most, spec) => Math.max(most, spec.workspace + 1), 0))
  return corpus.map(spec => ({ cwd: folders[spec.workspace]!, title: spec.title, text: spec.turns[0]!.user, turns: spec.turns }))
}

/**
 * {@link corpusSessions} one session at a time, for a corpus generated as it
 * is written (`realisticSessions`), so the store is written without the
 * corpus ever being held whole.
 * @param home - the throwaway home.
 * @param corpus - the sessions, oldest first.
 * @param workspaces - how many workspaces the corpus spreads over (their folders are created first).
 * @yields the specs in the same order, with every turn.
 */
export function* corpusSessionStream(home: Home, corpus: Iterable<ConversationSpec>, workspaces: number): Generator<SessionSpec> {
  const folders = workspaceFolders(home, workspaces)
  for (const spec of corpus) yield { cwd: folders[spec.workspace]!, title: spec.title, text: spec.turns[0]!.user, turns: spec.turns }
}

/**
 * Writes sessions with the host's own writer, creation times one second apart.
 * @param hostDir - the pinned host's install folder (its node_modules supply the writer).
 * @param home - the throwaway home; sessions go to `$DSH_HOME/sessions`.
 * @param specs - the sessions, oldest first: a list, or a stream of `options.count` sessions (taken a batch at a time, never held whole).
 * @returns the written sessions with their ids, oldest first.
 */
export async function writeSessionStore(hostDir: string, home: Home, specs: readonly SessionSpec[] | Iterable<SessionSpec>, options: { titleCache?: boolean; count?: number } = {}): Promise<StoredSession[]> {
  const { Context } = await hostModule<typeof import('@deepseek-ai/cordis')>(hostDir, '@deepseek-ai/cordis')
  const session = await hostModule<typeof import('@deepseek-ai/dsh-session')>(hostDir, '@deepseek-ai/dsh-session')
  const llm = await hostModule<typeof import('@deepseek-ai/dsh-llm')>(hostDir, '@deepseek-ai/dsh-llm')
  const persistence = await hostModule<{ default: unknown }>(hostDir, '@deepseek-ai/dsh-session-persistence-jsonl')
  const ctx = new Context()
  await ctx.plugin(session.default)
  await ctx.plugin(persistence.default as never, { root: join(home.dshHome, 'sessions') } as never)
  const cache = options.titleCache === false ? undefined : await mountTitleCache(hostDir, ctx, home)
  const written: StoredSession[] = []
  const count = Array.isArray(specs) ? specs.length : options.count
  if (count === undefined) throw new TypeError('a stream of sessions needs its count')
  const start = Date.now() - count * 1000
  const batch = 50
  const detach: (() => void)[] = []
  const source = specs[Symbol.iterator]()
  for (let offset = 0; offset < count; offset += batch) {
    const sessions = []
    for (let n = offset; n < Math.min(count, offset + batch); n += 1) {
      const next = source.next()
      if (next.done === true) throw new RangeError(`the stream of sessions ended at ${n} of ${count}`)
      const { cwd, title, text, reply, turns } = next.value
      const id = `session-${crypto.randomUUID()}`
      // Entered without the store's own announcement bookkeeping kept past the batch: each batch is detached once
      // written, so writing a large store holds one batch in memory, not the store.
      const s = ctx.sessions.prepare(session.SessionId(id), { meta: { cwd, createdAt: start + n * 1000 } })
      detach.push(ctx.sessions.enter(s))
      ctx.sessions.announce(s)
      // The agent loop numbers turns from 1 and restarts its steps at 1 in every turn.
      const exchanges = turns ?? [{ user: text, reply: reply ?? `Reply: ${text}` }]
      const model = { provider: 'deepseek-official', model: 'deepseek-v4-flash' }
      for (const [index, exchange] of exchanges.entries()) {
        const { user, reply: answer } = exchange
        const tools = 'tools' in exchange ? (exchange as RealisticTurn).tools : []
        const turn = index + 1
        s.append('turn/start', { turn } as never)
        s.append('step/start', { turn, step: 1 } as never)
        const message = s.append('user/message', llm.createUserMessage({ content: [{ type: 'text', text: user }], source: { kind: 'user' } }), { surfaceOp: 'append' })
        if (turn === 1) s.append('session/title', { title, messageSeqs: [message.seq], source: { kind: 'fallback' } } as never)
        let step = 1
        if (tools.length > 0) {
          // A step of tool calls (the model's call blocks, each call and its result), then the reply in a step of its own.
          const calls = tools.map((tool, k) => ({ type: 'tool-call', id: `call-${turn}-${k}`, name: tool.name, arguments: JSON.stringify(tool.name === 'bash' ? { command: 'node --test' } : { path: 'lib/index.js', offset: tool.from, limit: tool.lines }) }))
          s.append('assistant/message', { turn, step, message: llm.createAssistantMessage({ content: calls, source: model } as never) } as never, { surfaceOp: 'append' })
          tools.forEach((tool, k) => {
            const call = calls[k]!
            const callSeq = s.append('tool/call', { turn, step, callId: call.id, name: call.name, arguments: call.arguments } as never).seq
            const result = llm.createToolResultMessage({ callId: call.id as never, content: [{ type: 'text', text: toolOutput(hostDir, tool) }], isError: false })
            s.append('tool/result', { turn, step, message: result } as never, { surfaceOp: 'append', sourceEventSeqs: [callSeq] } as never)
          })
          s.append('step/end', { turn, step } as never)
          step += 1
          s.append('step/start', { turn, step } as never)
        }
        s.append('assistant/message', {
          turn,
          step,
          message: llm.createAssistantMessage({ content: [{ type: 'text', text: answer }], source: model } as never),
        } as never, { surfaceOp: 'append' })
        s.append('step/end', { turn, step } as never)
        s.append('turn/end', { turn, reason: { kind: 'completed' } } as never)
      }
      sessions.push(s)
      written.push({ id, cwd, title, text })
    }
    await Promise.all(sessions.map(s => ctx.sessions.flush(s)))
    if (cache !== undefined) for (const s of sessions) await cache.write(s)
    for (const leave of detach.splice(0)) leave()
  }
  if (cache !== undefined && written.length > 0) await cacheWritten(home, written.at(-1)!.id)
  return written
}

/** The cache rows the web profile mounts (its storage, the projection registry, session titles), with the configs of its bundle. */
async function mountTitleCache(hostDir: string, ctx: import('@deepseek-ai/cordis').Context, home: Home): Promise<{ write(session: unknown): Promise<void> }> {
  const plugin = async (specifier: string, config: object, member?: 'default') => {
    const loaded = await hostModule<Record<string, unknown>>(hostDir, specifier)
    await ctx.plugin((member === undefined ? loaded : loaded.default) as never, config as never)
  }
  await plugin('@deepseek-ai/dsh-storage', {}, 'default')
  await plugin('@deepseek-ai/dsh-storage-json', { root: join(home.dshHome, 'storages') })
  await plugin('@deepseek-ai/dsh-storage-domain', { backend: 'json' })
  await plugin('@deepseek-ai/dsh-session-projection', {}, 'default')
  await plugin('@deepseek-ai/dsh-session-title', { fallbackMaxWords: 5, fallbackMaxBytes: 40, maxTitleBytes: 80 }, 'default')
  await plugin('@deepseek-ai/dsh-session-projection-cache', { writeEveryEvents: 200, writeIntervalMs: 5000 }, 'default')
  await until(() => ctx.get('sessionProjectionCache') !== undefined, 'the host\'s projection cache service to start', 10_000, 25)
  return ctx.get('sessionProjectionCache') as { write(session: unknown): Promise<void> }
}

/** Waits until the cache file on disk holds the last session written. */
async function cacheWritten(home: Home, lastId: string): Promise<void> {
  const file = join(home.dshHome, 'storages', 'session_projcache.json')
  const holdsLast = () => {
    try {
      return readFileSync(file, 'utf8').includes(lastId)
    } catch {
      return false
    }
  }
  await until(holdsLast, 'the host\'s projection cache file to hold the last session written', 10_000, 50)
}
