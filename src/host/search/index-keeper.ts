/**
 * The content index as the search worker keeps it: changes, queries, and
 * saving to and restoring from the index file. While the file is written the
 * index must not change, so changes that arrive meanwhile wait in arrival
 * order and are applied once the write settles, whether it succeeded,
 * failed or was cancelled: none is lost, and none reaches the half-written
 * file. Runs wherever it is constructed (the worker thread, or a test).
 * @module @wishp3/dsh-sessions/host/search/index-keeper
 */
import type { Writable } from 'node:stream'
import { ContentIndex, type ContentEntry, type ContentHit } from './content-index.ts'
import { readIndexFile, writeIndexFile } from './index-file.ts'
import { removeStaleTemporaries } from './index-temporary.ts'
import { readLogFile } from './log-file.ts'
import type { QueryTerm } from './text.ts'
import type { WorkerCalls } from './worker-protocol.ts'

/** Options of {@link IndexKeeper}. */
export interface IndexKeeperOptions {
  /** Opens the temporary file a save writes (tests put faults here). */
  readonly open?: (path: string) => Writable
}

/** The worker's index and its file. */
export class IndexKeeper {
  private index = ContentIndex.empty()
  private saving: { readonly done: Promise<void>; readonly controller: AbortController } | undefined
  private readonly waiting = new Map<string, ContentEntry | null>()
  private readonly open: ((path: string) => Writable) | undefined

  constructor(options: IndexKeeperOptions = {}) {
    this.open = options.open
  }

  /** Whether a save is under way (changes wait meanwhile). */
  get isSaving(): boolean {
    return this.saving !== undefined
  }

  /**
   * Indexes a session's text, or forgets it (`null`); waits while the file is written.
   * @param session - the session.
   * @param entry - its text, or `null`.
   */
  apply(session: string, entry: ContentEntry | null): void {
    if (this.saving !== undefined) {
      // Arrival order decides: a later change of the same session replaces the earlier one.
      this.waiting.delete(session)
      this.waiting.set(session, entry)
    } else if (entry === null) this.index.delete(session)
    else this.index.set(session, entry)
  }

  /**
   * Reads a session's log file and indexes its text.
   * @param args - the session, its log file and that file's revision.
   * @returns whether the file was there, and its latest title.
   */
  async read({ session, path, revision }: WorkerCalls['read']['args']): Promise<WorkerCalls['read']['result']> {
    const conversation = await readLogFile(path)
    this.apply(session, conversation === undefined ? null : { revision, title: conversation.title, messages: conversation.messages })
    return { found: conversation !== undefined, title: conversation?.title }
  }

  /**
   * Sessions whose text has every term; see {@link ContentIndex.search}.
   * @param terms - the query's terms.
   * @param admitted - the sessions that may be found, with their creation times (newest first on ties).
   * @param limit - most sessions returned.
   * @returns the hits.
   */
  search(terms: readonly QueryTerm[], admitted: readonly (readonly [string, number])[], limit: number): readonly ContentHit[] {
    const createdAt = new Map(admitted)
    return this.index.search(terms, id => createdAt.has(id), limit, (a, b) => createdAt.get(b)! - createdAt.get(a)!)
  }

  /**
   * Writes the index file; changes wait until it settles.
   * @param file - the index file.
   * @returns the bytes written; rejects when the write fails or is cancelled (the old file stays).
   */
  async save(file: string): Promise<{ bytes: number }> {
    if (this.saving !== undefined) throw new Error('the index file is being written')
    const controller = new AbortController()
    let settle!: () => void
    this.saving = { controller, done: new Promise(resolve => { settle = resolve }) }
    try {
      await this.index.vacuum()
      return { bytes: await writeIndexFile(file, this.index, { signal: controller.signal, ...(this.open === undefined ? {} : { open: this.open }) }) }
    } finally {
      this.saving = undefined
      for (const [session, entry] of this.waiting) this.apply(session, entry)
      this.waiting.clear()
      settle()
    }
  }

  /** Cancels a save under way; resolves once it has settled and its temporary file is gone. */
  async cancelSave(): Promise<null> {
    const saving = this.saving
    if (saving === undefined) return null
    saving.controller.abort(new Error('the save was cancelled'))
    await saving.done
    return null
  }

  /**
   * Replaces the index with the file's, when it can be used, after removing
   * temporary files that stopped writers left.
   * @param file - the index file.
   * @returns the sessions restored, or why the file was not used.
   */
  async load(file: string): Promise<WorkerCalls['load']['result']> {
    await removeStaleTemporaries(file)
    const read = await readIndexFile(file)
    if (!read.ok) return { ok: false, reason: read.reason }
    this.index = read.index
    return { ok: true, entries: this.index.ids().map(id => [id, { revision: this.index.get(id)!.revision, title: this.index.get(id)!.title }] as const) }
  }
}
