/**
 * The reach into the official session query service, in two parts.
 * @module @wishp3/dsh-sessions/host/official/session-query
 */
import { foldSurface, isSurfaceEvent, SESSION_FORMAT_VERSION, type Session, type SessionEvent, type SessionHeader, SessionId, type SurfaceEvent } from '@deepseek-ai/dsh-session'
import type SessionPersistence from '@deepseek-ai/dsh-session-persistence'
import type { SessionQueryEngine, SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import { foldSessionTitle } from '@deepseek-ai/dsh-session-title'

/** The method replaced. */
export type SearchSessions = SessionQueryEngine['searchSessions']

/** Replaces the instance's `searchSessions`. `replace`: builds the replacement from the official method (bound to the instance). */
export function replaceSearchSessions(engine: SessionQueryEngine, replace: (official: SearchSessions) => SearchSessions): () => void {
  const target: { searchSessions: SearchSessions } = engine
  const own = Object.getOwnPropertyDescriptor(target, 'searchSessions')
  const official: SearchSessions = target.searchSessions.bind(engine)
  target.searchSessions = replace(official)
  return () => {
    if (own === undefined) Reflect.deleteProperty(target, 'searchSessions')
    else Object.defineProperty(target, 'searchSessions', own)
  }
}

/** Reads a stored session's surface from its log alone. `id`: a session the caller knows to be stored. Throws the persistence service's error when the log cannot be read, or a `TypeError` when its surface does not fold. */
export async function readStoredSurface(persistence: SessionPersistence, id: SessionId, signal?: AbortSignal): Promise<SessionSurfaceSnapshot> {
  const { meta, events } = await persistence.inspect(id, signal)
  if (meta.id !== id) throw new TypeError(`the log read for "${id}" belongs to "${meta.id}"`)
  return { session: structuredClone(meta), capturedThroughSeq: events.at(-1)?.seq ?? null, events: surfaceEvents(events) }
}

/** The current surface events of a log, by the session package's canonical fold, borrowed. */
function surfaceEvents(events: readonly SessionEvent[]): SurfaceEvent[] {
  const surface: SurfaceEvent[] = []
  for (const seq of foldSurface(events).nodes) {
    const event = events[seq]
    if (event === undefined || event.seq !== seq || !isSurfaceEvent(event)) throw new TypeError(`invalid session surface: node ${seq} is not a surface event`)
    surface.push(event)
  }
  return surface
}

/** Reads a live session's surface from its event log, without copying it. rc.8's `readSurface` clones every event of a live session, tool output and all, before it folds the surface; a live session's log is an immutable snapshot whose events are frozen when they are accepted, so the fold here borrows them. Throws a `TypeError` when its surface does not fold. */
export function readLiveSurface(session: Session): SessionSurfaceSnapshot {
  const events = session.events
  return { session: structuredClone(session.header), capturedThroughSeq: events.at(-1)?.seq ?? null, events: surfaceEvents(events) }
}

/** Reads a stored session's latest title from its log alone. `id`: a session the caller knows to be stored. Returns the title, as the query service's `readTitleSnapshot` folds it; `undefined` when the log names none. */
export async function readStoredTitle(persistence: SessionPersistence, id: SessionId, signal?: AbortSignal): Promise<string | undefined> {
  return foldSessionTitle((await persistence.inspect(id, signal)).events)?.title
}

/** Reads a stored session's header and latest title from its log alone: the one log of that id, whatever the size of the store. `id`: the session to read; it need not be known to exist. Throws the persistence service's error when there is no such log or it cannot be read, or a `TypeError` when the log belongs to another id. */
export async function readStoredTitleSnapshot(persistence: SessionPersistence, id: SessionId, signal?: AbortSignal): Promise<{ readonly session: SessionHeader; readonly title: string | undefined }> {
  const { meta, events } = await persistence.inspect(id, signal)
  if (meta.id !== id) throw new TypeError(`the log read for "${id}" belongs to "${meta.id}"`)
  return { session: structuredClone(meta), title: foldSessionTitle(events)?.title }
}

/** The log the persistence service names for a session, and of what kind (`jsonl` for rc.8's file per session). `header`: the session's id, cwd and creation time. Returns `undefined` when the backend names none or cannot say. */
export function locatedLog(persistence: SessionPersistence, header: { readonly id: string; readonly cwd?: string | undefined; readonly createdAt: number }): { readonly kind: string; readonly path: string } | undefined {
  try {
    return persistence.locate({ version: SESSION_FORMAT_VERSION, id: SessionId(header.id), createdAt: header.createdAt, ...(header.cwd === undefined ? {} : { cwd: header.cwd }) })
  } catch {
    // A header the store cannot place has no log: the caller treats it as missing.
    return undefined
  }
}
