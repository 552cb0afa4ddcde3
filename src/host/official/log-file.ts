/**
 * The searchable text of one session log file, read straight from disk.
 * @module @wishp3/dsh-sessions/host/official/log-file
 */
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { constants as zlibConstants, zstdDecompressSync } from 'node:zlib'
import { ConversationBuilder, MAX_SESSION_TEXT, messageText, type RoledConversation } from './conversation.ts'

/** Event types a reading wants, and the pattern that finds them in a line wherever its type stands. */
interface WantedEvents {
  readonly types: ReadonlySet<string>
  readonly pattern: RegExp
}

function wanted(...types: string[]): WantedEvents {
  return { types: new Set(types), pattern: new RegExp(`"type":"(?:${types.join('|')})"`) }
}

/** Lines worth parsing for search: messages and titles. */
const SEARCHED = wanted('user/message', 'assistant/message', 'session/title')

/** Lines of messages. */
const MESSAGES = wanted('user/message', 'assistant/message')

/** What Node's decoder answers with `info: true`: the output and the engine, whose `bytesWritten` is the input it consumed. */
interface DecodedFrame {
  readonly buffer: Buffer
  readonly engine: { readonly bytesWritten: number }
}

function isDecodedFrame(value: unknown): value is DecodedFrame {
  const engine: unknown = (value as { engine?: unknown } | null)?.engine
  return Buffer.isBuffer((value as { buffer?: unknown } | null)?.buffer) && typeof (engine as { bytesWritten?: unknown } | null)?.bytesWritten === 'number'
}

/**
 * The piece a long frame is decoded into, and a frame that states no size. Node's default, 16 KiB pieces, makes a
 * long frame thousands of small buffers, and the C library's allocator kept what they took after they were freed:
 * a process reading a store's logs grew by hundreds of megabytes for good. A piece this large is mapped for the
 * call and given back whole; only the pages the frame fills are touched.
 */
const LONG_FRAME_PIECE = 4 * 1024 * 1024

/** Frames whose header states fewer decoded bytes than this (the C library's default threshold for mapping an allocation on its own) are decoded into one piece of that size, as cheap as a small buffer. */
const SHORT_FRAME = 128 * 1024

/** The zstd magic number that opens a frame, little-endian. */
const FRAME_MAGIC = 0xfd2fb528

/** The decoded size a zstd frame's header states (RFC 8878, 3.1.1), read at `offset`; `undefined` when it states none or is not a frame's header. */
function statedSize(buffer: Buffer, offset: number): number | undefined {
  if (offset + 5 > buffer.length || buffer.readUInt32LE(offset) !== FRAME_MAGIC) return undefined
  const descriptor = buffer[offset + 4]!
  const singleSegment = (descriptor >> 5) & 1
  const sizeBytes = [singleSegment === 1 ? 1 : 0, 2, 4, 8][descriptor >> 6]!
  const at = offset + 5 + (singleSegment === 1 ? 0 : 1) + [0, 1, 2, 4][descriptor & 3]!
  if (sizeBytes === 0 || at + sizeBytes > buffer.length) return undefined
  if (sizeBytes === 1) return buffer[at]
  if (sizeBytes === 2) return buffer.readUInt16LE(at) + 256
  if (sizeBytes === 4) return buffer.readUInt32LE(at)
  return Number(buffer.readBigUInt64LE(at))
}

/** The piece a frame at `offset` is decoded into: a short frame's one byte more than it states (filling it asks for no second piece), any other {@link LONG_FRAME_PIECE}. */
function pieceFor(buffer: Buffer, offset: number): number {
  const size = statedSize(buffer, offset)
  return size !== undefined && size < SHORT_FRAME ? Math.max(zlibConstants.Z_MIN_CHUNK, size + 1) : LONG_FRAME_PIECE
}

/** Each decoded frame of a Zstandard log, in order; stops at a torn or corrupt frame. */
function* frames(buffer: Buffer): Generator<Buffer> {
  let offset = 0
  while (offset < buffer.length) {
    let decoded: unknown
    try {
      decoded = zstdDecompressSync(buffer.subarray(offset), { info: true, chunkSize: pieceFor(buffer, offset) })
    } catch {
      // A damaged frame ends the log: what was read before it stands.
      return
    }
    if (!isDecodedFrame(decoded)) return
    yield decoded.buffer
    if (decoded.engine.bytesWritten <= 0) return
    offset += decoded.engine.bytesWritten
  }
}

