/**
 * Reads one persisted session log straight from the file the host's
 * persistence backend names for it (`sessionPersistence.locate`), without
 * the backend's search of every workspace folder and without parsing events
 * search does not need: a Zstandard log is decoded frame by frame with
 * Node's own decoder, and only lines of messages and titles are parsed. A
 * torn last frame or a malformed line is skipped. The work yields to the
 * event loop every few milliseconds, so one large log never holds a request
 * up for long.
 *
 * A log's revision is its size and modification time: it changes whenever
 * the host appends to it.
 * @module @wishp3/dsh-sessions/host/log-reader
 */
import { readFile, stat } from 'node:fs/promises'
import { zstdDecompressSync } from 'node:zlib'
import type { Context } from '@deepseek-ai/cordis'
import { SESSION_FORMAT_VERSION, SessionId } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-persistence'
import { ConversationBuilder, type ConversationText } from './search/conversation.ts'

/** What names a session's log. */
export interface LogHeader {
  readonly id: string
  readonly cwd: string | undefined
  readonly createdAt: number
}

/** One log read. */
export interface LogRead {
  /** The revision observed before reading; the text is at least that new. */
  readonly revision: string
  readonly conversation: ConversationText
}

/** Milliseconds of uninterrupted decoding or parsing before yielding. */
const SLICE_MS = 4

/** Log lines worth parsing: messages and titles. */
const WANTED = /"type":"(?:user\/message|assistant\/message|session\/title)"/

const yieldToLoop = (): Promise<void> => new Promise(resolve => setImmediate(resolve))

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

/** Direct reads of persisted logs. */
export class SessionLogReader {
  private readonly ctx: Context

  constructor(ctx: Context) {
    this.ctx = ctx
  }

  /** The log file of a session; `undefined` when the backend keeps none. */
  private path(header: LogHeader): string | undefined {
    const persistence = this.ctx.get('sessionPersistence')
    if (persistence === undefined) return undefined
    const meta = { version: SESSION_FORMAT_VERSION, id: SessionId(header.id), createdAt: header.createdAt, ...(header.cwd === undefined ? {} : { cwd: header.cwd }) }
    try {
      const location = persistence.locate(meta)
      return location?.path
    } catch {
      return undefined
    }
  }

  /**
   * The current revision of a session's log.
   * @param header - the session.
   * @returns `size:mtime`; `undefined` when there is no log file to look at.
   */
  async revision(header: LogHeader): Promise<string | undefined> {
    const path = this.path(header)
    if (path === undefined) return undefined
    try {
      const info = await stat(path)
      return `${info.size}:${info.mtimeMs}`
    } catch {
      return undefined
    }
  }

  /**
   * Reads a session's searchable text from its log.
   * @param header - the session.
   * @param signal - stops the read between slices.
   * @returns the text and the revision read; `undefined` when there is no log file.
   */
  async read(header: LogHeader, signal?: AbortSignal): Promise<LogRead | undefined> {
    const path = this.path(header)
    if (path === undefined) return undefined
    let buffer: Buffer
    let revision: string
    try {
      const info = await stat(path)
      revision = `${info.size}:${info.mtimeMs}`
      buffer = await readFile(path, { signal })
    } catch (error) {
      signal?.throwIfAborted()
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
    const builder = new ConversationBuilder()
    let deadline = performance.now() + SLICE_MS
    let rest = ''
    const pieces = path.endsWith('.zstd') ? frames(buffer) : [buffer][Symbol.iterator]()
    for (const piece of pieces) {
      const lines = (rest + piece.toString('utf8')).split('\n')
      rest = lines.pop()!
      for (const line of lines) {
        if (!WANTED.test(line)) continue
        try {
          builder.add(JSON.parse(line) as object)
        } catch {
          // a malformed line is skipped
        }
      }
      if (performance.now() >= deadline) {
        await yieldToLoop()
        signal?.throwIfAborted()
        deadline = performance.now() + SLICE_MS
      }
    }
    if (rest !== '' && WANTED.test(rest)) {
      try {
        builder.add(JSON.parse(rest) as object)
      } catch {
        // an unterminated last line is skipped
      }
    }
    return { revision, conversation: builder.result() }
  }
}
