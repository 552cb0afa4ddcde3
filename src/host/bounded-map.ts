/**
 * A map that holds at most a set number of entries: setting a key makes it
 * the newest, and once the map holds more than its limit the oldest entry is
 * dropped. Reading a key does not make it newer; a caller that keeps the
 * most recently used entries sets the key again on a hit.
 * @module @wishp3/dsh-sessions/host/bounded-map
 */

/** A `Map` bounded by its number of entries, dropping the oldest first. */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>()
  private readonly limit: number

  /**
   * @param limit - most entries held.
   */
  constructor(limit: number) {
    this.limit = limit
  }

  /** How many entries are held. */
  get size(): number {
    return this.entries.size
  }

  /**
   * The value of a key, its age unchanged.
   * @param key - the key.
   * @returns the value; `undefined` when the key is not held.
   */
  get(key: K): V | undefined {
    return this.entries.get(key)
  }

  /**
   * Holds a value as the newest entry, then drops the oldest entry when more than the limit are held.
   * @param key - the key, newest whether it was held or not.
   * @param value - its value.
   */
  set(key: K, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!)
  }

  /**
   * Drops a key.
   * @param key - the key.
   */
  delete(key: K): void {
    this.entries.delete(key)
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear()
  }

  /** The entries, oldest first. */
  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries[Symbol.iterator]()
  }
}
