/**
 * `npm run bench -- --only tools`: the session tools' own cost, in process on
 * the official session store and query engine. `search_sessions` on the
 * bench's generated conversations (queries of every kind the content bench
 * asks), `read_session` pages of one session of 5,000 messages, live (read
 * from memory) and cold (read from its log through the search worker), and
 * the tokens both schemas add to every request's tool list by the host's own
 * estimate.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import type { ToolDefinition, ToolRunContext } from '@deepseek-ai/dsh-tools'
import { benchQueries, type ConversationSpec, conversationCorpus } from '../../../dev/corpus.ts'
import { createHostHarness, type HostHarness } from '../../../dev/in-process-host.ts'
import { hostDir } from '../../../dev/pinned-host.ts'
import { type ContentSearch, searchParts, toolParts } from '../plugin-parts.ts'
import { ms, note, type Percentiles, percentiles, timed } from '../figures.ts'
import type { BenchMode } from '../mode.ts'

/** What the tools bench reports. */
export interface ToolFigures {
  readonly sessions: number
  readonly search: Percentiles & { readonly queries: number }
  /** The official `listCandidates` on the same queries (titles, ids and cwds only). */
  readonly officialCandidates: Percentiles
  /** The official whole-session snapshot of the long session. */
  readonly officialSnapshot: Percentiles
  readonly readLive: Percentiles
  readonly readCold: Percentiles & { readonly first: number }
  readonly schemaTokens: number
  readonly typicalResultTokens: { readonly search: number; readonly read: number }
}

const LONG_MESSAGES = 5_000

/** Ids of the form the host mints (`session-<n>`), as the tools accept only those. */
const LONG_ID = 'session-900000'
const CALLER_ID = 'session-900001'

/** A read that found nothing would time the refusal, not the page. */
function found(value: unknown): unknown {
  if ((value as { found?: unknown }).found !== true) throw new Error('read_session found nothing to read')
  return value
}

/** Writes the long session into a host: {@link LONG_MESSAGES} messages of the corpus's first turns. */
function writeLong(h: HostHarness, corpus: readonly ConversationSpec[]): void {
  h.session(LONG_ID, { cwd: '/w/ws-00', title: 'Long session' })
  for (let n = 0; n < LONG_MESSAGES / 2; n += 1) {
    const turn = corpus[n % corpus.length]!.turns[0]!
    h.turn(LONG_ID, `question ${n}: ${turn.user}`, `answer ${n}: ${turn.reply}`)
  }
}

async function toolsOf(h: HostHarness): Promise<{ search: ToolDefinition; read: ToolDefinition; content: ContentSearch }> {
  const { catalog: index, content } = searchParts(h.ctx, { liveDelayMs: 0 })
  await index.ready()
  await content.whenReady()
  await content.idle()
  return { ...toolParts(h.ctx, index, content, { scope: 'all' }), content }
}

function caller(h: HostHarness, id: string): ToolRunContext {
  return { agent: { id: SessionId(id), session: h.ctx.sessions.get(SessionId(id))! } as unknown as Agent, signal: new AbortController().signal } as unknown as ToolRunContext
}

/**
 * Measures the tools.
 * @param sessions - generated conversations to search.
 * @param workspaces - workspaces they are spread over.
 * @param runs - samples per query and per page.
 * @returns the figures.
 */
