/**
 * The titles the plugin knows of sessions whose sidebar rows show their workspace's name.
 * @module @wishp3/dsh-sessions/client/sidebar/titles
 */
import type { SessionsApi } from '../api.ts'

/** Most ids one request names. */
const BATCH = 500

/** Milliseconds between asking again for titles still being read: first, then at most. */
const RETRY_MS = [1_000, 10_000] as const

/** The store. */
export class TitleStore {
  private readonly known = new Map<string, string>()
  /** Ids asked and answered without a title while no more titles are coming. */
  private readonly settled = new Set<string>()
  private readonly wanted = new Set<string>()
  /** Ids asked since every wanted id was last asked. */
  private readonly round = new Set<string>()
  private readonly listeners = new Set<() => void>()
  private scheduled: ReturnType<typeof setTimeout> | undefined
  private retryMs: number = RETRY_MS[0]
  private fetching = false
  private version_ = 0
  private readonly api: Pick<SessionsApi, 'titles'>

  constructor(api: Pick<SessionsApi, 'titles'>) {
    this.api = api
  }

  /** Titles known so far, by session id. */
  get titles(): ReadonlyMap<string, string> {
    return this.known
  }

  /** Changes whenever a title arrives. */
  version = (): number => this.version_

  /** Hears of arriving titles. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  /** Takes titles learnt elsewhere (a search answer names its sessions' titles), so their rows need not wait for a request of their own. Listeners hear once, and only when a title is new or changed. */
  learn(titles: Iterable<readonly [string, string]>): void {
    let changed = false
    for (const [id, title] of titles) {
      this.wanted.delete(id)
      if (this.known.get(id) === title) continue
      this.known.set(id, title)
      changed = true
    }
    if (changed) this.announce()
  }

  private announce(): void {
    this.version_ += 1
    for (const listener of this.listeners) listener()
  }

  /** Asks for the titles of these sessions, unless known or settled. */
  want(ids: readonly string[]): void {
    let added = false
    for (const id of ids) {
      if (this.known.has(id) || this.settled.has(id) || this.wanted.has(id)) continue
      this.wanted.add(id)
      added = true
    }
    if (added) this.schedule(0)
  }

  private schedule(ms: number): void {
    if (this.scheduled !== undefined || this.fetching) return
    this.scheduled = setTimeout(() => {
      this.scheduled = undefined
      void this.fetch()
    }, ms)
  }

  private async fetch(): Promise<void> {
    const ids = [...this.wanted].filter(id => !this.round.has(id)).slice(0, BATCH)
    if (ids.length === 0) return
    this.fetching = true
    let pending = false
    try {
      const answer = await this.api.titles(ids, AbortSignal.timeout(30_000))
      let changed = false
      for (const id of ids) {
        const title = answer.titles[id]
        if (typeof title === 'string') {
          this.known.set(id, title)
          this.wanted.delete(id)
          changed = true
        } else if (!answer.pending) {
          this.settled.add(id)
          this.wanted.delete(id)
        } else {
          this.round.add(id)
        }
      }
      pending = answer.pending
      if (changed) this.announce()
    } catch {
      // The ids stay pending and are asked again at the next change.
      pending = true
      for (const id of ids) this.round.add(id)
    } finally {
      this.fetching = false
    }
    if (this.wanted.size === 0) return
    // Ids not yet asked in this round go at once; once every wanted id was asked, those still being read are asked again later.
    if ([...this.wanted].some(id => !this.round.has(id))) this.schedule(0)
    else if (pending) {
      this.round.clear()
      this.schedule(this.retryMs)
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MS[1])
    }
  }
}
