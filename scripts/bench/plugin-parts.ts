/**
 * The bench's one door into the plugin's source: its host parts built as the plugin builds them, for
 * the modes that measure them in process, and the few functions they call as they are. No other bench
 * file imports `src/` (`tests/build/layers.spec.ts`), so a change inside the plugin touches this file only.
 * @module @wishp3/dsh-sessions/scripts/bench/plugin-parts
 */
import type { Context } from '@deepseek-ai/cordis'
import { Config } from '../../src/config.ts'
import { ScopedMentionResolver } from '../../src/host/references/mention-resolver.ts'
import { SendCheck } from '../../src/host/references/send-check.ts'
import { SnapshotPreparer } from '../../src/host/references/snapshot-preparer.ts'
import { SurfaceCache } from '../../src/host/references/surface-cache.ts'
import { ContentSearch, type ContentSearchOptions } from '../../src/host/search/content-search.ts'
import { SessionLogLocator } from '../../src/host/search/log-locator.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { Framing } from '../../src/host/official/session-reference.ts'
import { readSessionTool } from '../../src/host/tools/read-session.ts'
import { searchSessionsTool } from '../../src/host/tools/search-sessions.ts'

export { Config } from '../../src/config.ts'
export { listCandidates } from '../../src/host/references/candidates.ts'
export { tailFileName } from '../../src/host/references/snapshot-tails.ts'
export { hostSearch } from '../../src/host/search/host-search.ts'
export { logRevision } from '../../src/host/search/worker-protocol.ts'
export { searchSidebar } from '../../src/host/search/sidebar-search.ts'
export { IndexKeeper, sqliteFileOf } from '../../src/host/search/worker/index-keeper.ts'
export type { SearchSessions } from '../../src/host/official/session-query.ts'
export { formatMessageReference } from '../../src/shared/message-reference.ts'
export type { ContentSearch, SessionCatalog, SnapshotPreparer }

/** The reference path of one host: the session catalog, the mention resolver, a snapshot preparer and the send check over them. */
export interface ReferenceParts {
  readonly catalog: SessionCatalog
  readonly resolver: ScopedMentionResolver
  readonly preparer: SnapshotPreparer
  readonly check: SendCheck
  /** Another preparer over the same catalog; `surfaceTtlMs` 0 keeps no surface between reads. */
  preparerWith(options: { readonly surfaceTtlMs?: number }): SnapshotPreparer
}

export function referenceParts(ctx: Context): ReferenceParts {
  const catalog = new SessionCatalog(ctx)
  const resolver = new ScopedMentionResolver(catalog)
  const preparerWith = ({ surfaceTtlMs }: { readonly surfaceTtlMs?: number }) => new SnapshotPreparer(ctx, { cache: new SurfaceCache(ctx, catalog, surfaceTtlMs === undefined ? undefined : { ttlMs: surfaceTtlMs }), catalog: catalog })
  const preparer = preparerWith({})
  return { catalog, resolver, preparer, check: new SendCheck({ resolver, preparer }), preparerWith }
}

/** The search path of one host: the session catalog and the content search over the host's logs. */
export function searchParts(ctx: Context, options: ContentSearchOptions): { readonly catalog: SessionCatalog; readonly content: ContentSearch } {
  const catalog = new SessionCatalog(ctx)
  return { catalog, content: new ContentSearch(ctx, { catalog: catalog, logs: new SessionLogLocator(ctx) }, options) }
}

/** The two model tools over a catalog and content search, under fixed settings. */
export function toolParts(ctx: Context, catalog: SessionCatalog, content: ContentSearch, settings: Partial<Config>): { readonly search: ReturnType<typeof searchSessionsTool>; readonly read: ReturnType<typeof readSessionTool> } {
  const config = Config(settings)
  const deps = { catalog, content, settings: { current: () => config, update: () => Promise.reject(new Error('read-only')), onChange: () => () => {} }, framing: new Framing() }
  return { search: searchSessionsTool(ctx, deps), read: readSessionTool(ctx, deps) }
}