export async function measureSessionTools(sessions: number, workspaces: number, runs: number): Promise<ToolFigures> {
  const corpus = conversationCorpus(hostDir(), { sessions, workspaces })
  const h = await createHostHarness()
  h.session(CALLER_ID, { cwd: '/w/ws-00' })
  corpus.forEach((spec, n) => {
    const id = `session-${n}`
    h.session(id, { cwd: `/w/ws-${String(spec.workspace).padStart(2, '0')}`, title: spec.title, createdAt: n + 1 })
    for (const turn of spec.turns) h.turn(id, turn.user, turn.reply)
  })
  writeLong(h, corpus)
  const { search, read, content } = await toolsOf(h)
  const who = caller(h, CALLER_ID)
  const queries = benchQueries(corpus, { perKind: 3 }).map(query => query.query)
  for (const query of queries) await search.execute({ query }, who)
  const searchSamples: number[] = []
  for (const query of queries) searchSamples.push(...await timed(runs, () => search.execute({ query }, who)))
  // The official behaviour beside them: its candidate list (titles, ids and cwds only) and its whole-session snapshot.
  const official = h.ctx.sessionReferenceResolver
  const callerAgent = who.agent!
  const officialSearch: number[] = []
  for (const query of queries) officialSearch.push(...await timed(runs, () => official.listCandidates(callerAgent, query, 8)))
  const officialSnapshot = await timed(2, () => official.prepare(callerAgent, [], [{ sessionId: SessionId(LONG_ID) }]))
  let from = 1
  const readLive = await timed(runs, async () => {
    from = (from * 7919) % LONG_MESSAGES || 1
    return found(await read.execute({ sessionId: LONG_ID, fromMessage: from }, who))
  })
  const typicalSearch = search.output.render({ query: queries[0] }, await search.execute({ query: queries[0] }, who) as never)
  const typicalRead = read.output.render({}, found(await read.execute({ sessionId: LONG_ID, fromMessage: 100 }, who)) as never)
  // The host's own estimate: the same request header measured with and without the two schemas.
  await h.ctx.plugin(TokenMeter)
  const meter = h.ctx.get('tokenMeter')!
  const config = { provider: 'deepseek', model: 'deepseek-chat' }
  const measured = (tools: readonly ToolDefinition[]) => meter.measure(h.ctx.sessions.get(SessionId(CALLER_ID))!, {
    config, tools: tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
  } as never).totalTokens
  const schemaTokens = measured([search, read]) - measured([])
  const tokensOf = (blocks: readonly { type: string; text?: string }[]) => meter.estimateMessage(createUserMessage({ content: blocks as never, source: { kind: 'user' } }))
  void content

  // Cold: the long session written to disk by one host and read by another, through its log.
  const root = mkdtempSync(join(tmpdir(), 'dsh-sessions-bench-tools-'))
  let readCold: ToolFigures['readCold']
  try {
    const writer = await createHostHarness({ persistenceRoot: root })
    writeLong(writer, corpus)
    await writer.ctx.sessions.flush(writer.ctx.sessions.get(SessionId(LONG_ID))!)
    await writer.dispose()
    const reader = await createHostHarness({ persistenceRoot: root })
    reader.session(CALLER_ID, { cwd: '/w/ws-00' })
    const cold = await toolsOf(reader)
    const coldCaller = caller(reader, CALLER_ID)
    const first = (await timed(1, async () => found(await cold.read.execute({ sessionId: LONG_ID, fromMessage: 1 }, coldCaller))))[0]!
    const samples = await timed(runs, async () => {
      from = (from * 7919) % LONG_MESSAGES || 1
      return found(await cold.read.execute({ sessionId: LONG_ID, fromMessage: from }, coldCaller))
    })
    readCold = { ...percentiles(samples), first }
    await reader.dispose()
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
  await h.dispose()
  return {
    sessions,
    search: { ...percentiles(searchSamples), queries: queries.length },
    officialCandidates: percentiles(officialSearch),
    officialSnapshot: percentiles(officialSnapshot),
    readLive: percentiles(readLive),
    readCold,
    schemaTokens,
    typicalResultTokens: { search: tokensOf(typicalSearch), read: tokensOf(typicalRead) },
  }
}

/**
 * The tools bench's lines.
 * @param figures - what {@link measureSessionTools} measured.
 * @returns report lines.
 */
function toolsLines(figures: ToolFigures): string[] {
  return [
    `session tools, in process on the official store and query engine (${figures.sessions} generated conversations and one of ${LONG_MESSAGES} messages):`,
    `- search_sessions, ${figures.search.queries} queries of every kind: p50 ${ms(figures.search.p50)}, p95 ${ms(figures.search.p95)} (target p95 ≤ 30 ms); the official listCandidates on the same queries (titles, ids and cwds only): p50 ${ms(figures.officialCandidates.p50)}, p95 ${ms(figures.officialCandidates.p95)}`,
    `- read_session of the ${LONG_MESSAGES}-message session, a page from a random message: live p50 ${ms(figures.readLive.p50)}, p95 ${ms(figures.readLive.p95)}; cold (from its log) first ${ms(figures.readCold.first)}, then p50 ${ms(figures.readCold.p50)}, p95 ${ms(figures.readCold.p95)} (target p95 ≤ 50 ms); the official whole-session snapshot of it: p50 ${ms(figures.officialSnapshot.p50)}, p95 ${ms(figures.officialSnapshot.p95)}`,
    `- both schemas add ${figures.schemaTokens} tokens to every request's tool list (the host's estimate; target ≤ 400)`,
    `- a typical result: search_sessions ${figures.typicalResultTokens.search} tokens, read_session page ${figures.typicalResultTokens.read} tokens`,
  ]
}

/** `--only tools`: the session tools' own cost, in process on the official store and query engine. */
export const tools: BenchMode = {
  name: 'tools',
  summary: 'the session tools (search_sessions, read_session) in process, and the tokens their schemas add',
  async run(context) {
    const sessions = context.sessions()
    const { workspaces } = context.settings
    const runs = 20
    const figures = await measureSessionTools(sessions, workspaces, runs)
    return {
      mode: 'tools',
      settings: { sessions, workspaces, runs, longMessages: LONG_MESSAGES },
      figures,
      units: { search: 'ms', officialCandidates: 'ms', officialSnapshot: 'ms', readLive: 'ms', readCold: 'ms', first: 'ms', schemaTokens: 'tokens', typicalResultTokens: 'tokens' },
      blocks: toolsLines(figures).map(note),
    }
  },
}
