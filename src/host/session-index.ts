/**
 * In-memory index of every session `sessionQuery.listSessions()` returns:
 * id, cwd, creation time and latest title, so candidate requests and title
 * resolution never read session logs.
 *
 * Sources: one listing at start; titles of live sessions folded from their
 * in-memory events, of cold sessions from the persisted projection cache
 * (the sidebar's own title source). Freshness: `session/created` adds a
 * session, a `session/title` event retitles it, `session/disposed` drops one
 * that was never persisted, and a periodic listing reconciles what other
 * processes changed (every five minutes). A cold session whose title the cache lacks is read in
 * the background, one log at a time, through the cache service, which then
 * keeps the title for later starts.
 * @module @wishp3/dsh-sessions/host/session-index
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Session, SessionEvent, SessionHeader } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-projection-cache'
import type { SessionRecord } from '@deepseek-ai/dsh-session-query'
import type {} from '@deepseek-ai/dsh-session-title'

/** One indexed session. */
export interface IndexedSession {
  readonly id: string
  readonly cwd: string | undefined
  readonly createdAt: number
  /** Latest `session/title`; `undefined` while none is known. */
  readonly title: string | undefined
  /** Title, or the id for an untitled session. */
  readonly label: string
  /** Lower-cased id, cwd and label for query matching. */
  readonly needles: readonly string[]
}

/** Options of {@link SessionIndex}. */
export interface SessionIndexOptions {
  /** Milliseconds between reconciling listings. */
  readonly reconcileMs?: number
}

function latestTitle(events: readonly SessionEvent[]): string | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index]!
    if (event.type === 'session/title') return (event.data as { title: string }).title
  }
  return undefined
}

function entry(header: { readonly id: string; readonly cwd?: string | undefined; readonly createdAt: number }, title: string | undefined): IndexedSession {
  const label = title ?? header.id
  const cwd = header.cwd
  return {
    id: header.id,
    cwd,
    createdAt: header.createdAt,
    title,
    label,
    needles: [header.id.toLocaleLowerCase(), ...(cwd === undefined ? [] : [cwd.toLocaleLowerCase()]), label.toLocaleLowerCase()],
  }
}

/** Newest first, as `listSessions()` orders; the id breaks ties so the order is total. */
function newestFirst(a: IndexedSession, b: IndexedSession): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** The index; its listeners and timers live on the fiber that constructs it. */
export class SessionIndex {
  private readonly sessions = new Map<string, IndexedSession>()
  /** Ids whose title an event set; a listing never overrides them. */
  private readonly eventTitled = new Set<string>()
  private readonly repairQueue: string[] = []
  private repairing = false
  private sorted: IndexedSession[] | undefined
  private readonly started: Promise<void>
  private readonly controller = new AbortController()
  private readonly ctx: Context

  constructor(ctx: Context, options: SessionIndexOptions = {}) {
    this.ctx = ctx
    ctx.on('session/created', session => {
      this.upsertLive(session)
    })
    ctx.on('session/event', (session, event) => {
      if (event.type === 'session/title') {
        this.eventTitled.add(session.id)
        this.put(entry(session.header, (event.data as { title: string }).title))
      } else if (!this.sessions.has(session.id)) {
        this.upsertLive(session)
      }
    })
    ctx.on('session/disposed', session => {
      if (session.seq === 0) this.remove(session.id)
    })
    ctx.effect(() => () => this.controller.abort(), 'dsh-sessions: session index')
    const reconcileMs = options.reconcileMs ?? 300_000
    ctx.effect(() => {
      const timer = setInterval(() => void this.reconcile(), reconcileMs)
      timer.unref()
      return () => clearInterval(timer)
    }, 'dsh-sessions: session index reconciliation')
    this.started = this.reconcile()
  }

  /** Resolves once the first listing is indexed (or failed and was logged). */
  ready(): Promise<void> {
    return this.started
  }

  /** Every indexed session, newest first. The array is shared; do not mutate it. */
  list(): readonly IndexedSession[] {
    this.sorted ??= [...this.sessions.values()].sort(newestFirst)
    return this.sorted
  }

  /**
   * The indexed session with this id.
   * @param id - a session id.
   * @returns the entry, or `undefined`.
   */
  get(id: string): IndexedSession | undefined {
    return this.sessions.get(id)
  }

