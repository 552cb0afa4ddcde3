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
import type { ContentSearch } from '../search/content-search.ts'
import { MAX_SIDEBAR_RESULTS, searchSidebar } from '../search/sidebar-search.ts'
import { MAX_FIND_MATCHES } from '../search/text/conversation-find.ts'
import { MAX_QUERY_LENGTH, queryTerms } from '../search/text/terms.ts'
import type { Route, RouteRequest, RouteResponse, SentReference } from '../../shared/wire.ts'
import { DshSessionsError, type DshSessionsErrorCode } from '../errors.ts'
import type { OutcomeLog } from '../references/outcome-log.ts'
import { isInScope, type ReferenceTarget } from '../sessions/scope.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'
import type { SendCheck } from '../references/send-check.ts'
import type { SourceMessages } from '../references/source-messages.ts'
import type { SessionsSettings } from '../settings.ts'
import { isAdmitted, type RouteAuthority } from './trust.ts'
import { MAX_BODY_BYTES, optionalNumber, optionalString, readJson, renamedString, requiredString } from './request-body.ts'

/** Route prefix. */
export const ROUTE_PREFIX = '/dsh-sessions'

/** Longest wait of one outcomes request. */
export const MAX_OUTCOME_WAIT_MS = 25_000

/** Sessions the sidebar's search returns unless asked otherwise. */
const DEFAULT_SIDEBAR_RESULTS = 50

/** Most sessions one titles request may name. */
const MAX_TITLE_IDS = 1000

/** Most sent references one `since` request may name. */
const MAX_SINCE = 32

/** Most chip ids one preflight may name. */
const MAX_CHIPS = 64

/** What the routes read. */
export interface RouteDependencies {
  readonly catalog: SessionCatalog
  readonly content: ContentSearch
  readonly check: SendCheck
  readonly settings: SessionsSettings
  readonly outcomes: OutcomeLog
  readonly messages: SourceMessages
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

/** Answers a route with its declared response. */
function answer<K extends Route>(res: ServerResponse, _route: K, body: RouteResponse<K>): void {
  send(res, 200, body)
}

/** The citing session as the host knows it, its workspace included; a session the host does not know is refused. A live session (a draft the page has open) is answered from memory at once; only another one waits for the session catalog. */
async function citing(ctx: Context, deps: RouteDependencies, body: Record<string, unknown>): Promise<ReferenceTarget> {
  const id = renamedString(body, 'citingSessionId', 'sessionId')
  const live = ctx.sessions.get(SessionId(id))?.header
  if (live !== undefined) return { id, cwd: live.cwd }
  await deps.catalog.ready()
  const known = await deps.catalog.lookup(id)
  if (known === undefined) throw new DshSessionsError(`session "${id}" not found`, 'not-found')
  return { id, cwd: known.cwd }
}

/** The citing session (see {@link citing}), answered once the session catalog has listed: for a route that reads the index after naming its citing session, a live draft's included. */
async function listedCiting(ctx: Context, deps: RouteDependencies, body: Record<string, unknown>): Promise<ReferenceTarget> {
  const who = await citing(ctx, deps, body)
  await deps.catalog.ready()
  return who
}

/** Each route's body parser: the body read as the route's declared request, or a `bad-request` refusal naming the first field that is not. A scoped route's `citingSessionId` is checked last, as `citing` reads it. */
const parse: { readonly [K in Route]: (body: Record<string, unknown>) => RouteRequest<K> } = {
  candidates(body) {
    const query = optionalString(body, 'query') ?? ''
    const limit = optionalNumber(body, 'limit')
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) throw new DshSessionsError('"limit" must be a whole number ≥ 1', 'bad-request')
    return { query, ...(limit === undefined ? {} : { limit }), citingSessionId: renamedString(body, 'citingSessionId', 'sessionId') }
  },
  preflight(body) {
    const text = requiredString(body, 'text')
    const value = body.chips
    if (value !== undefined && (!Array.isArray(value) || value.length > MAX_CHIPS || !value.every(item => typeof item === 'string'))) {
      throw new DshSessionsError(`"chips" must be a list of at most ${MAX_CHIPS} session ids`, 'bad-request')
    }
    return { text, ...(value === undefined ? {} : { chips: value as string[] }), citingSessionId: renamedString(body, 'citingSessionId', 'sessionId') }
  },
  outcomes(body) {
    const citingSessionId = renamedString(body, 'citingSessionId', 'sessionId')
    const after = optionalNumber(body, 'after') ?? 0
    const waitMs = optionalNumber(body, 'waitMs') ?? 0
    if (!Number.isSafeInteger(after) || after < 0) throw new DshSessionsError('"after" must be a whole number ≥ 0', 'bad-request')
    if (!Number.isFinite(waitMs) || waitMs < 0) throw new DshSessionsError('"waitMs" must be a number ≥ 0', 'bad-request')
    return { citingSessionId, after, waitMs }
  },
  search(body) {
    const query = body.query
    if (typeof query !== 'string') throw new DshSessionsError('"query" must be a string', 'bad-request')
    const limit = optionalNumber(body, 'limit') ?? DEFAULT_SIDEBAR_RESULTS
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SIDEBAR_RESULTS) throw new DshSessionsError(`"limit" must be a whole number from 1 to ${MAX_SIDEBAR_RESULTS}`, 'bad-request')
    return { query, limit }
  },
  titles(body) {
    const ids = body.ids
    if (!Array.isArray(ids) || ids.length > MAX_TITLE_IDS || !ids.every(id => typeof id === 'string')) {
      throw new DshSessionsError(`"ids" must be a list of at most ${MAX_TITLE_IDS} session ids`, 'bad-request')
    }
    return { ids: ids as string[] }
  },
  'message-reference'(body) {
    const sourceId = renamedString(body, 'sourceId', 'sessionId')
    const seq = optionalNumber(body, 'seq')
    if (seq !== undefined && (!Number.isSafeInteger(seq) || seq < 0)) throw new DshSessionsError('"seq" must be a whole number ≥ 0', 'bad-request')
    return seq !== undefined ? { sourceId, seq } : { sourceId, messageId: requiredString(body, 'messageId') }
  },
  mention: body => ({ sourceId: renamedString(body, 'sourceId', 'sessionId') }),
  messages(body) {
    const sourceId = renamedString(body, 'sourceId', 'source')
    return { sourceId, citingSessionId: renamedString(body, 'citingSessionId', 'sessionId') }
  },
  since(body) {
    const value = body.sources
    const valid = Array.isArray(value) && value.length <= MAX_SINCE && value.every(item => {
      if (typeof item !== 'object' || item === null) return false
      const { sessionId, capturedThroughSeq } = item as Record<string, unknown>
      return typeof sessionId === 'string' && sessionId !== ''
        && (capturedThroughSeq === null || (typeof capturedThroughSeq === 'number' && Number.isSafeInteger(capturedThroughSeq) && capturedThroughSeq >= 0))
    })
    if (!valid) throw new DshSessionsError(`"sources" must be a list of at most ${MAX_SINCE} { sessionId, capturedThroughSeq }`, 'bad-request')
    return { sources: (value as SentReference[]).map(({ sessionId, capturedThroughSeq }) => ({ sessionId, capturedThroughSeq })) }
  },
  related(body) {
    const text = body.text
    if (typeof text !== 'string') throw new DshSessionsError('"text" must be a string', 'bad-request')
    const value = body.except
    if (value !== undefined && (!Array.isArray(value) || value.length > MAX_CHIPS || !value.every(item => typeof item === 'string'))) {
      throw new DshSessionsError(`"except" must be a list of at most ${MAX_CHIPS} session ids`, 'bad-request')
    }
    return { text, ...(value === undefined ? {} : { except: value as string[] }), citingSessionId: renamedString(body, 'citingSessionId', 'sessionId') }
  },
  find(body) {
    const sessionId = requiredString(body, 'sessionId')
    const query = body.query
    if (typeof query !== 'string' || query.length > MAX_QUERY_LENGTH) throw new DshSessionsError(`"query" must be a string of at most ${MAX_QUERY_LENGTH} characters`, 'bad-request')
    const after = optionalNumber(body, 'after')
    if (after !== undefined && (!Number.isSafeInteger(after) || after < 0)) throw new DshSessionsError('"after" must be a whole number ≥ 0', 'bad-request')
    return { sessionId, query, ...(after === undefined ? {} : { after }) }
  },
}

