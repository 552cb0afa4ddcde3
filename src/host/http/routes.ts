/**
 * The `/dsh-sessions` HTTP routes, behind the `/api` trust fence. Bodies are JSON objects of at most
 * {@link MAX_BODY_BYTES}; every refusal answers `{ error: { code, message } }` with the code's HTTP status.
 * @module @wishp3/dsh-sessions/host/http/routes
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-host-webserver'
import { SessionId } from '@deepseek-ai/dsh-session'
import { listCandidates, mentionOf } from '../references/candidates.ts'
import { relatedSessions } from '../references/related-sessions.ts'
import type { StoreReader } from '../reader/store-reader.ts'
import type { ContentSearch } from '../search/content-search.ts'
import { searchSidebar } from '../search/sidebar-search.ts'
import { MAX_FIND_MATCHES } from '../search/text/conversation-find.ts'
import { queryTerms } from '../search/text/terms.ts'
import type { Route, RouteRequest, RouteResponse } from '../../shared/wire.ts'
import { DshSessionsError, type DshSessionsErrorCode } from '../errors.ts'
import type { OutcomeLog } from '../references/outcome-log.ts'
import { isInScope, type ReferenceTarget } from '../sessions/scope.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'
import type { SendCheck } from '../references/send-check.ts'
import type { SourceMessages } from '../references/source-messages.ts'
import type { SessionsSettings } from '../settings.ts'
import { isAdmitted, type RouteAuthority } from './trust.ts'
import { MAX_BODY_BYTES, readJson } from './request-body.ts'
import { parseBody } from './route-bodies.ts'

/** Route prefix. */
export const ROUTE_PREFIX = '/dsh-sessions'

/** Longest wait of one outcomes request. */
export const MAX_OUTCOME_WAIT_MS = 25_000

/** Sessions the sidebar's search returns unless asked otherwise. */
const DEFAULT_SIDEBAR_RESULTS = 50

/** What the routes read. */
export interface RouteDependencies {
  readonly catalog: SessionCatalog
  readonly content: ContentSearch
  readonly check: SendCheck
  readonly settings: SessionsSettings
  readonly outcomes: OutcomeLog
  readonly messages: SourceMessages
  /** Reads the store off the host's thread; its figures are part of the index's status. */
  readonly reader?: StoreReader
}

/** The HTTP status each error code is answered with: the one place codes meet HTTP. */
const STATUS: Readonly<Record<DshSessionsErrorCode, number>> = {
  'bad-request': 400,
  'malformed-json': 400,
  'invalid-settings': 400,
  'forbidden': 403,
  'not-found': 404,
  'method-not-allowed': 405,
  'settings-refused': 409,
  'body-too-large': 413,
  'unsupported-media-type': 415,
  'internal': 500,
  'unavailable': 503,
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
  res.end(text)
}

/** What every handler is given besides its request: the host, what the routes read, and a signal aborted when the client goes away. */
interface RouteCall {
  readonly ctx: Context
  readonly deps: RouteDependencies
  readonly signal: AbortSignal
}

/**
 * The citing session as the host knows it, its workspace included; a session the host does not know is refused. A live session
 * (a draft the page has open) is answered from memory at once unless `listed`: a route that reads the index after naming its
 * citing session waits for the session catalog's listing, a live draft's included. The catalog is waited for once.
 */
async function citing({ ctx, deps }: RouteCall, id: string, listed: boolean): Promise<ReferenceTarget> {
  const live = ctx.sessions.get(SessionId(id))?.header
  if (live !== undefined && !listed) return { id, cwd: live.cwd }
  await deps.catalog.ready()
  if (live !== undefined) return { id, cwd: live.cwd }
  const known = await deps.catalog.lookup(id)
  if (known === undefined) throw missing(id)
  return { id, cwd: known.cwd }
}

/** The refusal of a session that is not there or not in scope: both answer alike. */
function missing(id: string): DshSessionsError {
  return new DshSessionsError(`session "${id}" not found`, 'not-found')
}

