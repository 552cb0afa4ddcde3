/**
 * A function of a string remembered for the strings asked again, emptied whole once it holds its
 * bound (a store's words and characters repeat, so the bound is rarely met). Pure in what it answers.
 * @module @wishp3/dsh-sessions/host/search/text/remembered
 */

/** `compute`, answering a string asked before from memory; at most `max` answers are held. */
export function remembered(compute: (key: string) => string, max: number): (key: string) => string {
  const kept = new Map<string, string>()
  return key => {
    let found = kept.get(key)
    if (found === undefined) {
      if (kept.size >= max) kept.clear()
      found = compute(key)
      kept.set(key, found)
    }
    return found
  }
}
