/**
 * `@wishp3/dsh-sessions`, host half.
 * @module @wishp3/dsh-sessions
 */
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-host-webserver'
import type {} from '@deepseek-ai/dsh-session-query'
import type {} from '@deepseek-ai/dsh-session-reference'
import type { Config } from './config.ts'
import { registerRoutes } from './host/http/routes.ts'
import { bootSettled } from './host/official/boot-settled.ts'
import { ScopedMentionResolver } from './host/references/mention-resolver.ts'
import { OutcomeLog } from './host/references/outcome-log.ts'
import { registerPreStep } from './host/references/pre-step.ts'
import { SendCheck } from './host/references/send-check.ts'
import { MessageSeqs } from './host/references/message-seqs.ts'
import { SourceMessages } from './host/references/source-messages.ts'
import { SnapshotPreparer } from './host/references/snapshot-preparer.ts'
import { SurfaceCache } from './host/references/surface-cache.ts'
import { SnapshotTails, snapshotTailsDir } from './host/references/snapshot-tails.ts'
import { StoredReads } from './host/references/stored-reads.ts'
import { StoreReader } from './host/reader/store-reader.ts'
import { catalogFile } from './host/sessions/catalog-file.ts'
import { ContentSearch, contentIndexFile } from './host/search/content-search.ts'
import { PointerReader } from './host/references/pointer.ts'
import { serveHostSearch } from './host/search/host-search.ts'
import { SessionLogLocator } from './host/search/log-locator.ts'
import { SessionCatalog } from './host/sessions/session-catalog.ts'
import { installSessionsSettings } from './host/settings.ts'
import { registerSessionTools } from './host/tools/session-tools.ts'

export { Config } from './config.ts'

export type { FailureMode, ReferenceScope } from './config.ts'

/** Plugin name shown in the Loader and in Settings → Plugins. */
export const name = 'dsh-sessions'

/** Milliseconds after the host's boot has settled before the session catalog lists sessions on its own (a request starts it sooner): the host's own start goes first. */
const START_AFTER_MS = 10_000

/** Services the row waits for. The plugin reads the official `sessionReferenceResolver`'s limits and runs a private instance of it; this list does not order the two `agent/pre-step` listeners. The official one registers with `prepend: true`, which puts it outside this plugin's listener whichever row loads first. */
export const inject = ['sessionReferenceResolver', 'sessionQuery', 'sessions', 'webServer']

/** Host plugin body. Cordis validates the row `config` against {@link Config} before it runs. `config`: the validated row configuration, the base of the settings section. */
export function apply(ctx: Context, config: Config): void {
  const settings = installSessionsSettings(ctx, config)
  const reader = new StoreReader(ctx)
  const catalog = new SessionCatalog(ctx, { startAfterMs: START_AFTER_MS, startFrom: bootSettled(ctx), file: catalogFile(), store: reader })
  const logs = new SessionLogLocator(ctx)
  const reads = new StoredReads(ctx)
  const tails = new SnapshotTails(ctx, { catalog: catalog, logs: logs }, { dir: snapshotTailsDir(), reads, reader })
  const content = new ContentSearch(ctx, { catalog: catalog, logs: logs }, { file: contentIndexFile(), follower: tails, freeSpaceMiB: () => settings.current().indexFreeSpaceMiB })
  const surfaces = new SurfaceCache(ctx, catalog, { tails, reads, reader })
  const preparer = new SnapshotPreparer(ctx, { cache: surfaces, catalog: catalog, pointers: new PointerReader(catalog, content, surfaces) })
  const check = new SendCheck({ resolver: new ScopedMentionResolver(catalog), preparer })
  const outcomes = new OutcomeLog()
  registerPreStep(ctx, { check, settings, outcomes })
  registerRoutes(ctx, { catalog, content, check, settings, outcomes, reader, messages: new SourceMessages({ cache: surfaces, catalog: catalog }, new MessageSeqs(ctx, logs), id => surfaces.readTitle(id)) })
  registerSessionTools(ctx, { catalog, content, settings })
  serveHostSearch(ctx, catalog, content)
}