/** Each `POST` route's handler: its typed request (see `route-bodies.ts`) in, its declared response out. */
const HANDLERS: { readonly [K in Route]: (request: RouteRequest<K>, call: RouteCall) => Promise<RouteResponse<K>> } = {
  async candidates({ citingSessionId, query = '', limit }, call) {
    const who = await citing(call, citingSessionId, true)
    const config = call.deps.settings.current()
    const found = await listCandidates(call.deps, { target: who, query, scope: config.scope, candidateLimit: config.candidateLimit, ...(limit === undefined ? {} : { limit }) })
    const indexing = call.deps.content.progress(session => isInScope(config.scope, who, session))
    return { candidates: found, ...(indexing === undefined ? {} : { indexing }) }
  },

  /** Checks a whole draft once (see `references/send-check.ts`). */
  async preflight({ citingSessionId, text, chips }, call) {
    const who = await citing(call, citingSessionId, false)
    return call.deps.check.preflight({ target: who, text, chips }, call.deps.settings.current(), call.signal)
  },

  async outcomes({ citingSessionId, after = 0, waitMs = 0 }, { deps, signal }) {
    const found = await deps.outcomes.read({ sessionId: citingSessionId, after: after, waitMs: Math.min(waitMs, MAX_OUTCOME_WAIT_MS) }, signal)
    return { outcomes: found, last: Math.max(after, deps.outcomes.latest()) }
  },

  async search({ query, limit = DEFAULT_SIDEBAR_RESULTS }, { deps, signal }) {
    await deps.catalog.ready()
    const found = await searchSidebar(deps, { query, limit, signal })
    return {
      results: found.matches.map(({ session, snippet }) => ({
        sessionId: session.id,
        ...(session.title === undefined ? {} : { title: session.title }),
        ...(snippet === undefined ? {} : { snippet }),
      })),
      hasMore: found.hasMore,
      ...(found.indexing === undefined ? {} : { indexing: found.indexing }),
    }
  },

  async titles({ ids }, { deps }) {
    await deps.catalog.ready()
    const known: Record<string, string> = {}
    for (const id of ids) {
      const title = deps.catalog.get(id)?.title
      if (title !== undefined) known[id] = title
    }
    return { titles: known, pending: deps.content.progress() !== undefined }
  },

  async 'message-reference'({ sourceId, ...message }, { deps }) {
    await deps.catalog.ready()
    return deps.messages.reference(sourceId, message)
  },

  /** The canonical mention of a session the index holds; reads nothing for one it does not. */
  async mention({ sourceId }, { deps }) {
    await deps.catalog.ready()
    const known = deps.catalog.get(sourceId)
    if (known === undefined) throw missing(sourceId)
    return { sessionId: sourceId, label: known.label, mention: mentionOf(known) }
  },

  /** A source's messages, for a draft's chip: only a source the current scope admits for that draft; any other looks missing. */
  async messages({ citingSessionId, sourceId }, call) {
    const who = await citing(call, citingSessionId, true)
    const known = call.deps.catalog.get(sourceId)
    if (known === undefined || !isInScope(call.deps.settings.current().scope, who, known)) throw missing(sourceId)
    return call.deps.messages.list(sourceId)
  },

  async since({ sources }, { deps }) {
    await deps.catalog.ready()
    return { sources: await deps.messages.since(sources) }
  },

  /** The sessions a draft is about, in the citing session's scope; none while the setting is off. */
  async related({ citingSessionId, text, except = [] }, call) {
    const who = await citing(call, citingSessionId, true)
    const config = call.deps.settings.current()
    return { sessions: config.suggestRelated ? await relatedSessions(call.deps, { who, text, config, except }) : [] }
  },

  /** The matches of a query inside one session the host lists (or has open), for the find bar; any other answers as missing, before any of its text is read. */
  async find({ sessionId, query, after = 0 }, { ctx, deps }) {
    const live = ctx.sessions.get(SessionId(sessionId)) !== undefined
    if (!live) await deps.catalog.ready()
    if (!live && deps.catalog.get(sessionId) === undefined) throw missing(sessionId)
    const terms = queryTerms(query)
    const found = terms.length === 0 ? { matches: [], total: 0, complete: true } : await deps.content.findInSession(sessionId, { terms, after, limit: MAX_FIND_MATCHES })
    if (found === undefined) throw missing(sessionId)
    return {
      matches: found.matches.map(({ message, snippet, origin }) => ({
        number: message,
        ...(origin === undefined ? {} : { seq: origin.seq, role: origin.role }),
        snippet: { text: snippet.text, marks: snippet.marks },
      })),
      total: found.total,
      complete: found.complete,
    }
  },
}

