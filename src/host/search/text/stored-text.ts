/**
 * Message text as the index stores it: consecutive messages of a session, with the log event each came
 * from, in Brotli-compressed pieces of about {@link PIECE_CHARS} characters (see `index-file.ts`),
 * and the digest that tells whether a session's earlier messages changed.
 * @module @wishp3/dsh-sessions/host/search/text/stored-text
 */
import { createHash } from 'node:crypto'
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'
import type { MessageRole } from '../../official/conversation.ts'

/** A digest of a session's messages, taken as they come: the same digest whether they come at once or a few at a time. */
export class MessageDigest {
  private readonly hash = createHash('sha1')

  /** Takes the next message. */
  add(message: string): void {
    this.hash.update(message).update('\u0000')
  }

  /** The digest of the messages so far, in hex. */
  value(): string {
    return this.hash.copy().digest('hex')
  }
}

/** The digest at `upTo` messages (to tell that a session's earlier messages are unchanged) and over all of them. `upTo`: how many messages the first digest covers. */
export function digestOf(messages: readonly string[], upTo: number): { prefix: string; whole: string } {
  const digest = new MessageDigest()
  let prefix = upTo === 0 ? digest.value() : ''
  messages.forEach((message, n) => {
    digest.add(message)
    if (n + 1 === upTo) prefix = digest.value()
  })
  return { prefix, whole: digest.value() }
}

/** A piece of stored text: consecutive messages and, per message, `[seq, time, role]` or `null`. */
export type StoredPiece = [messages: string[], origins: ([number, number, MessageRole] | null)[]]

/** A stored piece of text that does not unpack: the file is damaged. */
export class UnpackError extends Error {}

/** A stored piece of text, unpacked. */
export function unpack(blob: Uint8Array): StoredPiece {
  let value: unknown
  try {
    value = JSON.parse(brotliDecompressSync(blob).toString('utf8'))
  } catch (error) {
    throw new UnpackError(`a stored piece of text does not unpack: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!Array.isArray(value) || !Array.isArray(value[0]) || !Array.isArray(value[1])) throw new UnpackError('a stored piece of text is not one')
  return value as StoredPiece
}

/** The Brotli window of a piece, as a power of two: 64 KiB holds a whole piece of some 4 KiB (only a single longer message makes a longer one), so a piece takes the same bytes as with the default 4 MiB window, packed and unpacked some 10 % faster. */
const WINDOW_BITS = 16

/** A piece of text packed for storing, at a Brotli `quality` (0–11). */
export function pack(piece: StoredPiece, quality: number): Uint8Array {
  const json = Buffer.from(JSON.stringify(piece))
  return brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_LGWIN]: WINDOW_BITS, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } })
}
