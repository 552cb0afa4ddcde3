/**
 * The `read_session` model tool: the messages of a session the calling session may reference, the
 * user's own messages and the assistant's reply text, numbered as `search_sessions` numbers them, one
 * bounded page per call, with where to continue; the messages around one of them; or the messages that
 * match a query, best first.
 * @module @wishp3/dsh-sessions/host/tools/read-session
 */
import type { Context } from '@deepseek-ai/cordis'
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools'
import { callingTarget, visibleSession } from './calling-session.ts'
import type { SessionToolDependencies } from './search-sessions.ts'
import { framedContent } from '../official/session-reference.ts'
import { MAX_QUERY_LENGTH, queryTerms } from '../search/text/terms.ts'
import { DshSessionsError } from '../errors.ts'

/** The tool's name. */
export const READ_SESSION = 'read_session'

/** Characters one page holds unless the call asks otherwise. */
export const DEFAULT_READ_CHARS = 6_000

/** Fewest characters one call may ask for. */
export const MIN_READ_CHARS = 500

/** Most characters one call may ask for. */
export const MAX_READ_CHARS = 20_000

/** Most matches one query returns. */
export const MAX_MATCHES = 20

/** Messages a read `around` a message starts before it. */
export const AROUND_BEFORE = 2

/** The one answer for every session the caller may not read. */
const NOT_FOUND = { found: false as const, note: 'No session with this id can be read from here.' }

/** The tool's definition. `deps`: the indexes, the settings and the snapshot framing. */
export function readSessionTool(ctx: Context, deps: SessionToolDependencies): ToolDefinition {
  return defineTool({
    name: READ_SESSION,
    description: `Read an earlier session's user and assistant messages, numbered from 1: up to maxChars characters (default ${DEFAULT_READ_CHARS}) from fromMessage, or from ${AROUND_BEFORE} before message \`around\`, with where to continue. With query: the messages holding every word (as search_sessions matches), best first, at most ${MAX_MATCHES}, each with its number, role, time and excerpt.`,
    parameters: {
      sessionId: { type: 'string', required: true },
      query: { type: 'string' },
      around: { type: 'integer' },
      fromMessage: { type: 'integer' },
      maxChars: { type: 'integer', description: `${MIN_READ_CHARS} to ${MAX_READ_CHARS}.` },
    },
    output: {
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          found: { type: 'boolean', required: true },
          note: { type: 'string' },
          sessionId: { type: 'string' },
          title: { type: 'string' },
          workspace: { type: 'string' },
          totalMessages: { type: 'integer' },
          messages: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              properties: {
                n: { type: 'integer', required: true },
                role: { type: 'string', enum: ['user', 'assistant'], required: true },
                text: { type: 'string', required: true },
                cut: { type: 'boolean' },
              },
            },
          },
          nextFromMessage: { type: 'integer' },
          matches: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              properties: {
                n: { type: 'integer', required: true },
                role: { type: 'string', enum: ['user', 'assistant'] },
                time: { type: 'string' },
                excerpt: { type: 'string', required: true },
              },
            },
          },
          moreMatches: { type: 'boolean' },
        },
      },
      render: (_args, value) => framedContent(deps.framing.current(), value),
    },
    isConcurrencySafe: () => true,
    async execute(args, exec) {
      await deps.framing.load()
      if (args.query !== undefined && (args.around !== undefined || args.fromMessage !== undefined)) throw new DshSessionsError('query takes neither around nor fromMessage', 'bad-request')
      if (args.around !== undefined && args.fromMessage !== undefined) throw new DshSessionsError('pass around or fromMessage, not both', 'bad-request')
      if (args.around !== undefined && (!Number.isSafeInteger(args.around) || args.around < 1)) throw new DshSessionsError('around must be a whole number ≥ 1', 'bad-request')
      const terms = args.query === undefined ? undefined : queryTerms(args.query)
      if (terms !== undefined && terms.length === 0) throw new DshSessionsError(`query must hold a word of two characters or more, or Chinese or Japanese text, in at most ${MAX_QUERY_LENGTH} characters`, 'bad-request')
      const from = args.around === undefined ? args.fromMessage ?? 1 : Math.max(1, args.around - AROUND_BEFORE)
      const maxChars = args.maxChars ?? DEFAULT_READ_CHARS
      if (!Number.isSafeInteger(from) || from < 1) throw new DshSessionsError('fromMessage must be a whole number ≥ 1', 'bad-request')
      if (!Number.isSafeInteger(maxChars) || maxChars < MIN_READ_CHARS || maxChars > MAX_READ_CHARS) {
        throw new DshSessionsError(`maxChars must be a whole number from ${MIN_READ_CHARS} to ${MAX_READ_CHARS}`, 'bad-request')
      }
      const target = callingTarget(ctx, deps.catalog, exec.agent)
      if (target === undefined) return NOT_FOUND
      await deps.catalog.ready()
      const session = await visibleSession(deps.catalog, { target: target, scope: deps.settings.current().scope }, args.sessionId)
      if (session === undefined) return NOT_FOUND
      exec.signal.throwIfAborted()
      const about = { found: true as const, sessionId: session.id, title: session.label, ...(session.cwd === undefined ? {} : { workspace: session.cwd }) }
      if (terms !== undefined) {
        const found = await deps.content.searchSession(session.id, terms, MAX_MATCHES)
        if (found === undefined) return NOT_FOUND
        return {
          ...about,
          matches: found.matches.map(match => ({
            n: match.message,
            ...(match.origin === undefined ? {} : { role: match.origin.role }),
            ...(match.origin === undefined || match.origin.time <= 0 ? {} : { time: new Date(match.origin.time).toISOString() }),
            excerpt: match.snippet.text,
          })),
          ...(found.more ? { moreMatches: true } : {}),
        }
      }
      const page = await deps.content.page(session.id, from, maxChars)
      if (page === undefined) return NOT_FOUND
      return {
        ...about,
        totalMessages: page.total,
        messages: page.messages.map(message => ({ n: message.n, role: message.role, text: message.text, ...(message.cut === true ? { cut: true } : {}) })),
        ...(page.next === undefined ? {} : { nextFromMessage: page.next }),
      }
    },
  })
}