/** Serves one `POST` route: its body read and parsed, its handler run, its answer sent unless the client went away. */
async function served<K extends Route>(route: K, call: Omit<RouteCall, 'signal'>, exchange: { readonly req: IncomingMessage; readonly res: ServerResponse }): Promise<void> {
  const { req, res } = exchange
  const request = parseBody(route, await readJson(req))
  const abort = new AbortController()
  res.once('close', () => abort.abort())
  const response = await HANDLERS[route](request, { ...call, signal: abort.signal })
  if (abort.signal.aborted && res.destroyed) return
  send(res, 200, response)
}

async function settings(deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'GET') {
    send(res, 200, deps.settings.current())
    return
  }
  send(res, 200, await deps.settings.update(await readJson(req)))
}

/** Registers the routes on the web server, on the row's fiber. `deps`: the index, resolver and settings the routes serve. */
export function registerRoutes(ctx: Context, deps: RouteDependencies): void {
  const logger = ctx.logger('dsh-sessions')
  type Endpoint = { methods: Readonly<Record<string, RouteAuthority>>; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> }
  const call = { ctx, deps }
  const endpoints: Record<string, Endpoint> = Object.fromEntries((Object.keys(HANDLERS) as Route[]).map(route => [
    `${ROUTE_PREFIX}/${route}`, { methods: { POST: 'trusted-host' }, handle: (req, res) => served(route, call, { req, res }) } satisfies Endpoint,
  ]))
  Object.assign(endpoints, {
    [`${ROUTE_PREFIX}/content-index`]: { methods: { GET: 'trusted-host' }, handle: (_req, res) => Promise.resolve(send(res, 200, { ...deps.content.status(), catalog: deps.catalog.catalogStatus(), ...(deps.reader === undefined ? {} : { reader: deps.reader.status() }) })) },
    [`${ROUTE_PREFIX}/settings`]: { methods: { GET: 'trusted-host', POST: 'loopback' }, handle: (req, res) => settings(deps, req, res) },
  } satisfies Record<string, Endpoint>)
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const trustedHosts = ctx.get('webRuntime')?.trustedHosts ?? []
      if (!isAdmitted(req.headers, 'trusted-host', trustedHosts)) throw new DshSessionsError('request refused by the host trust fence', 'forbidden')
      // The browser half calls a route as soon as a page opens: the index lists then, before the first `@`.
      deps.catalog.wake()
      const path = new URL(req.url ?? '/', 'http://host').pathname.replace(/\/+$/, '')
      const endpoint = endpoints[path]
      if (endpoint === undefined) throw new DshSessionsError(`no route ${path}`, 'not-found')
      const authority = Object.hasOwn(endpoint.methods, req.method ?? '') ? endpoint.methods[req.method!] : undefined
      if (authority === undefined) {
        res.setHeader('allow', Object.keys(endpoint.methods).join(', '))
        throw new DshSessionsError(`${req.method} is not allowed on ${path}`, 'method-not-allowed')
      }
      if (!isAdmitted(req.headers, authority, trustedHosts)) {
        throw new DshSessionsError(`${req.method} ${path} is served to loopback only`, 'forbidden')
      }
      await endpoint.handle(req, res)
    } catch (error) {
      if (res.headersSent) {
        res.destroy()
        return
      }
      if (!(error instanceof DshSessionsError)) logger.warn('route %s failed: %s', req.url, error)
      const refusal = error instanceof DshSessionsError ? error : new DshSessionsError('internal error', 'internal', { cause: error })
      if (refusal.code === 'body-too-large') res.setHeader('connection', 'close')
      send(res, STATUS[refusal.code], { error: { code: refusal.code, message: refusal.message } })
    }
  }
  ctx.effect(() => ctx.webServer.register({ kind: 'prefix', path: ROUTE_PREFIX, handler }), 'dsh-sessions: routes')
}
