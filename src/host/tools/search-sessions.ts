/**
 * The `search_sessions` model tool: the sessions the calling session may reference that match a query,
 * ranked as the `@` menu ranks them (title, id and workspace matches first, then matches of what was
 * said, each with an excerpt and the number of the matching message).
 * @module @wishp3/dsh-sessions/host/tools/search-sessions
 */
import type { Context } from '@deepseek-ai/cordis'
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools'
import { listCandidates } from '../references/candidates.ts'
import { parseQuery } from '../search/text/query-grammar.ts'
import type { ContentSearch } from '../search/content-search.ts'
import { isInScope } from '../sessions/scope.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'
import type { SessionsSettings } from '../settings.ts'
import { callingTarget } from './calling-session.ts'
import { framedContent, type Framing } from '../official/session-reference.ts'
import { DshSessionsError } from '../errors.ts'

/** The tool's name. */
export const SEARCH_SESSIONS = 'search_sessions'

/** Sessions returned unless the call asks otherwise. */
export const DEFAULT_SEARCH_LIMIT = 8

/** Most sessions one call returns. */
export const MAX_SEARCH_LIMIT = 20

/** Longest query searched; longer ones are refused. */
const MAX_QUERY = 256

/** The filter arguments as the query's own filter tokens; an argument that is not a well-formed filter is refused, naming it. */
function filterTokens(args: { readonly workspace?: string | undefined; readonly after?: string | undefined; readonly before?: string | undefined; readonly from?: string | undefined }): string {
  const tokens: string[] = []
  const add = (filter: { readonly name: string; readonly key: string; readonly expected: string }, value: string | undefined): void => {
    const { name, key, expected } = filter
    if (value === undefined) return
    if (typeof value !== 'string' || value.length > MAX_QUERY || value.includes('"')) throw new DshSessionsError(`${name} must be ${expected}`, 'bad-request')
    const token = `${key}:"${value.trim()}"`
    if (parseQuery(token).text !== '') throw new DshSessionsError(`${name} must be ${expected}`, 'bad-request')
    tokens.push(token)
  }
  add({ name: 'workspace', key: 'in', expected: 'a workspace folder name or path' }, args.workspace)
  add({ name: 'after', key: 'after', expected: 'a date (2026-11-01) or an age (7d, 2w, 12h)' }, args.after)
  add({ name: 'before', key: 'before', expected: 'a date (2026-11-01) or an age (7d, 2w, 12h)' }, args.before)
  add({ name: 'from', key: 'from', expected: 'me or agent' }, args.from)
  return tokens.join(' ')
}

/** What the tool uses. */
export interface SessionToolDependencies {
  readonly catalog: SessionCatalog
  readonly content: ContentSearch
  readonly settings: SessionsSettings
  /** The official snapshot framing the results are rendered in. */
  readonly framing: Framing
}

/** The tool's definition. `deps`: the indexes, the settings and the snapshot framing. */
export function searchSessionsTool(ctx: Context, deps: SessionToolDependencies): ToolDefinition {
  return defineTool({
    name: SEARCH_SESSIONS,
    description: 'Find earlier sessions in scope (this workspace, unless the user allows all) by title or by what was said: those holding every word first, then those holding some, with `missing`. Word forms count (fails finds failed); Chinese words in any order; "a phrase" as written; the last word may be a prefix. Filters, in the query or as arguments: in:<folder>, after: and before: (2026-11-01 or 7d), from:me or from:agent. Gives ids, titles, times, and excerpts with message numbers for read_session.',
    parameters: {
      query: { type: 'string', required: true },
      limit: { type: 'integer', description: `1 to ${MAX_SEARCH_LIMIT}, default ${DEFAULT_SEARCH_LIMIT}.` },
      workspace: { type: 'string', description: 'Folder (in:).' },
      after: { type: 'string' },
      before: { type: 'string' },
      from: { type: 'string', enum: ['me', 'agent'] },
    },
    output: {
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          query: { type: 'string', required: true },
          indexing: { type: 'string' },
          sessions: {
            type: 'array',
            required: true,
            items: {
              type: 'object',
              additionalProperties: false,
              properties: {
                sessionId: { type: 'string', required: true },
                title: { type: 'string', required: true },
                workspace: { type: 'string' },
                created: { type: 'string', required: true },
                lastActivity: { type: 'string' },
                excerpt: { type: 'string' },
                message: { type: 'integer' },
                missing: { type: 'array', items: { type: 'string' } },
              },
            },
          },
        },
      },
      render: (_args, value) => framedContent(deps.framing.current(), value),
    },
    isConcurrencySafe: () => true,
    async execute(args, exec) {
      await deps.framing.load()
      const query = args.query.trim()
      if (query === '') throw new DshSessionsError('query must not be empty', 'bad-request')
      if (query.length > MAX_QUERY) throw new DshSessionsError(`query must be at most ${MAX_QUERY} characters`, 'bad-request')
      const limit = args.limit ?? DEFAULT_SEARCH_LIMIT
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) throw new DshSessionsError(`limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`, 'bad-request')
      const filtered = `${query} ${filterTokens(args)}`.trim()
      const target = callingTarget(ctx, deps.catalog, exec.agent)
      if (target === undefined) return { query, sessions: [] }
      await deps.catalog.ready()
      exec.signal.throwIfAborted()
      const config = deps.settings.current()
      const found = await listCandidates(deps, { target, query: filtered, scope: config.scope, candidateLimit: limit })
      const activity = await Promise.all(found.map(candidate => deps.content.lastActivity(candidate.sessionId)))
      const indexing = deps.content.progress(session => isInScope(config.scope, target, session))
      return {
        query,
        ...(indexing === undefined ? {} : { indexing: indexing.paused === 'low-disk'
          ? `Indexing what was said is paused: low disk space. ${indexing.indexed} of ${indexing.total} sessions are indexed; the rest are found by title only until space returns.`
          : `The index of what was said is still being built: ${indexing.indexed} of ${indexing.total} sessions so far, newest first. Titles cover every session.` }),
        sessions: found.map((candidate, n) => ({
          sessionId: candidate.sessionId,
          title: candidate.label,
          ...(candidate.cwd === undefined ? {} : { workspace: candidate.cwd }),
          created: new Date(candidate.createdAt).toISOString(),
          ...(activity[n] === undefined ? {} : { lastActivity: new Date(activity[n]).toISOString() }),
          ...(candidate.snippet === undefined ? {} : { excerpt: candidate.snippet.text }),
          ...(candidate.snippet?.message === undefined ? {} : { message: candidate.snippet.message }),
          ...(candidate.snippet?.missing === undefined ? {} : { missing: [...candidate.snippet.missing] }),
        })),
      }
    },
  })
}
