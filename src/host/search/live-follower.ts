/**
 * Live sessions followed into the content index: a session whose events
 * changed its text is written a moment later, its new messages alone once the
 * index holds the earlier ones (`live-text.ts`), recorded only once written.
 * @module @wishp3/dsh-sessions/host/search/live-follower
 */
import { liveSession } from '../official/live-sessions.ts'
import type { Context } from '@deepseek-ai/cordis'
import { messageText, titleOf } from '../official/conversation.ts'
import { LiveChanges } from './live-changes.ts'
import { LiveText } from './live-text.ts'
import { liveRevision } from './log-locator.ts'
import type { SearchWorker } from './worker-client.ts'

/** What following asks of the index it writes to. */
export interface FollowedIndex {
  /** The running worker, while indexing is not paused; `undefined` otherwise. */
  writer(): SearchWorker | undefined
  /** The revision the index holds of a session. */
  revisionOf(id: string): string | undefined
  /** Whether a session is still one to index. */
  listed(id: string): boolean
  /** Counts the files opened: a write that completes after another file was opened is not recorded. */
  epoch(): number
  /** Records what the index now holds of a session. */
  record(id: string, revision: string, title: string | undefined): void
  /** A write failed: the index handles damage and a full disk, and tries again later. */
  failed(id: string, error: unknown): void
}

/** The live sessions of one index. */
export class LiveFollower {
  /** Per live session, what the index was last sent of its text. */
  private readonly texts = new Map<string, LiveText>()
  /** Per live session, the revision whose write is under way. */
  private readonly writing = new Map<string, string>()
  private readonly changes: LiveChanges
  private readonly ctx: Context
  private readonly index: FollowedIndex

  /** `delayMs`: the wait after a session's first change before its text is written. */
  constructor(ctx: Context, index: FollowedIndex, delayMs: number) {
    this.ctx = ctx
    this.index = index
    this.changes = new LiveChanges(delayMs, id => this.changed(id))
    ctx.on('session/event', (session, event) => {
      if (messageText(event) !== undefined || titleOf(event) !== undefined) this.changes.changed(session.id)
    })
  }

  /** Forgets a session's followed text (it stopped being live, or left the index). */
  drop(id: string): void {
    this.texts.delete(id)
  }

  /** Stops: changes not yet handled are dropped. */
  stop(): void {
    this.changes.stop()
  }

  /** Brings a live session's text up to date from its events. */
  follow(id: string): void {
    const session = liveSession(this.ctx, id)
    if (session === undefined) this.texts.delete(id)
    // While paused, the pass that resumes indexing visits it.
    const worker = this.index.writer()
    if (session === undefined || worker === undefined) return
    const revision = liveRevision(session)
    if (this.index.revisionOf(id) === revision || this.writing.get(id) === revision) return
    let text = this.texts.get(id)
    if (text === undefined) this.texts.set(id, text = new LiveText())
    const step = text.step(session.events)
    const title = step.kind === 'whole' ? step.text.title : step.entry.title
    const epoch = this.index.epoch()
    this.writing.set(id, revision)
    const done = (): void => {
      if (this.writing.get(id) === revision) this.writing.delete(id)
    }
    const written = step.kind === 'whole'
      ? worker.call('put', { session: id, entry: { revision, ...step.text } }).then(() => true)
      : worker.call('append', { session: id, entry: { revision, ...step.entry } }).then(result => result.appended)
    written.then(appended => {
      done()
      if (!appended) {
        // The index no longer holds what the append followed: the whole text goes instead.
        text.restart()
        this.follow(id)
        return
      }
      if (epoch === this.index.epoch() && this.index.listed(id)) this.index.record(id, revision, title)
    }, (error: unknown) => {
      done()
      text.restart()
      this.index.failed(id, error)
    })
  }

  private changed(id: string): void {
    if (!this.index.listed(id)) return
    try {
      this.follow(id)
    } catch (error) {
      this.ctx.logger('dsh-sessions').warn('content search: %s', error)
    }
  }
}
