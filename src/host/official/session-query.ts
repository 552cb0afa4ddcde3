/**
 * The reach into the official session query service, in two parts.
 *
 * Its `searchSessions` method is replaced by an own property of the
 * instance, and the property deleted again, which brings the class's method
 * back. rc.8 lets a service have one provider, and its web profile mounts the
 * official one with search off; the host's `session.search` calls this
 * method on that instance. `tests/host/sidebar-search.spec.ts` runs the
 * replacement on the official class and fails when the method stops being
 * looked up on the instance.
 *
 * Its `readSurface` and `readTitleSnapshot` are composed again for a stored
 * session, from public parts. rc.8's versions list every persisted session
 * to check that the id exists before they read the log, so each read costs a
 * listing of the whole store. The plugin checks the id against its own
 * session index instead, and reads the one log of that id through the
 * persistence service's `inspect`, folded by the session package's
 * canonical surface fold (or the title package's title fold): the surface
 * and the title the query service gives. Before the index's first listing,
 * an id it does not know yet is read the same way, header and title, so
 * naming one session costs its one log, not a listing of the store. The surface's events are the
 * log's own, borrowed: the persistence service hands out an immutable log
 * (its messages frozen) and keeps it for its next read, so the surface is
 * not copied; whoever reads it must not change it.
 * A live session's surface is folded the same way from its immutable event
 * log, which rc.8's version copies whole first.
 * `tests/host/per-id-cost.spec.ts` compares these reads with the query
 * service's own on stored and live sessions and fails when they differ.
 * @module @wishp3/dsh-sessions/host/official/session-query
 */
import { foldSurface, isSurfaceEvent, type Session, type SessionEvent, type SessionHeader, type SessionId, type SurfaceEvent } from '@deepseek-ai/dsh-session'
import type SessionPersistence from '@deepseek-ai/dsh-session-persistence'
import type { SessionQueryEngine, SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import { foldSessionTitle } from '@deepseek-ai/dsh-session-title'

/** The method replaced. */
export type SearchSessions = SessionQueryEngine['searchSessions']

/**
 * Replaces the instance's `searchSessions`.
 * @param engine - the official instance.
 * @param replace - builds the replacement from the official method (bound to the instance).
 * @returns the call that restores what the instance had.
 */
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

/**
 * Reads a stored session's surface from its log alone.
 * @param persistence - the host's persistence service.
 * @param id - a session the caller knows to be stored.
 * @param signal - cancellation of the read.
 * @returns the surface, equal to what the query service's `readSurface` returns, its events borrowed from the log (read-only).
 * @throws the persistence service's error when the log cannot be read, or a `TypeError` when its surface does not fold.
 */
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

/**
 * Reads a live session's surface from its event log, without copying it.
 * rc.8's `readSurface` clones every event of a live session, tool output
 * and all, before it folds the surface; a live session's log is an
 * immutable snapshot whose events are frozen when they are accepted, so the
 * fold here borrows them.
 * @param session - the live session.
 * @returns the surface, equal to what the query service's `readSurface` returns, its events borrowed (read-only).
 * @throws a `TypeError` when its surface does not fold.
 */
export function readLiveSurface(session: Session): SessionSurfaceSnapshot {
  const events = session.events
  return { session: structuredClone(session.header), capturedThroughSeq: events.at(-1)?.seq ?? null, events: surfaceEvents(events) }
}

/**
 * Reads a stored session's latest title from its log alone.
 * @param persistence - the host's persistence service.
 * @param id - a session the caller knows to be stored.
 * @param signal - cancellation of the read.
 * @returns the title, as the query service's `readTitleSnapshot` folds it; `undefined` when the log names none.
 */
export async function readStoredTitle(persistence: SessionPersistence, id: SessionId, signal?: AbortSignal): Promise<string | undefined> {
  return foldSessionTitle((await persistence.inspect(id, signal)).events)?.title
}

/**
 * Reads a stored session's header and latest title from its log alone: the
 * one log of that id, whatever the size of the store.
 * @param persistence - the host's persistence service.
 * @param id - the session to read; it need not be known to exist.
 * @param signal - cancellation of the read.
 * @returns a copy of the header and the title, as the query service's `readTitleSnapshot` gives them.
 * @throws the persistence service's error when there is no such log or it cannot be read, or a `TypeError` when the log belongs to another id.
 */
export async function readStoredTitleSnapshot(persistence: SessionPersistence, id: SessionId, signal?: AbortSignal): Promise<{ readonly session: SessionHeader; readonly title: string | undefined }> {
  const { meta, events } = await persistence.inspect(id, signal)
  if (meta.id !== id) throw new TypeError(`the log read for "${id}" belongs to "${meta.id}"`)
  return { session: structuredClone(meta), title: foldSessionTitle(events)?.title }
}
