/**
 * The catalog of known sessions: id, cwd, creation time and latest title, and where each title came
 * from. Pure data, no I/O.
 * @module @wishp3/dsh-sessions/host/sessions/catalog-entries
 */

/** One indexed session. */
export interface CatalogedSession {
  readonly id: string
  readonly cwd: string | undefined
  readonly createdAt: number
  /** Latest `session/title`; `undefined` while none is known. */
  readonly title: string | undefined
  /** Title, or the id for an untitled session. */
  readonly label: string
  /** Lower-cased id, cwd and label for query matching. */
  readonly matchKeys: readonly string[]
  /** The header as the host gave it (a session's full header where the host's own objects fed the catalog). */
  readonly header: SessionHeaderFields
}

/** What names a session: its header's id, cwd and creation time. */
export interface SessionHeaderFields {
  readonly id: string
  readonly cwd?: string | undefined
  readonly createdAt: number
}

/** One catalog entry. `header`: the session's id, cwd and creation time. */
export function catalogEntry(header: SessionHeaderFields | CatalogedSession, title: string | undefined): CatalogedSession {
  const label = title ?? header.id
  const cwd = header.cwd
  return {
    id: header.id,
    cwd,
    createdAt: header.createdAt,
    title,
    label,
    matchKeys: [header.id.toLocaleLowerCase(), ...(cwd === undefined ? [] : [cwd.toLocaleLowerCase()]), label.toLocaleLowerCase()],
    header: 'matchKeys' in header ? header.header : header,
  }
}

/** Newest first, as `listSessions()` orders; the id breaks ties so the order is total. */
function newestFirst(a: CatalogedSession, b: CatalogedSession): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** Whether two entries of one session say the same: title, cwd, creation time, and a header of equal fields. */
function sameEntry(a: CatalogedSession, b: CatalogedSession): boolean {
  if (a.title !== b.title || a.cwd !== b.cwd || a.createdAt !== b.createdAt) return false
  if (a.header === b.header) return true
  const keys = Object.keys(a.header) as (keyof SessionHeaderFields)[]
  return keys.length === Object.keys(b.header).length && keys.every(key => a.header[key] === b.header[key])
}

/** The catalog. */
export class CatalogEntries {
  private readonly sessions = new Map<string, CatalogedSession>()
  /** Ids whose title an event of this process named. */
  private readonly eventTitled = new Set<string>()
  private sorted: CatalogedSession[] | undefined
  private changes = 0
  private moves = 0

  /** A number that changes whenever what the catalog lists changes: a session added, removed, moved, retitled or given another header. Equal numbers mean the same listing, so what is derived from it can be kept. */
  get generation(): number {
    return this.changes
  }

  /** A number that changes whenever which sessions the catalog holds, or their cwd or creation time, changes (not on a new title or header): the sessions a scope admits stay the same while it does. */
  get membership(): number {
    return this.moves
  }

  /** How many sessions it holds. */
  get size(): number {
    return this.sessions.size
  }

  /** The session with this id. */
  get(id: string): CatalogedSession | undefined {
    return this.sessions.get(id)
  }

  /** Ids of every session it holds. */
  ids(): string[] {
    return [...this.sessions.keys()]
  }

  /** Every session, newest first. The array is shared; do not mutate it. */
  list(): readonly CatalogedSession[] {
    this.sorted ??= [...this.sessions.values()].sort(newestFirst)
    return this.sorted
  }

  /** Whether a session's title is still unknown: no event named it and no other source had it. Returns true for a held session without a title. */
  needsTitle(id: string): boolean {
    const known = this.sessions.get(id)
    return known !== undefined && known.title === undefined && !this.eventTitled.has(id)
  }

  /** A session's title as an event of this process names it. */
  titled(header: SessionHeaderFields, title: string): void {
    this.eventTitled.add(header.id)
    this.put(catalogEntry(header, title))
  }

  /** A live session as its events describe it. `title`: the latest title in its events, if any; without one the held title stays. */
  live(header: SessionHeaderFields, title: string | undefined): void {
    if (title !== undefined) this.eventTitled.add(header.id)
    this.put(catalogEntry(header, title ?? this.sessions.get(header.id)?.title))
  }

  /** A session as storage describes it (a listing or a read); a title an event named stays. `title`: the title storage gives, if any; without one the held title stays. */
  stored(header: SessionHeaderFields, title: string | undefined): CatalogedSession {
    const held = this.sessions.get(header.id)
    const next = catalogEntry(header, this.eventTitled.has(header.id) ? held?.title : title ?? held?.title)
    this.put(next)
    return next
  }

  /** Sets the title a session's log holds, unless an event of this process named it. */
  repairTitle(id: string, title: string): void {
    const current = this.sessions.get(id)
    if (current === undefined || this.eventTitled.has(id) || current.title === title) return
    this.put(catalogEntry(current, title))
  }

  /** Whether an event of this process named the session's title. Returns true when storage must not override its title. */
  isEventTitled(id: string): boolean {
    return this.eventTitled.has(id)
  }

  /** Forgets a session. */
  remove(id: string): boolean {
    this.eventTitled.delete(id)
    if (!this.sessions.delete(id)) return false
    this.sorted = undefined
    this.changes += 1
    this.moves += 1
    return true
  }

  /** Holds an entry; one equal to the entry held leaves the catalog as it was (the same object, the same generation). */
  private put(next: CatalogedSession): void {
    const held = this.sessions.get(next.id)
    if (held !== undefined && sameEntry(held, next)) return
    this.sessions.set(next.id, next)
    this.sorted = undefined
    this.changes += 1
    if (held === undefined || held.cwd !== next.cwd || held.createdAt !== next.createdAt) this.moves += 1
  }
}