function parse(line: string, builder: ConversationBuilder): void {
  try {
    builder.add(JSON.parse(line) as object)
  } catch {
    // a malformed line is skipped
  }
}

/** What an event line starts with when the host writes its type first, as it does. */
const TYPE_FIRST = Buffer.from('{"type":"')

/** Most bytes of an event type read from a line's start. */
const MAX_TYPE_BYTES = 64

/** The lines of a log's decoded text that are events of the given types, as text; a torn or unterminated last line is left out. A line that starts with its type is told by that type alone, without being decoded; any other line is decoded and matched against the pattern, so the answer does not depend on where the type stands. */
function* linesOf(pieces: Iterable<Buffer>, { types, pattern }: WantedEvents): Generator<string> {
  let rest: Buffer | undefined
  for (const piece of pieces) {
    const buffer = rest === undefined || rest.length === 0 ? piece : Buffer.concat([rest, piece])
    let start = 0
    for (let end = buffer.indexOf(10, start); end >= 0; start = end + 1, end = buffer.indexOf(10, start)) {
      if (buffer.compare(TYPE_FIRST, 0, TYPE_FIRST.length, start, Math.min(end, start + TYPE_FIRST.length)) === 0) {
        const from = start + TYPE_FIRST.length
        const quote = buffer.indexOf(34, from)
        if (quote < 0 || quote > end || quote - from > MAX_TYPE_BYTES || !types.has(buffer.toString('latin1', from, quote))) continue
        yield buffer.toString('utf8', start, end)
        continue
      }
      const line = buffer.toString('utf8', start, end)
      if (pattern.test(line)) yield line
    }
    rest = buffer.subarray(start)
  }
}

/** How a log file's bytes are read (see {@link LOG_BYTES}). */
export type LogBytes = (path: string) => Buffer | Promise<Buffer>

/**
 * The two ways to read a log's bytes. The host's thread reads without blocking, through the process's libuv
 * pool. A thread of the plugin's own reads in that thread, at that thread's priority: the pool is the
 * process's, four threads for all of it at the host's priority, and the host's own file requests (its `/api`
 * among them) would wait behind a build's reads there.
 */
export const LOG_BYTES = {
  unblocking: (path: string): Promise<Buffer> => readFile(path),
  inThisThread: (path: string): Buffer => readFileSync(path),
} as const satisfies Record<string, LogBytes>

/** The decoded text of a log file, a piece at a time (a frame of a Zstandard log, or the whole of a plain one). `undefined` when the file does not exist. */
async function logPieces(path: string, bytes: LogBytes = LOG_BYTES.unblocking): Promise<Iterable<Buffer> | undefined> {
  let buffer: Buffer
  try {
    buffer = await bytes(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  return path.endsWith('.zstd') ? frames(buffer) : [buffer]
}

/** The log seqs of a log file's messages: every person's message and every reply with text, as search counts them (see `messageText`), however long the session is. `path`: the log file (`.zstd` for a compressed one). Returns the seqs in log order; `undefined` when the file does not exist. */
export async function readMessageSeqs(path: string): Promise<number[] | undefined> {
  const pieces = await logPieces(path)
  if (pieces === undefined) return undefined
  const seqs: number[] = []
  for (const line of linesOf(pieces, MESSAGES)) {
    let event: { seq?: unknown }
    try {
      event = JSON.parse(line) as { seq?: unknown }
    } catch {
      // A malformed line is skipped, as the host's own reader skips it.
      continue
    }
    if (typeof event.seq === 'number' && Number.isSafeInteger(event.seq) && messageText(event) !== undefined) seqs.push(event.seq)
  }
  return seqs
}

/** Reads a log file's searchable text. `path`: the log file (`.zstd` for a compressed one). `bytes`: how its bytes are read (see {@link LOG_BYTES}). Returns its title, message texts and their roles; `undefined` when the file does not exist. */
export async function readLogFile(path: string, maxText: number = MAX_SESSION_TEXT, bytes: LogBytes = LOG_BYTES.unblocking): Promise<RoledConversation | undefined> {
  const pieces = await logPieces(path, bytes)
  if (pieces === undefined) return undefined
  const builder = new ConversationBuilder(maxText)
  for (const line of linesOf(pieces, SEARCHED)) parse(line, builder)
  return builder.roledResult()
}
