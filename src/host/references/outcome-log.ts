/**
 * What the pre-step could not attach, kept per session for the browser to show in the session the
 * message was sent from. Each session keeps its newest outcomes for a while.
 * @module @wishp3/dsh-sessions/host/references/outcome-log
 */
import type { Outcome, OutcomeReference } from '../../shared/wire.ts'

/** Outcomes kept per session. */
const KEEP = 20

/** Milliseconds an outcome is kept. */
const KEEP_MS = 10 * 60_000

/** Readers waiting on one session at most; older waits answer at once. */
const MAX_WAITERS = 8

/** One outcome to record, before it has an id. */
export interface OutcomeInput {
  readonly kind: Outcome['kind']
  readonly references: readonly OutcomeReference[]
  /** The message as the user wrote it, for a rejected step. */
  readonly text?: string
  /** How many distinct ids went as text, for `ids-as-text`. */
  readonly count?: number
  /** The labels of the chips whose sessions the text named too, for `same-source`. */
  readonly labels?: readonly string[]
}

/** The per-session outcome log. */
export class OutcomeLog {
  private readonly bySession = new Map<string, Outcome[]>()
  private readonly waiters = new Map<string, Set<() => void>>()
  private next = 1

  /** Records an outcome and wakes the readers of its session. `sessionId`: the session the message was sent in. */
  record(sessionId: string, input: OutcomeInput): void {
    const now = Date.now()
    const kept = (this.bySession.get(sessionId) ?? []).filter(outcome => outcome.at > now - KEEP_MS).slice(-(KEEP - 1))
    kept.push({ id: this.next++, at: now, ...input })
    this.bySession.set(sessionId, kept)
    for (const wake of this.waiters.get(sessionId) ?? []) wake()
  }

  /** The outcomes of a session newer than `after`, waiting up to `waitMs` for one when there is none yet. `after`: the id of the newest outcome the reader has; 0 for all kept. Returns the newer outcomes, oldest first, possibly none. */
  async read(asked: { readonly sessionId: string; readonly after: number; readonly waitMs: number }, signal: AbortSignal): Promise<Outcome[]> {
    const { sessionId, after, waitMs } = asked
    const newer = () => (this.bySession.get(sessionId) ?? []).filter(outcome => outcome.id > after)
    if (newer().length > 0 || waitMs <= 0 || signal.aborted) return newer()
    const waiting = this.waiters.get(sessionId) ?? new Set()
    this.waiters.set(sessionId, waiting)
    if (waiting.size >= MAX_WAITERS) for (const wake of [...waiting].slice(0, waiting.size - MAX_WAITERS + 1)) wake()
    await new Promise<void>(resolve => {
      const done = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        waiting.delete(done)
        if (waiting.size === 0) this.waiters.delete(sessionId)
        resolve()
      }
      const timer = setTimeout(done, waitMs)
      signal.addEventListener('abort', done, { once: true })
      waiting.add(done)
    })
    return newer()
  }

  /** The id the next outcome will get, less one: a reader starting now reads after it. */
  latest(): number {
    return this.next - 1
  }
}
