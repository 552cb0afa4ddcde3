/**
 * Message references written in a draft as text (pasted, or typed in whole).
 * @module @wishp3/dsh-sessions/client/core/pasted-reference
 */
import { scanMessageReferences } from '../../shared/message-reference.ts'

/** A message reference written in a draft. */
export interface WrittenReference {
  readonly start: number
  readonly end: number
  readonly sessionId: string
  readonly label: string
  readonly mention: string
}

/** The labelled, well-formed message references of a draft outside its chips. */
export function writtenReferences(draft: string, chips: readonly { readonly offset: number; readonly length: number }[]): WrittenReference[] {
  const found: WrittenReference[] = []
  for (const mention of scanMessageReferences(draft)) {
    if (mention.label === undefined || mention.label.trim() === '' || mention.reference === undefined) continue
    if (chips.some(chip => chip.offset < mention.end && mention.start < chip.offset + chip.length)) continue
    found.push({ start: mention.start, end: mention.end, sessionId: mention.reference.sessionId, label: mention.label, mention: draft.slice(mention.start, mention.end) })
  }
  return found
}