async function candidates(ctx: Context, deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req)
  const { query = '', limit } = parse.candidates(body)
  const who = await listedCiting(ctx, deps, body)
  const config = deps.settings.current()
  const found = await listCandidates(deps.catalog, who, query, config, limit, deps.content)
  const indexing = deps.content.progress(session => isInScope(config.scope, who, session))
  answer(res, 'candidates', { candidates: found, ...(indexing === undefined ? {} : { indexing }) })
}

/** Checks a whole draft once (see `references/send-check.ts`). */
async function preflight(ctx: Context, deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req)
  const { text, chips } = parse.preflight(body)
  const who = await citing(ctx, deps, body)
  const abort = new AbortController()
  res.once('close', () => abort.abort())
  answer(res, 'preflight', await deps.check.preflight(who, text, chips, deps.settings.current(), abort.signal))
}

async function sidebarSearch(deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { query, limit = DEFAULT_SIDEBAR_RESULTS } = parse.search(await readJson(req))
  const abort = new AbortController()
  res.once('close', () => abort.abort())
  await deps.catalog.ready()
  const found = await searchSidebar(deps.catalog, deps.content, query, limit, abort.signal)
  if (abort.signal.aborted && res.destroyed) return
  answer(res, 'search', {
    results: found.matches.map(({ session, snippet }) => ({
      sessionId: session.id,
      ...(session.title === undefined ? {} : { title: session.title }),
      ...(snippet === undefined ? {} : { snippet }),
    })),
    hasMore: found.hasMore,
    ...(found.indexing === undefined ? {} : { indexing: found.indexing }),
  })
}

