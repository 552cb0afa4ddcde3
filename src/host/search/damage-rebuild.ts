/**
 * The rebuild after the worker found its index file damaged: the worker has set the file aside and
 * opened a fresh one; this side forgets what the file held, answers from titles alone, and runs a
 * pass that builds the index again from the logs. One rebuild at a time, said once in the log.
 * @module @wishp3/dsh-sessions/host/search/damage-rebuild
 */
import { says } from './content-status.ts'
import { DAMAGED_MESSAGE } from './worker-protocol.ts'

/** What a rebuild does to the upkeep around it. */
export interface RebuildSteps {
  /** Whether the upkeep has stopped (a stopped one rebuilds nothing). */
  stopped(): boolean
  /** Forgets what the set-aside file held, says why in the log, and schedules a pass. */
  forget(why: string): void
  /** Resolves once the pass scheduled by {@link forget} has nothing left to read. */
  passed(): Promise<void>
  /** Runs the usual pass once the rebuild's pass is done. */
  resume(): void
}

export class DamageRebuild {
  private underway = false
  private found = 0
  private readonly steps: RebuildSteps

  constructor(steps: RebuildSteps) {
    this.steps = steps
  }

  /** Whether a rebuild is under way (titles alone answer meanwhile). */
  get rebuilding(): boolean {
    return this.underway
  }

  /** Damaged files found since the start. */
  get damaged(): number {
    return this.found
  }

  /** Whether an error of the worker says it found the index file damaged; if so, a rebuild starts unless one is under way. */
  foundIn(error: unknown): boolean {
    if (!says(error, DAMAGED_MESSAGE)) return false
    if (this.underway || this.steps.stopped()) return true
    this.underway = true
    this.found += 1
    this.steps.forget(error instanceof Error ? error.message : String(error))
    void this.steps.passed().then(() => {
      if (this.steps.stopped()) return
      this.underway = false
      this.steps.resume()
    })
    return true
  }
}
