/**
 * The searchable text of one session log file, read straight from disk: a
 * Zstandard log (the host's default) is decoded frame by frame with Node's
 * own decoder, a plain one is read as text, and only lines of messages and
 * titles are parsed. A torn last frame, a malformed line or an unterminated
 * last line is skipped. Needs nothing of the host, so it also runs in the
 * search worker.
 * @module @wishp3/dsh-sessions/host/search/log-file
 */
import { readFile } from 'node:fs/promises'
import { zstdDecompressSync } from 'node:zlib'
import { ConversationBuilder, MAX_SESSION_TEXT, messageText, type RoledConversation } from './conversation.ts'

/** Log lines worth parsing: messages and titles. */
const WANTED = /"type":"(?:user\/message|assistant\/message|session\/title)"/

/** Log lines of messages. */
const MESSAGES = /"type":"(?:user\/message|assistant\/message)"/

/** What Node's decoder answers with `info: true`: the output and the engine, whose `bytesWritten` is the input it consumed. */
interface DecodedFrame {
  readonly buffer: Buffer
  readonly engine: { readonly bytesWritten: number }
}

function isDecodedFrame(value: unknown): value is DecodedFrame {
  const engine: unknown = (value as { engine?: unknown } | null)?.engine
  return Buffer.isBuffer((value as { buffer?: unknown } | null)?.buffer) && typeof (engine as { bytesWritten?: unknown } | null)?.bytesWritten === 'number'
}

/** Each decoded frame of a Zstandard log, in order; stops at a torn or corrupt frame. */
function* frames(buffer: Buffer): Generator<Buffer> {
  let offset = 0
  while (offset < buffer.length) {
    let decoded: unknown
    try {
      decoded = zstdDecompressSync(buffer.subarray(offset), { info: true })
    } catch {
      return
    }
    if (!isDecodedFrame(decoded)) return
    yield decoded.buffer
    if (decoded.engine.bytesWritten <= 0) return
    offset += decoded.engine.bytesWritten
  }
}

function parse(line: string, builder: ConversationBuilder): void {
  if (!WANTED.test(line)) return
  try {
    builder.add(JSON.parse(line) as object)
  } catch {
    // a malformed line is skipped
  }
}

/** The decoded lines of a log file, in order; a torn or unterminated last line is left out. `undefined` when the file does not exist. */
async function logLines(path: string): Promise<Iterable<string> | undefined> {
  let buffer: Buffer
  try {
    buffer = await readFile(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  return (function* () {
    let rest = ''
    for (const piece of path.endsWith('.zstd') ? frames(buffer) : [buffer]) {
      const lines = (rest + piece.toString('utf8')).split('\n')
      rest = lines.pop()!
      yield* lines
    }
  })()
}

/**
 * The log seqs of a log file's messages: every person's message and every
 * reply with text, as search counts them (see `messageText`), however long
 * the session is.
 * @param path - the log file (`.zstd` for a compressed one).
 * @returns the seqs in log order; `undefined` when the file does not exist.
 */
export async function readMessageSeqs(path: string): Promise<number[] | undefined> {
  const lines = await logLines(path)
  if (lines === undefined) return undefined
  const seqs: number[] = []
  for (const line of lines) {
    if (!MESSAGES.test(line)) continue
    let event: { seq?: unknown }
    try {
      event = JSON.parse(line) as { seq?: unknown }
    } catch {
      continue
    }
    if (typeof event.seq === 'number' && Number.isSafeInteger(event.seq) && messageText(event) !== undefined) seqs.push(event.seq)
  }
  return seqs
}

/**
 * Reads a log file's searchable text.
 * @param path - the log file (`.zstd` for a compressed one).
 * @param maxText - most characters of message text kept.
 * @returns its title, message texts and their roles; `undefined` when the file does not exist.
 */
export async function readLogFile(path: string, maxText: number = MAX_SESSION_TEXT): Promise<RoledConversation | undefined> {
  const lines = await logLines(path)
  if (lines === undefined) return undefined
  const builder = new ConversationBuilder(maxText)
  for (const line of lines) parse(line, builder)
  return builder.roledResult()
}
