/**
 * Whether the content index answers for every listed session, and who waits for it to: ready is lost
 * while sessions may wait to be written (damage, a paused disk, a pass with sessions still pending),
 * and given again when a completed build is recorded.
 * @module @wishp3/dsh-sessions/host/search/index-readiness
 */

export class IndexReadiness {
  private isReady = false
  private readonly waiters: (() => void)[] = []

  get ready(): boolean {
    return this.isReady
  }

  /** Resolves once the index is ready (at once when it is). */
  whenReady(): Promise<void> {
    if (this.isReady) return Promise.resolve()
    return new Promise(resolve => this.waiters.push(resolve))
  }

  /** Ready: every waiter resolves. */
  mark(): void {
    if (this.isReady) return
    this.isReady = true
    for (const resolve of this.waiters.splice(0)) resolve()
  }

  /** Not ready until the next {@link mark}; waiters from now on wait for it. */
  unmark(): void {
    this.isReady = false
  }
}
