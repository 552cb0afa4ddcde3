/**
 * Pages of cold sessions' conversations, and the messages of one that match a query, read from their
 * log files in the search worker for the `read_session` tool and the find bar.
 * @module @wishp3/dsh-sessions/host/search/worker/conversation-reader
 */
import type { RoledConversation } from '../../official/conversation.ts'
import { type ConversationPage, pageOf } from '../text/conversation-page.ts'
import { LOG_BYTES, readLogFile } from '../../official/log-file.ts'
import { scanMessages, type SessionMatches } from '../text/conversation-search.ts'
import { findInConversation, type SessionFind } from '../text/conversation-find.ts'
import type { QueryTerm } from '../text/terms.ts'
import { MAX_READ_TEXT } from '../worker-protocol.ts'


/** Conversations kept. */
const KEPT = 4

/** A session's log file and its revision, as the host last saw it. */
interface LogAt {
  readonly path: string
  readonly revision: string
}

/** The reader. */
export class ConversationReader {
  private readonly kept = new Map<string, Promise<RoledConversation | undefined>>()

  /** A page of a session's conversation. Returns the page; `null` when the log is gone. */
  async page(log: LogAt, { from, maxChars }: { readonly from: number; readonly maxChars: number }): Promise<ConversationPage | null> {
    const conversation = await this.read(log)
    return conversation === undefined ? null : pageOf(conversation, from, maxChars)
  }

  /** The messages of a session's conversation that hold every term of a query (see `message-search.ts`). Returns the matches; `null` when the log is gone. */
  async matches(log: LogAt, { terms, limit }: { readonly terms: readonly QueryTerm[]; readonly limit: number }): Promise<SessionMatches | null> {
    const conversation = await this.read(log)
    return conversation === undefined ? null : scanMessages(conversation, terms, limit)
  }

  /** The messages of a session's conversation that hold a query, in order after message `after` (see `session-find.ts`). Returns the page; `null` when the log is gone. */
  async find(log: LogAt, { terms, after, limit }: { readonly terms: readonly QueryTerm[]; readonly after: number; readonly limit: number }): Promise<SessionFind | null> {
    const conversation = await this.read(log)
    return conversation === undefined ? null : findInConversation(conversation, { terms, after, limit })
  }

  /** A session's conversation, read once while its log is unchanged. */
  private read({ path, revision }: LogAt): Promise<RoledConversation | undefined> {
    const key = `${path}\u0000${revision}`
    let reading = this.kept.get(key)
    if (reading === undefined) {
      reading = readLogFile(path, MAX_READ_TEXT, LOG_BYTES.inThisThread)
      this.kept.set(key, reading)
      if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!)
      reading.catch(() => { this.kept.delete(key) })
    } else {
      this.kept.delete(key)
      this.kept.set(key, reading)
    }
    return reading
  }
}
