/**
 * The search worker's side of the protocol: each request on the port is handed to the index keeper and
 * answered once, with its result or its error's message, as it finishes (a query is answered while a
 * log is read or the file written).
 * @module @wishp3/dsh-sessions/host/search/worker/worker-server
 */
import type { MessagePort } from 'node:worker_threads'
import type { IndexKeeper } from './index-keeper.ts'
import { ConversationReader } from './conversation-reader.ts'
import { type CallHandlers, serveCalls } from '../../worker-calls.ts'
import type { WorkerCalls } from '../worker-protocol.ts'

/** Answers the requests that arrive on a port from a keeper. `port`: the worker's port to the host half. */
export function serveIndex(keeper: IndexKeeper, port: MessagePort): void {
  const reader = new ConversationReader()
  const handlers: CallHandlers<WorkerCalls> = {
    put: ({ session, entry }) => {
      keeper.apply(session, entry)
      return null
    },
    append: ({ session, entry }) => ({ appended: keeper.append(session, entry) }),
    read: args => keeper.read(args),
    forget: ({ session }) => {
      keeper.apply(session, null)
      return null
    },
    search: ({ terms, limit, role, mostWords, ...scope }) => keeper.search(scope, { terms, limit, role, mostWords }),
    hold: scope => keeper.hold(scope),
    save: ({ file, complete, merge }) => keeper.save(file, complete, merge),
    load: ({ file, freeSpaceMiB }) => keeper.load(file, freeSpaceMiB),
    check: ({ freeSpaceMiB }) => keeper.check(freeSpaceMiB),
    page: ({ path, revision, from, maxChars }) => reader.page({ path, revision }, { from, maxChars }),
    facts: ({ session }) => keeper.facts(session) ?? null,
    searchSession: ({ session, terms, limit, path, revision }) => keeper.searchSession(session, terms, limit)
      ?? (path === undefined || revision === undefined ? null : reader.matches({ path, revision }, { terms, limit })),
    wordCounts: ({ words, cap }) => keeper.wordCounts(words, cap) ?? null,
    findInSession: ({ session, terms, after, limit, path, revision }) => keeper.findInSession(session, { terms, after, limit })
      ?? (path === undefined || revision === undefined ? null : reader.find({ path, revision }, { terms, after, limit })),
  }
  serveCalls<WorkerCalls>(port, handlers)
}
