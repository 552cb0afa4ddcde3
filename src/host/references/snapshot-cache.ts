/**
 * Prepared snapshots kept for a short while, keyed by the citing session and each source with its
 * label, the messages cited of it and its revision, so the snapshot the preflight prepared (and
 * measured) is the one the pre-step attaches while no source changed.
 * @module @wishp3/dsh-sessions/host/references/snapshot-cache
 */
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { CitedSource } from './cited-source.ts'

/** Milliseconds a prepared snapshot is kept. */
const KEEP_MS = 60_000

/** Most snapshots kept; the oldest is dropped first. */
const KEEP_ENTRIES = 32

/** One source as a key names it: the reference and the revision of its content. */
export interface KeyedSource {
  readonly reference: CitedSource
  readonly revision: string
}

/** The cache. */
export class SnapshotCache {
  private readonly entries = new Map<string, { value: Promise<UserMessage>; expires: number }>()

  /** What identifies a preparation. `citingId`: the session the message is sent in. `sources`: the sources in text order, each with its revision. */
  static key(citingId: string, sources: readonly KeyedSource[]): string {
    return JSON.stringify([citingId, sources.map(({ reference, revision }) => [reference.sessionId, reference.label ?? null, reference.selection ?? null, reference.agent === true, revision])])
  }

  /** The kept preparation of a key. Returns the preparation, shared, or `undefined` when none is kept. */
  get(key: string): Promise<UserMessage> | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined || entry.expires <= Date.now()) {
      this.entries.delete(key)
      return undefined
    }
    return entry.value
  }

  /** Keeps a preparation; it is forgotten when it rejects. `value`: the preparation, shared by every caller until it is forgotten. */
  set(key: string, value: Promise<UserMessage>): void {
    this.entries.delete(key)
    this.entries.set(key, { value, expires: Date.now() + KEEP_MS })
    if (this.entries.size > KEEP_ENTRIES) this.entries.delete(this.entries.keys().next().value!)
    value.catch(() => { if (this.entries.get(key)?.value === value) this.entries.delete(key) })
  }
}
