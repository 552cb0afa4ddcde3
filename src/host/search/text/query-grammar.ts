/**
 * The filters a search query may carry besides its words, as people type them elsewhere:
 * `in:<workspace>`, `after:` and `before:` (a date, `2026-11-01`, or an age, `7d`), `from:me` and
 * `from:agent`. A token that is not a well-formed filter stays a word of the query, never an error.
 * @module @wishp3/dsh-sessions/host/search/text/query-grammar
 */
import type { MessageRole } from '../../official/conversation.ts'
import { fold } from './terms.ts'

/** What a query's filters keep: sessions of a workspace, created in a time window, and words said by one side. */
export interface QueryFilters {
  /** A workspace's folder name, or its whole path, folded. */
  readonly in?: string
  /** Unix epoch milliseconds: only sessions created at or after this. */
  readonly after?: number
  /** Unix epoch milliseconds: only sessions created before this. */
  readonly before?: number
  /** Only words said by the person (`user`) or by the model (`assistant`). */
  readonly from?: MessageRole
}

/** A query read: its words (and quoted phrases, as typed) and its filters. */
export interface ParsedQuery {
  /** The query without its filters: what titles and content are searched for. */
  readonly text: string
  readonly filters: QueryFilters
}

const DAY = 86_400_000
const AGE_UNITS: Readonly<Record<string, number>> = { h: 3_600_000, d: DAY, w: 7 * DAY, m: 30 * DAY, y: 365 * DAY }
const AGE = /^(\d{1,4})([hdwmy])$/u
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/u
const ROLES: Readonly<Record<string, MessageRole>> = { me: 'user', user: 'user', i: 'user', '我': 'user', agent: 'assistant', assistant: 'assistant', model: 'assistant', ai: 'assistant', '智能体': 'assistant', '助手': 'assistant', '模型': 'assistant' }

/** A filter token: a key, a colon and a value (quoted, or up to the next space). */
const FILTER = /(^|\s)(in|after|before|from):("[^"]*"|[^\s"]+)(?=\s|$)/giu

/** A point in time a value names: a calendar date (midnight UTC) or an age before `now`; `undefined` when it names none. */
function timeOf(value: string, now: number): number | undefined {
  const age = AGE.exec(value)
  // Ages count back from the minute, so a query typed again within it asks the same window.
  if (age !== null) return Math.floor(now / 60_000) * 60_000 - Number(age[1]) * AGE_UNITS[age[2]!]!
  const date = DATE.exec(value)
  if (date === null) return undefined
  const time = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]))
  const back = new Date(time)
  return back.getUTCMonth() === Number(date[2]) - 1 && back.getUTCDate() === Number(date[3]) ? time : undefined
}

/** Reads a query's filters. The last of each key wins; a malformed one (`after:yesterdayish`, `from:nobody`, `in:`) stays in the text as words. `query`: the text typed, already bounded in length. `now`: the time ages count back from. */
export function parseQuery(query: string, now: number = Date.now()): ParsedQuery {
  const filters: { -readonly [K in keyof QueryFilters]: QueryFilters[K] } = {}
  const text = query.replace(FILTER, (...match: string[]) => {
    const [whole, space, key, raw] = match as [string, string, string, string]
    const value = raw.startsWith('"') ? raw.slice(1, -1).trim() : raw
    switch (key.toLowerCase()) {
      case 'in':
        if (value === '') return whole
        filters.in = fold(value)
        return space
      case 'after':
      case 'before': {
        const time = timeOf(value.toLowerCase(), now)
        if (time === undefined) return whole
        filters[key.toLowerCase() as 'after' | 'before'] = time
        return space
      }
      default: {
        const role = ROLES[fold(value)]
        if (role === undefined) return whole
        filters.from = role
        return space
      }
    }
  })
  return { text: text.replace(/\s+/gu, ' ').trim(), filters }
}

/** Whether a query has a filter. */
export function hasFilters(filters: QueryFilters): boolean {
  return filters.in !== undefined || filters.after !== undefined || filters.before !== undefined || filters.from !== undefined
}

/** Whether a session passes a query's workspace and time filters (`from:` applies to its words, not to it). `session`: its working directory and creation time. */
export function passes(filters: QueryFilters, session: { readonly cwd: string | undefined; readonly createdAt: number }): boolean {
  if (filters.after !== undefined && session.createdAt < filters.after) return false
  if (filters.before !== undefined && session.createdAt >= filters.before) return false
  if (filters.in !== undefined) {
    if (session.cwd === undefined) return false
    const cwd = fold(session.cwd).replace(/[\\/]+$/u, '')
    const name = cwd.slice(Math.max(cwd.lastIndexOf('/'), cwd.lastIndexOf('\\')) + 1)
    if (name !== filters.in && cwd !== filters.in.replace(/[\\/]+$/u, '')) return false
  }
  return true
}
