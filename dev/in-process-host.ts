/**
 * The host half in process, for the host specs and the benches: a real
 * cordis context with the official rc.8 session services (the in-memory
 * session store, optionally the host's JSONL persistence, a session query
 * engine over it with injectable storage faults, the official
 * session-reference resolver), and, once mounted, an in-memory settings
 * provider, the host's web server and the plugin row.
 */
import { Context } from '@deepseek-ai/cordis'
import { agentEvents, type Agent, type PreStepDecision } from '@deepseek-ai/dsh-agent'
import { createAssistantMessage, createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import JsonlPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import SessionQueryEngine, { SessionQueryError } from '@deepseek-ai/dsh-session-query'
import SessionReferenceResolver from '@deepseek-ai/dsh-session-reference'
import { SettingsProvider } from '@deepseek-ai/dsh-settings'
import WebServer from '@deepseek-ai/dsh-host-webserver'
import type { Config } from '../src/config.ts'
import { StoreReader } from '../src/host/reader/store-reader.ts'
import * as plugin from '../src/index.ts'

/** Ids whose stored log reads fail, as after a deletion on disk. */
const unreadable = new Set<string>()

/** Storage faults injected into the official query engine, and the reads it served. */
export interface StorageFaults {
  /** How many of the next listings fail. */
  failListings: number
  /** When set, a listing takes what it lists, then waits for this before it answers (a slow listing). */
  holdListings: Promise<void> | undefined
  /** Errors the next title reads of an id throw (one per read). */
  readErrors: Map<string, Error[]>
  /** Headers listed as persisted but not live (cold sessions), with the title their log holds. */
  cold: Map<string, { cwd?: string; createdAt: number; title?: string }>
  /** Calls per method: `listSessions`, `readTitleSnapshot:<id>`, `readTitle:<id>`. */
  calls: Map<string, number>
}

const faults: StorageFaults = { failListings: 0, holdListings: undefined, readErrors: new Map(), cold: new Map(), calls: new Map() }

function count(key: string): void {
  faults.calls.set(key, (faults.calls.get(key) ?? 0) + 1)
}

class TestSessionQueryEngine extends SessionQueryEngine {
  override readSurface(id: SessionId) {
    if (unreadable.has(id)) return Promise.reject(new Error(`session "${id}" not found`))
    return super.readSurface(id)
  }

  override async listSessions(signal?: AbortSignal) {
    count('listSessions')
    if (faults.failListings > 0) {
      faults.failListings -= 1
      throw new Error('injected listing failure')
    }
    const records = await super.listSessions(signal)
    const cold = [...faults.cold].map(([id, meta]) => ({
      header: { version: 1, id: SessionId(id), createdAt: meta.createdAt, ...(meta.cwd === undefined ? {} : { cwd: meta.cwd }) },
      live: false,
      persisted: true,
    }))
    await faults.holdListings
    return [...records, ...cold] as typeof records
  }

  override readTitleSnapshot(id: SessionId, signal?: AbortSignal) {
    count(`readTitleSnapshot:${id}`)
    const error = faults.readErrors.get(id)?.shift()
    if (error !== undefined) return Promise.reject(error)
    return super.readTitleSnapshot(id, signal)
  }

  override readTitle(id: SessionId, signal?: AbortSignal) {
    count(`readTitle:${id}`)
    const cold = faults.cold.get(id)
    if (cold !== undefined) return Promise.resolve(cold.title === undefined ? undefined : { title: cold.title } as never)
    return super.readTitle(id, signal)
  }

  /** As rc.8's web profile mounts the official provider (`openAt: never`): search is off. */
  searchSessions(): Promise<never> {
    return Promise.reject(new SessionQueryError('session search is disabled', 'SESSION_QUERY_SEARCH_DISABLED'))
  }

  searchEvents(request: { sessionId: SessionId }) {
    return this.readSurface(request.sessionId).then(surface => ({ session: surface.session, items: [] }))
  }
}

/** The plugin's store reader lists a JSONL store in its own thread, past the query engine: the same faults apply to its listings, counted as the engine's are. */
const readerList = StoreReader.prototype.list
StoreReader.prototype.list = async function list(this: StoreReader) {
  count('listSessions')
  if (faults.failListings > 0) {
    faults.failListings -= 1
    throw new Error('injected listing failure')
  }
  const headers = await readerList.call(this)
  if (headers === undefined) {
    // Not listed here: the query engine lists, and counts it.
    faults.calls.set('listSessions', faults.calls.get('listSessions')! - 1)
    return undefined
  }
  const cold = [...faults.cold].map(([id, meta]) => ({ version: 1, id: SessionId(id), createdAt: meta.createdAt, ...(meta.cwd === undefined ? {} : { cwd: meta.cwd }) }))
  await faults.holdListings
  return [...headers, ...cold] as typeof headers
}

/** Settings held in memory; `persisted` records every written section. */
class MemorySettings extends SettingsProvider {
  readonly writable = true
  static persisted: unknown[] = []
  protected load() {
    return Promise.resolve({})
  }

  protected persist(ns: string, section: Record<string, unknown>) {
    MemorySettings.persisted.push({ [ns]: structuredClone(section) })
    return Promise.resolve()
  }
}

export interface HostHarness {
  ctx: Context
  /** Loads the plugin (with a web server on an OS-chosen port and in-memory settings); returns the base URL. */
  mount(config?: Partial<Config>): Promise<{ url: string; dispose(): Promise<void> }>
  /** Makes a session's stored log unreadable, as a deletion on disk does; a live session stops being live. */
  breakLog(id: string): void
  /** Stops a session being live here, as the host does when it disposes one: its log stays. */
  detach(id: string): void
  /** Storage faults and read counts of the query engine. */
  faults: StorageFaults
  /** Sections the settings provider persisted, as `{ [namespace]: section }`. */
  persisted(): unknown[]
  /** Creates a session with a header cwd and optional title and messages. */
  session(id: string, options?: { cwd?: string; title?: string; messages?: string[]; createdAt?: number }): SessionId
  /** Appends one completed exchange: the person's message, then the assistant's reply. */
  turn(id: string, user: string, reply: string): void
  /** Appends a title event. */
  retitle(id: string, title: string): void
  /** Runs the pre-step waterfall for a target session with the given direct texts. */
  preStep(target: string, texts: string[]): Promise<PreStepDecision>
  /** Stops the whole host: the plugin (its search worker and saves), the web server, the session store and its persistence. */
  dispose(): Promise<void>
}

let clock = 1_000

/**
 * Creates a harness.
 * @param options - the official service's byte budget; a folder to persist sessions in with the host's JSONL backend.
 * @returns the harness.
 */
export async function createHostHarness(options: { maxReferenceBytes?: number; persistenceRoot?: string } = {}): Promise<HostHarness> {
  unreadable.clear()
  faults.failListings = 0
  faults.holdListings = undefined
  faults.readErrors.clear()
  faults.cold.clear()
  faults.calls.clear()
  MemorySettings.persisted = []
  const ctx = new Context()
  const detachers = new Map<string, () => void>()
  await ctx.plugin(SessionStore)
  if (options.persistenceRoot !== undefined) await ctx.plugin(JsonlPersistence as never, { root: options.persistenceRoot } as never)
  await ctx.plugin(TestSessionQueryEngine as never, {} as never)
  await ctx.plugin(SessionReferenceResolver, options.maxReferenceBytes === undefined ? {} : { maxReferenceBytes: options.maxReferenceBytes })
  const harness: HostHarness = {
    ctx,
    async mount(config = {}) {
      await ctx.plugin(MemorySettings as never, {} as never)
      await ctx.plugin(WebServer, { host: '127.0.0.1', port: 0 })
      const fiber = ctx.plugin(plugin, config as Config)
      await fiber
      return { url: `http://127.0.0.1:${ctx.webServer.port}`, dispose: () => fiber.dispose() }
    },
    breakLog(id) {
      unreadable.add(id)
      // A live session is read from memory: it leaves the live set, as a session deleted on disk is no longer open.
      detachers.get(id)?.()
      detachers.delete(id)
    },
    detach(id) {
      detachers.get(id)?.()
      detachers.delete(id)
    },
    faults,
    persisted: () => MemorySettings.persisted,
    session(id, options = {}) {
      const sessionId = SessionId(id)
      const session = ctx.sessions.prepare(sessionId, {
        meta: { ...(options.cwd === undefined ? {} : { cwd: options.cwd }), createdAt: options.createdAt ?? clock++ },
      })
      detachers.set(id, ctx.sessions.enter(session))
      ctx.sessions.announce(session)
      for (const text of options.messages ?? []) {
        session.append('user/message', createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }), { surfaceOp: 'append' })
      }
      if (options.title !== undefined) harness.retitle(id, options.title)
      return sessionId
    },
    turn(id, user, reply) {
      const session = ctx.sessions.get(SessionId(id))!
      session.append('user/message', createUserMessage({ content: [{ type: 'text', text: user }], source: { kind: 'user' } }), { surfaceOp: 'append' })
      session.append('assistant/message', {
        turn: 1,
        step: 1,
        message: createAssistantMessage({ content: [{ type: 'text', text: reply }], source: { provider: 'stand-in', model: 'stand-in' } } as never),
      } as never, { surfaceOp: 'append' })
    },
    retitle(id, title) {
      const session = ctx.sessions.get(SessionId(id))!
      session.append('session/title', { title, messageSeqs: [], source: { kind: 'user' } } as never)
    },
    dispose: () => ctx.fiber.dispose(),
    async preStep(target, texts) {
      const session = ctx.sessions.get(SessionId(target))!
      const agent = { id: session.id, session } as unknown as Agent
      const messages: UserMessage[] = texts.map(text => createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }))
      return agentEvents(ctx, agent).waterfall('agent/pre-step',
        { messages, turn: 1, step: 1, signal: new AbortController().signal },
        () => Promise.resolve({ kind: 'enter', messages }))
    },
  }
  return harness
}
