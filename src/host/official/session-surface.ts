/**
 * A stored session's current model surface, read from its one log. rc.8's
 * `SessionQuery.readSurface` lists every persisted session to check that the
 * id exists before it reads the log, so each read costs a listing of the
 * whole store. The plugin checks the id against its own session index
 * instead and composes the same read from public parts: the persistence
 * service's `inspect` (which reads the one log of that id) and the session
 * package's canonical surface fold, giving the surface the query service
 * would give: the header, the last logged seq, and the current surface
 * events in folded order, each a detached copy.
 *
 * A stored session's latest title is read the same way, folded from that one
 * log by the title package's own fold, as the query service's
 * `readTitleSnapshot` folds it after its own listing.
 *
 * `tests/host/per-id-cost.spec.ts` compares both reads with the query
 * service's own on stored sessions and fails when they differ.
 * @module @wishp3/dsh-sessions/host/official/session-surface
 */
import { foldSurface, isSurfaceEvent, type SessionId, snapshotSessionEvent, type SurfaceEvent } from '@deepseek-ai/dsh-session'
import type SessionPersistence from '@deepseek-ai/dsh-session-persistence'
import type { SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import { foldSessionTitle } from '@deepseek-ai/dsh-session-title'

/**
 * Reads a stored session's surface from its log alone.
 * @param persistence - the host's persistence service.
 * @param id - a session the caller knows to be stored.
 * @param signal - cancellation of the read.
 * @returns the surface, as the query service's `readSurface` returns it.
 * @throws the persistence service's error when the log cannot be read, or a `TypeError` when its surface does not fold.
 */
export async function readStoredSurface(persistence: SessionPersistence, id: SessionId, signal?: AbortSignal): Promise<SessionSurfaceSnapshot> {
  const { meta, events } = await persistence.inspect(id, signal)
  if (meta.id !== id) throw new TypeError(`the log read for "${id}" belongs to "${meta.id}"`)
  const surface: SurfaceEvent[] = []
  for (const seq of foldSurface(events).nodes) {
    const event = events[seq]
    if (event === undefined || event.seq !== seq || !isSurfaceEvent(event)) throw new TypeError(`invalid session surface: node ${seq} is not a surface event`)
    surface.push(snapshotSessionEvent(event))
  }
  return { session: structuredClone(meta), capturedThroughSeq: events.at(-1)?.seq ?? null, events: surface }
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
