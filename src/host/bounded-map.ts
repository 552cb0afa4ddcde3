/**
 * A map that holds at most a set number of entries.
 * @module @wishp3/dsh-sessions/host/bounded-map
 */

/** A `Map` bounded by its number of entries, dropping the oldest first. */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>()
  private readonly limit: number

  constructor(limit: number) {
    this.limit = limit
  }

  get size(): number {
    return this.entries.size
  }

  /** The value of a key, its age unchanged. Returns the value; `undefined` when the key is not held. */
  get(key: K): V | undefined {
    return this.entries.get(key)
  }

  /** Holds a value as the newest entry, then drops the oldest entry when more than the limit are held. `key`: the key, newest whether it was held or not. */
  set(key: K, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!)
  }

  delete(key: K): void {
    this.entries.delete(key)
  }

  clear(): void {
    this.entries.clear()
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries[Symbol.iterator]()
  }
}
