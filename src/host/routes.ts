/**
 * The `/dsh-sessions` HTTP routes (H3, H4, D5, E2), behind the `/api` trust
 * fence. Bodies are JSON objects of at most {@link MAX_BODY_BYTES}; every
 * refusal is a 4xx with `{ error: { code, message } }`, and a failing
 * handler never takes the server down.
 *
 * - `POST /dsh-sessions/candidates` `{ sessionId, query?, cwd?, limit? }` → `{ candidates }`
 * - `POST /dsh-sessions/preflight` `{ sessionId, text, cwd? }` → `{ ok: true, references }` or `{ ok: false, code, message }`
 * - `GET /dsh-sessions/settings` → the effective settings
 * - `POST /dsh-sessions/settings` `{ …partial settings }` → the effective settings after the write
 *
 * Reads admit loopback and the deployment's trusted hosts, like `/api`; the
 * settings write admits loopback only, like the host's own settings methods.
 *
 * `cwd` is the workspace of a session the host does not know yet (a new,
 * unsent draft); a known session's own cwd always wins.
 * @module @wishp3/dsh-sessions/host/routes
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-host-webserver'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { listCandidates } from './candidates.ts'
import { codeOf, type ReferenceResolver } from './resolver.ts'
import type { ReferenceTarget } from './scope.ts'
import type { SessionIndex } from './session-index.ts'
import { type SessionsSettings, SettingsWriteError } from './settings.ts'
import { isAdmitted, type RouteAuthority } from './trust.ts'

/** Route prefix. */
export const ROUTE_PREFIX = '/dsh-sessions'

/** Largest accepted request body. */
export const MAX_BODY_BYTES = 64 * 1024

/** What the routes read. */
export interface RouteDependencies {
  readonly index: SessionIndex
  readonly resolver: ReferenceResolver
  readonly settings: SessionsSettings
}

class HttpError extends Error {
  readonly status: number
  readonly code: string