  /**
   * The session with this id, reading it from storage when another process
   * created it after the last listing.
   * @param id - a session id.
   * @returns the entry, or `undefined` when no such session exists.
   */
  async lookup(id: string): Promise<IndexedSession | undefined> {
    return this.sessions.get(id) ?? this.refresh(id)
  }

  /**
   * Reads one session from storage: indexes it when it exists, drops it when
   * it does not (deleted, unreadable).
   * @param id - a session id.
   * @returns the fresh entry, or `undefined`.
   */
  async refresh(id: string): Promise<IndexedSession | undefined> {
    try {
      const observation = await this.ctx.sessionQuery.readTitleSnapshot(id as SessionHeader['id'], this.controller.signal)
      const title = this.eventTitled.has(id) ? this.sessions.get(id)?.title : observation.title?.title
      const found = entry(observation.session, title)
      this.put(found)
      return found
    } catch {
      // not found, unreadable or cancelled: the id names no session we can use.
      this.remove(id)
      return undefined
    }
  }

  private remove(id: string): void {
    if (this.sessions.delete(id)) this.sorted = undefined
    this.eventTitled.delete(id)
  }

  private put(next: IndexedSession): void {
    this.sessions.set(next.id, next)
    this.sorted = undefined
  }

  private upsertLive(session: Session): void {
    try {
      const title = latestTitle(session.events)
      if (title !== undefined) this.eventTitled.add(session.id)
      this.put(entry(session.header, title ?? this.sessions.get(session.id)?.title))
    } catch (error) {
      this.ctx.logger('dsh-sessions').warn('session index: %s', error)
    }
  }

  /** Lists every session and merges: new ones added, vanished cold ones dropped, event titles kept. */
  private async reconcile(): Promise<void> {
    let records: SessionRecord[]
    try {
      records = await this.ctx.sessionQuery.listSessions(this.controller.signal)
    } catch (error) {
      if (!this.controller.signal.aborted) this.ctx.logger('dsh-sessions').warn('session index listing failed: %s', error)
      return
    }
    const cache = this.ctx.get('sessionProjectionCache')
    const seen = new Set<string>()
    for (const record of records) {
      const { id } = record.header
      seen.add(id)
      if (this.eventTitled.has(id)) continue
      const live = this.ctx.sessions.get(id)
      if (live !== undefined) {
        this.upsertLive(live)
        continue
      }
      const previous = this.sessions.get(id)
      const cached = cache?.cachedSnapshot(record.header)?.values as { title?: string | null } | undefined
      const title = cached?.title ?? previous?.title
      this.put(entry(record.header, title ?? undefined))
      if (title == null) this.repairQueue.push(id)
    }
    for (const id of [...this.sessions.keys()]) {
      if (!seen.has(id) && this.ctx.sessions.get(id as SessionHeader['id']) === undefined) this.remove(id)
    }
    void this.repair()
  }

  /**
   * Reads the titles the projection cache lacked, one log at a time, off the
   * request path. Through the cache service when mounted, which also stores
   * the title for the sidebar and the next start.
   */
  private async repair(): Promise<void> {
    if (this.repairing) return
    this.repairing = true
    try {
      for (let id = this.repairQueue.shift(); id !== undefined; id = this.repairQueue.shift()) {
        if (this.controller.signal.aborted) return
        if (this.eventTitled.has(id) || !this.sessions.has(id)) continue
        try {
          const title = await this.readTitle(id as SessionHeader['id'])
          const current = this.sessions.get(id)
          if (title != null && current !== undefined && !this.eventTitled.has(id)) this.put(entry(current, title))
        } catch {
          // unreadable log: the entry keeps its id label.
        }
      }
    } finally {
      this.repairing = false
    }
  }

  private async readTitle(id: SessionHeader['id']): Promise<string | null | undefined> {
    const cache = this.ctx.get('sessionProjectionCache')
    if (cache !== undefined) {
      const snapshot = await cache.coldSnapshot(id, this.controller.signal)
      return (snapshot.values as { title?: string | null }).title
    }
    return (await this.ctx.sessionQuery.readTitle(id, this.controller.signal))?.title
  }
}
