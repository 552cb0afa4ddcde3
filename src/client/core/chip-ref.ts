/**
 * The opaque `ref` of a chip the `dsh-sessions` `@` source inserts.
 * @module @wishp3/dsh-sessions/client/core/chip-ref
 */

/** How the composer draws every chip that cites conversation text: a whole session, some of its messages, or a quote of this one. All three carry the host's session glyph in place of the `@`, so they read as one kind of thing, told apart by their labels; file chips keep the host's file glyph. */
export const CONVERSATION_APPEARANCE = 'session' as const

/** A session chip: which session cites which, and the canonical mention it sends. */
export interface SessionChipRef {
  readonly kind: 'session'
  readonly citingSessionId: string
  readonly citedSessionId: string
  readonly label: string
  /** Canonical `@[label](dsh-session:…)` mention. */
  readonly mention: string
}

/** A file chip: the `@path` mention the host's file grammar produced. */
export interface FileChipRef {
  readonly kind: 'file'
  readonly mention: string
}

export type ChipRef = SessionChipRef | FileChipRef

export function encodeChipRef(ref: ChipRef): string {
  return JSON.stringify(ref)
}

/** Decodes a chip ref. Returns the ref, or `undefined` when the string is not one. */
export function decodeChipRef(value: string): ChipRef | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    // Not a chip this plugin wrote: left to the host as it is.
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined
  const record = parsed as Record<string, unknown>
  const text = (key: string) => typeof record[key] === 'string' && record[key] !== ''
  if (record.kind === 'file' && text('mention')) return { kind: 'file', mention: record.mention as string }
  if (record.kind === 'session' && text('citingSessionId') && text('citedSessionId') && text('label') && text('mention')) {
    return {
      kind: 'session',
      citingSessionId: record.citingSessionId as string,
      citedSessionId: record.citedSessionId as string,
      label: record.label as string,
      mention: record.mention as string,
    }
  }
  return undefined
}
