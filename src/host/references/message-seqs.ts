/**
 * Where a source's messages are in its log: the log seq of each person's message and reply with text,
 * for asking what a source gained since a snapshot. A live session answers from its events in memory.
 * @module @wishp3/dsh-sessions/host/references/message-seqs
 */
import type { Context } from '@deepseek-ai/cordis'
import { SessionId } from '@deepseek-ai/dsh-session'
import { messageText } from '../official/conversation.ts'
import { readMessageSeqs } from '../official/log-file.ts'
import type { LogHeader, SessionLogLocator } from '../search/log-locator.ts'
import { BoundedMap } from '../bounded-map.ts'

/** Sessions whose message seqs are kept; the least recently asked is dropped first. */
const KEPT = 1024

/** The message seqs of sessions. */
export class MessageSeqs {
  /** Asking for a kept session again sets it again, so the least recently asked is dropped first. */
  private readonly kept = new BoundedMap<string, { readonly revision: string; readonly seqs: readonly number[] }>(KEPT)
  /** Log files read per session id since start. */
  readonly reads = new Map<string, number>()
  private readonly ctx: Context
  private readonly logs: SessionLogLocator

  constructor(ctx: Context, logs: SessionLogLocator) {
    this.ctx = ctx
    this.logs = logs
  }

  /** The log seqs of a session's messages. `header`: a session the caller knows (live, or held by the session catalog). Returns the seqs in log order; `undefined` when its log cannot be found or read. */
  async of(header: LogHeader): Promise<readonly number[] | undefined> {
    const live = this.ctx.sessions.get(SessionId(header.id))
    if (live !== undefined) return live.events.flatMap(event => (messageText(event) === undefined ? [] : [event.seq]))
    const path = this.logs.path(header)
    const revision = await this.logs.revision(header)
    if (path === undefined || revision === undefined) return undefined
    const known = this.kept.get(header.id)
    if (known?.revision === revision) {
      this.kept.set(header.id, known)
      return known.seqs
    }
    this.reads.set(header.id, (this.reads.get(header.id) ?? 0) + 1)
    const seqs = await readMessageSeqs(path).catch(() => undefined)
    if (seqs === undefined) return undefined
    this.kept.set(header.id, { revision, seqs })
    return seqs
  }
}
