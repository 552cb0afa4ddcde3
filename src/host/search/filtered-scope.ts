/**
 * A scope narrowed by a query's filters (`in:`, `after:`, `before:`): its sessions that pass, as a set
 * of its own, kept while the scope's set and the filters stay the same, so the search worker keeps it
 * between keystrokes as it keeps a scope.
 * @module @wishp3/dsh-sessions/host/search/filtered-scope
 */
import type { CatalogedSession } from '../sessions/session-catalog.ts'
import type { ScopeSet } from '../sessions/scope-views.ts'
import { passes, type QueryFilters } from './text/query-grammar.ts'

/** Narrowed sets kept per scope set, a few filters each. */
const narrowed = new WeakMap<ReadonlySet<string>, Map<string, ScopeSet>>()

/** Filters kept per scope set; the oldest goes first. */
const MAX_KEPT = 8

/** The part of a scope's sessions a query's filters keep. `scope`: the scope's set. `sessions`: its sessions, in the order they are ranked. Returns the set of those that pass, keyed by the scope and the filters; the scope's own set when the query has no workspace or time filter. */
export function filteredScope(scope: ScopeSet, sessions: readonly CatalogedSession[], filters: QueryFilters): ScopeSet {
  if (filters.in === undefined && filters.after === undefined && filters.before === undefined) return scope
  const key = `${scope.key}\u0000${JSON.stringify([filters.in ?? null, filters.after ?? null, filters.before ?? null])}`
  let kept = narrowed.get(scope.ids)
  if (kept === undefined) {
    kept = new Map()
    narrowed.set(scope.ids, kept)
  }
  const held = kept.get(key)
  if (held !== undefined) return held
  const set: ScopeSet = { key, ids: new Set(sessions.filter(session => passes(filters, session)).map(session => session.id)) }
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!)
  kept.set(key, set)
  return set
}
