/**
 * Lookups started ahead of a click and kept for it.
 * @module @wishp3/dsh-sessions/client/copy/lookups
 */

interface Lookup {
  readonly promise: Promise<string | undefined>
  settled: boolean
  value: string | undefined
}

/** The kept lookups of one kind. */
export class Lookups {
  private readonly kept = new Map<string, Lookup>()
  private readonly most: number

  constructor(most: number) {
    this.most = most
  }

  /** Starts a fresh lookup of a key; it replaces the one kept. `run`: the lookup; `undefined` when there is no answer. */
  start(key: string, run: () => Promise<string | undefined>): Promise<string | undefined> {
    const promise = run().catch(() => undefined)
    const lookup: Lookup = { promise, settled: false, value: undefined }
    void promise.then(value => {
      lookup.settled = true
      lookup.value = value
    })
    this.kept.delete(key)
    this.kept.set(key, lookup)
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.most) break
      this.kept.delete(oldest)
    }
    return promise
  }

  /** The answer of a key's latest lookup, once it has one. */
  ready(key: string): string | undefined {
    return this.kept.get(key)?.value
  }

  /** The latest lookup of a key while it runs or after it found an answer; a new one otherwise. `run`: the lookup, when a new one is needed. */
  load(key: string, run: () => Promise<string | undefined>): Promise<string | undefined> {
    const latest = this.kept.get(key)
    if (latest !== undefined && (!latest.settled || latest.value !== undefined)) return latest.promise
    return this.start(key, run)
  }
}