  constructor(status: number, code: string, message: string) {
    super(message)
    this.status = status
    this.code = code
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
  res.end(text)
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? ''
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new HttpError(415, 'unsupported-media-type', 'the body must be application/json')
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY_BYTES) throw new HttpError(413, 'body-too-large', `the body exceeds ${MAX_BODY_BYTES} bytes`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'body-too-large', `the body exceeds ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk)
  }
  let body: unknown
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw new HttpError(400, 'malformed-json', 'the body is not valid JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'bad-request', 'the body must be a JSON object')
  return body as Record<string, unknown>
}

function field<T extends 'string' | 'number'>(body: Record<string, unknown>, key: string, type: T, required: boolean): (T extends 'string' ? string : number) | undefined {
  const value = body[key]
  if (value === undefined && !required) return undefined
  if (typeof value !== type || (type === 'string' && required && value === '')) {
    throw new HttpError(400, 'bad-request', `"${key}" must be a ${required ? 'non-empty ' : ''}${type}`)
  }
  return value as never
}

function target(deps: RouteDependencies, ctx: Context, body: Record<string, unknown>): ReferenceTarget {
  const id = field(body, 'sessionId', 'string', true)!
  const cwd = field(body, 'cwd', 'string', false)
  const known = ctx.sessions.get(id as never)?.header ?? deps.index.get(id)
  return { id, cwd: known !== undefined ? known.cwd : cwd }
}

async function candidates(ctx: Context, deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req)
  const who = target(deps, ctx, body)
  const query = field(body, 'query', 'string', false) ?? ''
  const limit = field(body, 'limit', 'number', false)
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) throw new HttpError(400, 'bad-request', '"limit" must be a whole number ≥ 1')
  await deps.index.ready()
  send(res, 200, { candidates: listCandidates(deps.index, who, query, deps.settings.current(), limit) })
}

async function preflight(ctx: Context, deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req)
  const who = target(deps, ctx, body)
  const text = field(body, 'text', 'string', true)!
  await deps.index.ready()
  const resolved = await deps.resolver.resolveText(who, text, deps.settings.current())
  const [failure] = resolved.failures
  if (failure !== undefined) {
    send(res, 200, { ok: false, code: failure.code, message: failure.message, ...(failure.sessionId === undefined ? {} : { sessionId: failure.sessionId }) })
    return
  }
  if (resolved.references.length > 0) {
    const abort = new AbortController()
    res.once('close', () => abort.abort())
    const content: ContentBlock[] = [{ type: 'text', text: resolved.text }]
    try {
      await deps.resolver.prepare(who, content, resolved.references, abort.signal)
    } catch (error) {
      send(res, 200, { ok: false, code: codeOf(error, 'SESSION_REFERENCE_READ_FAILED'), message: (error as Error).message })
      return
    }
  }
  send(res, 200, { ok: true, text: resolved.text, references: resolved.references })
}

async function settings(deps: RouteDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'GET') {
    send(res, 200, deps.settings.current())
    return
  }
  try {
    send(res, 200, await deps.settings.update(await readJson(req)))
  } catch (error) {
    if (error instanceof SettingsWriteError) {
      throw new HttpError(error.status, { 400: 'invalid-settings', 409: 'settings-refused', 503: 'unavailable' }[error.status], error.message)
    }
    throw error
  }
}

/**
 * Registers the routes on the web server, on the row's fiber.
 * @param ctx - the row's context (injects `webServer`).
 * @param deps - the index, resolver and settings the routes serve.
 */
export function registerRoutes(ctx: Context, deps: RouteDependencies): void {
  const logger = ctx.logger('dsh-sessions')
  type Endpoint = { methods: Readonly<Record<string, RouteAuthority>>; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> }
  const endpoints: Record<string, Endpoint> = {
    [`${ROUTE_PREFIX}/candidates`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => candidates(ctx, deps, req, res) },
    [`${ROUTE_PREFIX}/preflight`]: { methods: { POST: 'trusted-host' }, handle: (req, res) => preflight(ctx, deps, req, res) },
    [`${ROUTE_PREFIX}/settings`]: { methods: { GET: 'trusted-host', POST: 'loopback' }, handle: (req, res) => settings(deps, req, res) },
  }
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const trustedHosts = ctx.get('webRuntime')?.trustedHosts ?? []
      if (!isAdmitted(req.headers, 'trusted-host', trustedHosts)) throw new HttpError(403, 'forbidden', 'request refused by the host trust fence')
      const path = new URL(req.url ?? '/', 'http://host').pathname.replace(/\/+$/, '')
      const endpoint = endpoints[path]
      if (endpoint === undefined) throw new HttpError(404, 'not-found', `no route ${path}`)
      const authority = Object.hasOwn(endpoint.methods, req.method ?? '') ? endpoint.methods[req.method!] : undefined
      if (authority === undefined) {
        res.setHeader('allow', Object.keys(endpoint.methods).join(', '))
        throw new HttpError(405, 'method-not-allowed', `${req.method} is not allowed on ${path}`)
      }
      if (!isAdmitted(req.headers, authority, trustedHosts)) {
        throw new HttpError(403, 'forbidden', `${req.method} ${path} is served to loopback only`)
      }
      await endpoint.handle(req, res)
    } catch (error) {
      if (res.headersSent) {
        res.destroy()
        return
      }
      if (error instanceof HttpError) {
        if (error.status === 413) res.setHeader('connection', 'close')
        send(res, error.status, { error: { code: error.code, message: error.message } })
        return
      }
      logger.warn('route %s failed: %s', req.url, error)
      send(res, 500, { error: { code: 'internal', message: 'internal error' } })
    }
  }
  ctx.effect(() => ctx.webServer.register({ kind: 'prefix', path: ROUTE_PREFIX, handler }), 'dsh-sessions: routes')
}
