/**
 * When the content index file is written: after a change, at once when the
 * caller asks (a pass finished) or at most every `delayMs` while changes keep
 * coming (live sessions); one write at a time, and changes that arrive during
 * a write are written by the next one. A write that fails is logged and tried
 * again after the delay. Stopping cancels a write under way, waiting at most
 * {@link STOP_WAIT_MS} for it to end. The writing itself is the worker's
 * (`index-keeper.ts`).
 * @module @wishp3/dsh-sessions/host/search/index-saver
 */

/** Longest a stop waits for a write under way to be cancelled. */
const STOP_WAIT_MS = 2_000

/** What the saver drives. */
export interface IndexWriter {
  /** Whether a write can be asked for now. */
  readonly available: boolean
  /** Writes the index file; resolves its size in bytes. */
  write(): Promise<number>
  /** Cancels a write under way; the old file stays. */
  cancel(): Promise<unknown>
  /** Reports a failed write. */
  failed(error: unknown): void
}

/** The saver. */
export class IndexSaver {
  private dirty = false
  private saving = false
  private stopped = false
  private timer: ReturnType<typeof setTimeout> | undefined
  /** Bytes of the last file written. */
  savedBytes = 0

  private readonly writer: IndexWriter
  private readonly delayMs: number

  /**
   * @param writer - what writes the file.
   * @param delayMs - the longest wait before changes are written, and the wait before a failed write is tried again.
   */
  constructor(writer: IndexWriter, delayMs: number) {
    this.writer = writer
    this.delayMs = delayMs
  }

  /** Notes that the index changed since the last write. */
  changed(): void {
    this.dirty = true
  }

  /**
   * Writes the changes: at once, or after the delay when a write is already waiting.
   * @param now - write as soon as possible (a pass finished) rather than within the delay.
   */
  soon(now = false): void {
    if (this.stopped || !this.dirty) return
    if (this.timer !== undefined) {
      if (!now) return
      clearTimeout(this.timer)
    }
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.save()
    }, now ? 0 : this.delayMs)
  }

  /** Stops writing; a write under way is cancelled, bounded by {@link STOP_WAIT_MS}. */
  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    if (!this.saving || !this.writer.available) return
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      this.writer.cancel().catch(() => null),
      new Promise(resolve => { timer = setTimeout(resolve, STOP_WAIT_MS) }),
    ])
    clearTimeout(timer)
  }

  private async save(): Promise<void> {
    if (this.saving || !this.dirty || !this.writer.available) return
    this.saving = true
    this.dirty = false
    try {
      this.savedBytes = await this.writer.write()
    } catch (error) {
      this.dirty = true
      if (!this.stopped) this.writer.failed(error)
    } finally {
      this.saving = false
    }
    this.soon()
  }
}
