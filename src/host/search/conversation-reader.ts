/**
 * Pages of cold sessions' conversations, read from their log files in the
 * search worker for the `read_session` tool. The last few conversations read
 * are kept, keyed by log path and revision, so reading on through a long
 * session parses its log once.
 * @module @wishp3/dsh-sessions/host/search/conversation-reader
 */
import type { RoledConversation } from './conversation.ts'
import { type ConversationPage, pageOf } from './conversation-page.ts'
import { readLogFile } from '../official/log-file.ts'

/** Most characters of one session's conversation the tool can read. */
export const MAX_READ_TEXT = 16 * 1024 * 1024

/** Conversations kept. */
const KEPT = 4

/** The reader. */
export class ConversationReader {
  private readonly kept = new Map<string, Promise<RoledConversation | undefined>>()

  /**
   * A page of a session's conversation.
   * @param path - the session's log file.
   * @param revision - the log's revision, as the host last saw it.
   * @param from - the first message number wanted.
   * @param maxChars - most characters the page holds.
   * @returns the page; `null` when the log is gone.
   */
  async page(path: string, revision: string, from: number, maxChars: number): Promise<ConversationPage | null> {
    const key = `${path}\u0000${revision}`
    let reading = this.kept.get(key)
    if (reading === undefined) {
      reading = readLogFile(path, MAX_READ_TEXT)
      this.kept.set(key, reading)
      if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!)
      reading.catch(() => { this.kept.delete(key) })
    } else {
      this.kept.delete(key)
      this.kept.set(key, reading)
    }
    const conversation = await reading
    return conversation === undefined ? null : pageOf(conversation, from, maxChars)
  }
}
