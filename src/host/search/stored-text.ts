/**
 * Message text as the index stores it: consecutive messages of a session,
 * with the log event each came from, in deflate-compressed pieces of about
 * {@link PIECE_CHARS} characters (see `index-file.ts`), and the digest that
 * tells whether a session's earlier messages changed.
 * @module @wishp3/dsh-sessions/host/search/stored-text
 */
import { createHash } from 'node:crypto'
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { MessageRole } from './conversation.ts'

/**
 * A digest chained over a session's messages: at `upTo` messages (to tell
 * that a session's earlier messages are unchanged) and over all of them.
 * @param messages - the session's message texts.
 * @param upTo - how many messages the first digest covers.
 * @returns both digests, in hex.
 */
export function digestOf(messages: readonly string[], upTo: number): { prefix: string; whole: string } {
  const hash = createHash('sha1')
  let prefix = upTo === 0 ? hash.copy().digest('hex') : ''
  messages.forEach((message, n) => {
    hash.update(message).update('\u0000')
    if (n + 1 === upTo) prefix = hash.copy().digest('hex')
  })
  return { prefix, whole: hash.digest('hex') }
}

/** A piece of stored text: consecutive messages and, per message, `[seq, time, role]` or `null`. */
export type StoredPiece = [messages: string[], origins: ([number, number, MessageRole] | null)[]]

/** A stored piece of text that does not unpack: the file is damaged. */
export class UnpackError extends Error {}

/**
 * A stored piece of text, unpacked.
 * @param blob - the piece as stored.
 * @returns its messages and their origins.
 */
export function unpack(blob: Uint8Array): StoredPiece {
  let value: unknown
  try {
    value = JSON.parse(inflateRawSync(blob).toString('utf8'))
  } catch (error) {
    throw new UnpackError(`a stored piece of text does not unpack: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!Array.isArray(value) || !Array.isArray(value[0]) || !Array.isArray(value[1])) throw new UnpackError('a stored piece of text is not one')
  return value as StoredPiece
}

/**
 * A piece of text packed for storing.
 * @param piece - its messages and their origins.
 * @param level - the deflate level.
 * @returns the compressed piece.
 */
export function pack(piece: StoredPiece, level: number): Uint8Array {
  return deflateRawSync(JSON.stringify(piece), { level })
}
