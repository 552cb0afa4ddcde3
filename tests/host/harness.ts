/**
 * What the host specs share: the in-process host (a real cordis context with
 * the official rc.8 session services, see `dev/in-process-host.ts`), session
 * ids in the host's `session-<uuid>` form, two workspaces, the route call, and
 * readers of a pre-step decision.
 */
import type { PreStepDecision } from '@deepseek-ai/dsh-agent'
import { SessionId } from '@deepseek-ai/dsh-session'
import { formatSessionReferenceMention } from '@deepseek-ai/dsh-session-reference'

import { createHostHarness as createHost, type HostHarness } from '../../dev/in-process-host.ts'
import { hostileTexts, QUADRATIC_KINDS } from '../../dev/hostile-texts.ts'
import { ContentSearch } from '../../src/host/search/content-search.ts'
import { SessionLogLocator } from '../../src/host/search/log-locator.ts'
import { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { afterTest } from './cleanup.ts'
import { until as poll } from '../wait.ts'

export type { HostHarness }
export { afterTest, temporaryFolder } from './cleanup.ts'

/**
 * The in-process host, stopped after the current test.
 * @param options - see `dev/in-process-host.ts`.
 * @returns the harness.
 */
export async function createHostHarness(options?: Parameters<typeof createHost>[0]): Promise<HostHarness> {
  const harness = await createHost(options)
  afterTest(() => harness.dispose())
  return harness
}

/** The workspace of the citing session. */
export const A = '/w/alpha'

/** Another workspace. */
export const B = '/w/beta'

/**
 * A session id in the host's `session-<uuid>` form.
 * @param n - distinguishes the id.
 * @returns the id.
 */
export const id = (n: number): string => `session-00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/**
 * A well-formed session id no session has.
 * @param n - distinguishes the id.
 * @returns the id.
 */
export const unknownId = (n: number): string => `session-ffffffff-0000-4000-8000-${String(n).padStart(12, '0')}`

/** The session the specs send from. */
export const TARGET = id(1)

/**
 * The official canonical mention of a session.
 * @param sessionId - the cited session.
 * @param label - the label the mention shows; the id when omitted.
 * @returns `@[label](dsh-session:…)`.
 */
export const mention = (sessionId: string, label?: string): string =>
  formatSessionReferenceMention({ sessionId: SessionId(sessionId), ...(label === undefined ? {} : { label }) })

/**
 * Posts to a `/dsh-sessions` route.
 * @param url - the host's base URL.
 * @param path - the route below `/dsh-sessions/`.
 * @param body - a JSON value, or a string sent as it is.
 * @param headers - headers added to the JSON content type.
 * @returns the response.
 */
export function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/dsh-sessions/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/**
 * The messages a step enters with, as source kind and text; none for a rejected step.
 * @param decision - the pre-step decision.
 * @returns kind and joined text of each message.
 */
export function texts(decision: PreStepDecision): { kind: string; text: string }[] {
  if (decision.kind === 'reject') return []
  return decision.messages.map(message => ({
    kind: message.source.kind,
    text: message.content.map(block => (block.type === 'text' ? block.text : '')).join(''),
  }))
}

/**
 * The session-reference snapshots a step enters with.
 * @param decision - the pre-step decision.
 * @returns their texts, in order.
 */
export function snapshots(decision: PreStepDecision): string[] {
  return texts(decision).filter(message => message.kind === 'session-reference').map(message => message.text)
}

/** The hostile texts on which a backtracking scan of the canonical mention pattern takes quadratic time (seconds each), by kind. */
export const PATHOLOGICAL: Record<string, string> = Object.fromEntries(QUADRATIC_KINDS.map(kind => [kind, hostileTexts()[kind]!]))

/**
 * Reads a value until it is as wanted, every 20 ms for at most 5 s.
 * @param read - reads the value.
 * @param done - whether it is as wanted.
 * @returns the value as wanted.
 * @throws when it is not within 5 s, naming the last value read.
 */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value: T | undefined
  await poll(async () => done(value = await read()), 'a value as wanted', 5_000).catch((error: unknown) => {
    throw new Error(`timed out; last ${JSON.stringify(value)}`, { cause: error })
  })
  return value as T
}

/**
 * The session catalog and a content search (in memory, live changes followed at once) over a harness's sessions, both ready.
 * @param h - the harness.
 * @returns both.
 */
export async function searchIndexes(h: HostHarness): Promise<{ index: SessionCatalog; content: ContentSearch }> {
  const index = new SessionCatalog(h.ctx)
  await index.ready()
  const content = new ContentSearch(h.ctx, { catalog: index, logs: new SessionLogLocator(h.ctx) }, { liveDelayMs: 0 })
  await content.whenReady()
  return { index, content }
}
