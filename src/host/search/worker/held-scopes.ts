/**
 * The scopes the search worker keeps between queries: per key, the version the host half named and the
 * ids of its sessions, and, once a query needs to read the rows of those sessions alone, a temporary
 * table of their session numbers in the index file (see {@link ScopeRows}), kept equal to the ids as
 * sessions are indexed and forgotten.
 * @module @wishp3/dsh-sessions/host/search/worker/held-scopes
 */
import { SCOPES_HELD } from '../worker-protocol.ts'


/** Where a held scope's session numbers live: temporary tables of the index file, by slot. */
export interface ScopeRows {
  /** Makes a slot's table hold the numbers of these sessions (those the file holds). */
  fillScope(slot: number, ids: readonly string[]): string
  /** Adds a session's number to a slot's table, if the file holds the session. */
  includeInScope(slot: number, id: string): void
  /** Removes a session's number from a slot's table (before the session is forgotten). */
  excludeFromScope(slot: number, id: string): void
}

/** One held scope. */
export interface HeldScope {
  readonly key: string
  readonly version: number
  readonly ids: ReadonlySet<string>
  readonly slot: number
  /** The table of its session numbers, once filled. */
  table: string | undefined
}

/** The held scopes of one index file. */
export class HeldScopes {
  private readonly held = new Map<string, HeldScope>()

  /** Holds a scope's sessions under a key and version, in place of what the key held. */
  hold(key: string, version: number, ids: readonly string[]): HeldScope {
    const replaced = this.held.get(key)
    this.held.delete(key)
    let slot = replaced?.slot
    if (slot === undefined && this.held.size >= SCOPES_HELD) {
      const oldest = this.held.values().next().value!
      this.held.delete(oldest.key)
      slot = oldest.slot
    }
    if (slot === undefined) {
      const used = new Set([...this.held.values()].map(scope => scope.slot))
      slot = 0
      while (used.has(slot)) slot += 1
    }
    const scope: HeldScope = { key, version, ids: new Set(ids), slot, table: undefined }
    this.held.set(key, scope)
    return scope
  }

  /** The scope held under a key, if it is of this version. Returns the scope; `undefined` when another version or none is held. */
  get(key: string, version: number): HeldScope | undefined {
    const scope = this.held.get(key)
    if (scope?.version !== version) return undefined
    this.held.delete(key)
    this.held.set(key, scope)
    return scope
  }

  /** Holds a new version of a scope from the version `from` held under the same key, with sessions added and removed (its table, if filled, follows them). Returns the scope; `undefined` when `from` is not the version held. */
  changed(held: { readonly key: string; readonly version: number }, change: { readonly from: number; readonly added: readonly string[]; readonly removed: readonly string[] }, rows: ScopeRows): HeldScope | undefined {
    const { key, version } = held
    const earlier = this.held.get(key)
    if (earlier?.version !== change.from) return undefined
    const ids = new Set(earlier.ids)
    for (const id of change.removed) ids.delete(id)
    for (const id of change.added) ids.add(id)
    if (earlier.table !== undefined) {
      for (const id of change.removed) rows.excludeFromScope(earlier.slot, id)
      for (const id of change.added) rows.includeInScope(earlier.slot, id)
    }
    const scope: HeldScope = { key, version, ids, slot: earlier.slot, table: earlier.table }
    this.held.delete(key)
    this.held.set(key, scope)
    return scope
  }

  /** The table of a scope's session numbers, filled at first use. */
  tableOf(scope: HeldScope, rows: ScopeRows): string {
    scope.table ??= rows.fillScope(scope.slot, [...scope.ids])
    return scope.table
  }

  /** A session was indexed: the tables of the scopes holding it gain its number. */
  indexed(id: string, rows: ScopeRows): void {
    for (const scope of this.held.values()) if (scope.table !== undefined && scope.ids.has(id)) rows.includeInScope(scope.slot, id)
  }

  /** A session is about to be forgotten: the tables of the scopes holding it lose its number. */
  forgetting(id: string, rows: ScopeRows): void {
    for (const scope of this.held.values()) if (scope.table !== undefined && scope.ids.has(id)) rows.excludeFromScope(scope.slot, id)
  }

  /** Gives up every scope (the file was opened anew: its temporary tables are gone). */
  clear(): void {
    this.held.clear()
  }
}
