/**
 * How the session tools hand text of other sessions to the model: as JSON
 * inside the official snapshot framing (its untrusted-data notice, read off
 * the official service; see `official/session-reference.ts`), with `<`
 * escaped so no text can close the frame, as the official service escapes it.
 * @module @wishp3/dsh-sessions/host/tools/tool-output
 */
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { type SnapshotFraming, snapshotFraming } from '../official/session-reference.ts'

/**
 * The official framing, read once, at the first call that needs it rather
 * than at boot; a failed read is tried again at the next call.
 */
export class Framing {
  private loading: Promise<SnapshotFraming> | undefined
  private loaded: SnapshotFraming | undefined

  /** Reads the framing if it has not been read; a tool's `execute` awaits this before its result is rendered. */
  load(): Promise<SnapshotFraming> {
    this.loading ??= snapshotFraming().then(
      framing => (this.loaded = framing),
      (error: unknown) => {
        this.loading = undefined
        throw error
      },
    )
    return this.loading
  }

  /**
   * The framing read by {@link Framing.load}.
   * @throws Error when it has not been read yet.
   */
  current(): SnapshotFraming {
    if (this.loaded === undefined) throw new Error('the snapshot framing has not been read')
    return this.loaded
  }
}

/**
 * Tool content holding session text.
 * @param value - the JSON value to frame.
 */
export function framedContent(framing: SnapshotFraming, value: unknown): ContentBlock[] {
  return [{ type: 'text', text: `${framing.before}${JSON.stringify(value).replaceAll('<', '\\u003c')}${framing.after}` }]
}
