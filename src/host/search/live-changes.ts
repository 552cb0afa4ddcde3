/**
 * Live sessions' changes, gathered: a session whose events changed its text is handled once, `delayMs`
 * after its first change, however many events arrive meanwhile.
 * @module @wishp3/dsh-sessions/host/search/live-changes
 */

/** The gatherer. */
export class LiveChanges {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>()
  private stopped = false
  private readonly delayMs: number
  private readonly handle: (id: string) => void

  /** `delayMs`: the wait after a session's first change. `handle`: called once per gathered change, with the session's id. */
  constructor(delayMs: number, handle: (id: string) => void) {
    this.delayMs = delayMs
    this.handle = handle
  }

  /** Notes a change of a session. */
  changed(id: string): void {
    if (this.stopped || this.timers.has(id)) return
    this.timers.set(id, setTimeout(() => {
      this.timers.delete(id)
      this.handle(id)
    }, this.delayMs))
  }

  /** Drops every change not yet handled. */
  stop(): void {
    this.stopped = true
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }
}
