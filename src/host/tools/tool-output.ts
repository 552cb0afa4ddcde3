/**
 * How the session tools hand text of other sessions to the model: as JSON
 * inside the official snapshot framing (its untrusted-data notice, read off
 * the official service; see `official/session-reference.ts`), with `<`
 * escaped so no text can close the frame, as the official service escapes it.
 * @module @wishp3/dsh-sessions/host/tools/tool-output
 */
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { SnapshotFraming } from '../official/session-reference.ts'

/**
 * Tool content holding session text.
 * @param framing - the official snapshot framing.
 * @param value - the JSON value to frame.
 * @returns one text block.
 */
export function framedContent(framing: SnapshotFraming, value: unknown): ContentBlock[] {
  return [{ type: 'text', text: `${framing.before}${JSON.stringify(value).replaceAll('<', '\\u003c')}${framing.after}` }]
}
