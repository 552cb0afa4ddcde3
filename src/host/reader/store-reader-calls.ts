/**
 * What the store reader's thread is started with and the calls it answers (types only).
 * @module @wishp3/dsh-sessions/host/reader/store-reader-calls
 */
import type { SessionHeader } from '@deepseek-ai/dsh-session'
import type { JsonlCompression } from '@deepseek-ai/dsh-session-persistence-jsonl'
import type { TrimmedSurface } from '../references/retention.ts'

/** The host's JSONL store, as its persistence service was configured. */
export interface StoreReaderStart {
  /** The store's folder, absolute. */
  readonly root: string
  readonly compression?: JsonlCompression
  readonly packChunks?: boolean
  /** The host's own service has checked this store's encoding and found it sound (see `official/store-encoding.ts`). */
  readonly encodingChecked?: boolean
}

/** Every call, by name: what it takes and what it answers. */
export interface StoreReaderCalls {
  /** Every stored session's header, as the host's persistence service lists them. */
  list: { args: Record<string, never>; result: readonly SessionHeader[] }
  /** The part of a stored session's surface any whole-session snapshot of it reads under a byte budget (see `tailOf` in `references/retention.ts`). */
  tail: { args: { id: string; maxBytes: number }; result: TrimmedSurface }
  /** Ends the thread once the calls before it are done. */
  shutdown: { args: Record<string, never>; result: null }
}