async function titles(deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { ids } = parse.titles(await readJson(req))
  await deps.catalog.ready()
  const known: Record<string, string> = {}
  for (const id of ids) {
    const title = deps.catalog.get(id)?.title
    if (title !== undefined) known[id] = title
  }
  answer(res, 'titles', { titles: known, pending: deps.content.progress() !== undefined })
}

async function outcomes(deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { citingSessionId, after = 0, waitMs = 0 } = parse.outcomes(await readJson(req))
  const abort = new AbortController()
  res.once('close', () => abort.abort())
  const found = await deps.outcomes.read(citingSessionId, after, Math.min(waitMs, MAX_OUTCOME_WAIT_MS), abort.signal)
  if (abort.signal.aborted && res.destroyed) return
  answer(res, 'outcomes', { outcomes: found, last: Math.max(after, deps.outcomes.latest()) })
}

async function messageReference(deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { sourceId, ...message } = parse['message-reference'](await readJson(req))
  await deps.catalog.ready()
  answer(res, 'message-reference', await deps.messages.reference(sourceId, message))
}

/** The canonical mention of a session the index holds; reads nothing for one it does not. */
async function mention(deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { sourceId: sessionId } = parse.mention(await readJson(req))
  await deps.catalog.ready()
  const known = deps.catalog.get(sessionId)
  if (known === undefined) throw new DshSessionsError(`session "${sessionId}" not found`, 'not-found')
  answer(res, 'mention', { sessionId, label: known.label, mention: mentionOf(known) })
}

/** A source's messages, for a draft's chip: only a source the current scope admits for that draft; any other looks missing. */
async function messages(ctx: Context, deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req)
  const { sourceId: source } = parse.messages(body)
  const who = await listedCiting(ctx, deps, body)
  const known = deps.catalog.get(source)
  if (known === undefined || !isInScope(deps.settings.current().scope, who, known)) throw new DshSessionsError(`session "${source}" not found`, 'not-found')
  answer(res, 'messages', await deps.messages.list(source))
}

async function since(deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { sources } = parse.since(await readJson(req))
  await deps.catalog.ready()
  answer(res, 'since', { sources: await deps.messages.since(sources) })
}

/** The sessions a draft is about, in the citing session's scope; none while the setting is off. */
async function related(ctx: Context, deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req)
  const { text, except = [] } = parse.related(body)
  const who = await listedCiting(ctx, deps, body)
  const config = deps.settings.current()
  answer(res, 'related', { sessions: config.suggestRelated ? await relatedSessions(deps, who, text, config, except) : [] })
}

/** The matches of a query inside one session the host lists (or has open), for the find bar; any other answers as missing, before any of its text is read. */
async function find(ctx: Context, deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { sessionId, query, after = 0 } = parse.find(await readJson(req))
  const live = ctx.sessions.get(SessionId(sessionId)) !== undefined
  if (!live) await deps.catalog.ready()
  if (!live && deps.catalog.get(sessionId) === undefined) throw new DshSessionsError(`session "${sessionId}" not found`, 'not-found')
  const terms = queryTerms(query)
  const found = terms.length === 0 ? { matches: [], total: 0, complete: true } : await deps.content.findInSession(sessionId, terms, after, MAX_FIND_MATCHES)
  if (found === undefined) throw new DshSessionsError(`session "${sessionId}" not found`, 'not-found')
  answer(res, 'find', {
    matches: found.matches.map(({ message, snippet, origin }) => ({
      number: message,
      ...(origin === undefined ? {} : { seq: origin.seq, role: origin.role }),
      snippet: { text: snippet.text, marks: snippet.marks },
    })),
    total: found.total,
    complete: found.complete,
  })
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
  const endpoints: Record<string, Endpoint> = {
    [`${ROUTE_PREFIX}/candidates`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => candidates(ctx, deps, req, res) },
    [`${ROUTE_PREFIX}/preflight`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => preflight(ctx, deps, req, res) },
    [`${ROUTE_PREFIX}/outcomes`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => outcomes(deps, req, res) },
    [`${ROUTE_PREFIX}/search`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => sidebarSearch(deps, req, res) },
    [`${ROUTE_PREFIX}/titles`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => titles(deps, req, res) },
    [`${ROUTE_PREFIX}/message-reference`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => messageReference(deps, req, res) },
    [`${ROUTE_PREFIX}/mention`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => mention(deps, req, res) },
    [`${ROUTE_PREFIX}/messages`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => messages(ctx, deps, req, res) },
    [`${ROUTE_PREFIX}/since`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => since(deps, req, res) },
    [`${ROUTE_PREFIX}/related`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => related(ctx, deps, req, res) },
    [`${ROUTE_PREFIX}/find`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => find(ctx, deps, req, res) },
    [`${ROUTE_PREFIX}/content-index`]: { methods: { GET: 'trusted-host' }, handle: (_req, res) => Promise.resolve(send(res, 200, { ...deps.content.status(), catalog: deps.catalog.catalogStatus() })) },
    [`${ROUTE_PREFIX}/settings`]: { methods: { GET: 'trusted-host', POST: 'loopback' }, handle: (req, res) => settings(deps, req, res) },
  }
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
