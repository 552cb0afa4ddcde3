/**
 * What a row of one of this plugin's model tools shows, read from the call alone.
 * @module @wishp3/dsh-sessions/client/core/session-tool
 */

export const SEARCH_SESSIONS_TOOL = 'search_sessions'
export const READ_SESSION_TOOL = 'read_session'

export type ToolRowState = 'running' | 'ok' | 'error' | 'stopped'

export interface ToolRowSession {
  readonly sessionId: string
  readonly title: string
}

export type ToolRowModel =
  | { readonly tool: 'search'; readonly state: ToolRowState; readonly query: string; readonly sessions?: readonly ToolRowSession[] }
  | { readonly tool: 'read'; readonly state: ToolRowState; readonly session?: ToolRowSession; readonly range?: readonly [number, number]; readonly found?: boolean
    /** A search inside the session: its query, and how many messages matched once settled. */
    readonly query?: string; readonly matches?: number }

/** The parts of a call this model reads: the arguments as the model wrote them, and the settled outcome. */
export interface ToolCallSource {
  readonly argsRaw: string
  readonly settled: boolean
  readonly isError: boolean
  readonly interrupted: boolean
  readonly text?: string
}

function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start < 0 || end < start) return undefined
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined
  } catch {
    // Arguments that are not JSON: the row shows the host's own rendering.
    return undefined
  }
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/** The model of a row. Returns the model; `undefined` for another tool. */
export function toolRowModel(toolName: string, call: ToolCallSource): ToolRowModel | undefined {
  const state: ToolRowState = !call.settled ? 'running' : call.interrupted ? 'stopped' : call.isError ? 'error' : 'ok'
  const args = jsonObject(call.argsRaw) ?? {}
  const result = state === 'ok' ? jsonObject(call.text) : undefined
  if (toolName === SEARCH_SESSIONS_TOOL) {
    const listed = Array.isArray(result?.sessions) ? result.sessions as unknown[] : undefined
    const sessions = listed?.flatMap(item => {
      const entry = item as Record<string, unknown> | null
      const sessionId = str(entry?.sessionId)
      const title = str(entry?.title)
      return sessionId === undefined || title === undefined ? [] : [{ sessionId, title }]
    })
    return { tool: 'search', state, query: str(args.query) ?? '', ...(sessions === undefined ? {} : { sessions }) }
  }
  if (toolName === READ_SESSION_TOOL) {
    const query = str(args.query)
    const asked = query === undefined ? {} : { query }
    if (result === undefined) return { tool: 'read', state, ...asked }
    if (result.found !== true) return { tool: 'read', state, found: false, ...asked }
    const messages = Array.isArray(result.messages) ? result.messages as { n?: unknown }[] : []
    const numbers = messages.map(message => message.n).filter((n): n is number => typeof n === 'number')
    const sessionId = str(result.sessionId)
    const title = str(result.title)
    return {
      tool: 'read',
      state,
      found: true,
      ...asked,
      ...(Array.isArray(result.matches) ? { matches: result.matches.length } : {}),
      ...(sessionId === undefined || title === undefined ? {} : { session: { sessionId, title } }),
      ...(numbers.length === 0 ? {} : { range: [numbers[0]!, numbers.at(-1)!] as const }),
    }
  }
  return undefined
}
