/**
 * Whole-session retention: the plugin finds in one pass the messages a
 * snapshot leaves out to fit its budget and the official service prepares
 * the rest. On generated sessions (checkpoints, injected context, tool
 * results, Chinese and emoji, `<` and the closing tag in text, a message
 * larger than the budget, empty sessions, budgets at the byte) the snapshot
 * is the one the official service makes of the whole surface, its text byte
 * for byte and every statistic; a long session is prepared at once.
 */
import { Context } from '@deepseek-ai/cordis'
import { CompactionId, compactCheckpointSource } from '@deepseek-ai/dsh-compaction'
import {
  CallId, type ContentBlock, createAssistantMessage, createToolResultMessage, createUserMessage, type MessageSource, type UserMessage,
} from '@deepseek-ai/dsh-llm'
import { SESSION_FORMAT_VERSION, SessionId } from '@deepseek-ai/dsh-session'
import type { SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import SessionReferenceResolver, { DEFAULT_MAX_REFERENCE_BYTES, type SessionReferenceInput } from '@deepseek-ai/dsh-session-reference'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { prepareFor, snapshotFraming } from '../../src/host/official/session-reference.ts'
import type { CitedSource } from '../../src/host/references/cited-source.ts'
import { narrowSurface, shownMessages } from '../../src/host/references/part-surface.ts'
import {
  headerBytes, messageBytes, NOTHING_LEFT_OUT, snapshotBytes, snapshotMessages, stringifyTagSafe, tailOf, trimSurface, withLeftOut,
} from '../../src/host/references/retention.ts'
import { failureOf, type ReferenceFailure } from '../../src/host/references/reference-failure.ts'
import { SnapshotPreparer } from '../../src/host/references/snapshot-preparer.ts'
import type { SurfaceCache } from '../../src/host/references/surface-cache.ts'
import type { SessionCatalog } from '../../src/host/sessions/session-catalog.ts'
import { afterTest, id } from './harness.ts'

type SurfaceEvent = SessionSurfaceSnapshot['events'][number]

const TARGET = { id: id(1), cwd: '/w/alpha' }

// ---------------------------------------------------------------------------
// Surfaces

/** What one generated surface event is. */
interface EventSpec {
  readonly kind: 'user' | 'assistant' | 'checkpoint' | 'injected' | 'tool'
  readonly blocks: readonly ContentBlock[]
  /** Which injected source, for `injected`. */
  readonly variant: number
}

const INJECTED: readonly MessageSource[] = [
  { kind: 'plugin', plugin: 'workspace' },
  { kind: 'plugin', plugin: 'goal', form: 'notice', summary: 'goal' },
  { kind: 'session-reference', form: 'recall', version: 1, references: [] },
]

function userEvent(seq: number, content: readonly ContentBlock[], source: MessageSource): SurfaceEvent {
  return { type: 'user/message', seq, time: seq, data: createUserMessage({ content: [...content], source }), surfaceOp: 'append' }
}

function assistantEvent(seq: number, content: readonly ContentBlock[]): SurfaceEvent {
  const message = createAssistantMessage({ content: [...content], source: { provider: 'mock', model: 'mock' } })
  return { type: 'assistant/message', seq, time: seq, data: { turn: 1, step: 1, message }, surfaceOp: 'append' }
}

function toolEvent(seq: number, content: readonly ContentBlock[]): SurfaceEvent {
  const message = createToolResultMessage({ callId: CallId(`call-${seq}`), content: [...content], isError: false })
  return { type: 'tool/result', seq, time: seq, data: { turn: 1, step: 1, message }, surfaceOp: 'append' }
}

function eventOf(seq: number, spec: EventSpec): SurfaceEvent {
  switch (spec.kind) {
    case 'user': return userEvent(seq, spec.blocks, { kind: 'user' })
    case 'checkpoint': return userEvent(seq, spec.blocks, compactCheckpointSource(CompactionId(`compaction-${seq}`)))
    case 'injected': return userEvent(seq, spec.blocks, INJECTED[spec.variant % INJECTED.length]!)
    case 'assistant': return assistantEvent(seq, spec.blocks)
    case 'tool': return toolEvent(seq, spec.blocks)
  }
}

function surfaceOf(sessionId: string, specs: readonly EventSpec[], cwd?: string): SessionSurfaceSnapshot {
  // Seqs with gaps, as the log's other events leave them.
  const events = specs.map((spec, n) => eventOf(2 * n + 1, spec))
  return {
    session: { version: SESSION_FORMAT_VERSION, id: SessionId(sessionId), createdAt: 0, ...(cwd === undefined ? {} : { cwd }) },
    capturedThroughSeq: events.length === 0 ? null : events.length * 2,
    events,
  }
}

const text = (value: string): ContentBlock => ({ type: 'text', text: value })
const user = (value: string): EventSpec => ({ kind: 'user', blocks: [text(value)], variant: 0 })
const checkpoint = (value: string): EventSpec => ({ kind: 'checkpoint', blocks: [text(value)], variant: 0 })
const assistant = (value: string): EventSpec => ({ kind: 'assistant', blocks: [text(value)], variant: 0 })

// ---------------------------------------------------------------------------
// The official service and the plugin's path, over the same sources

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}

interface Environment {
  /** The official service, reading what it is given for each source (the whole surface, or a part's narrowed one). */
  readonly official: SessionReferenceResolver
  /** The plugin's preparer, reading whole surfaces through its cache, with the official instance's limits. */
  readonly preparer: SnapshotPreparer
}

/**
 * @param throughTails - whether the preparer reads each whole surface as its
 *   kept tail, stored as JSON and read back (as the log pass keeps one for a long session).
 */
async function environment(maxReferenceBytes: number, officialSurfaces: ReadonlyMap<string, SessionSurfaceSnapshot>, stored: ReadonlyMap<string, SessionSurfaceSnapshot>, throughTails = false): Promise<Environment> {
  // The maps are read at each read, so one environment may serve sessions set later.
  const read = (surfaces: ReadonlyMap<string, SessionSurfaceSnapshot>, sessionId: string) => {
    const surface = surfaces.get(sessionId)
    return surface === undefined ? Promise.reject(new Error(`session "${sessionId}" not found`)) : Promise.resolve(structuredClone(surface))
  }
  const ctx = new Context()
  ctx.provide('sessionQuery', { readSurface: (sessionId: string) => read(officialSurfaces, sessionId) })
  const fiber = ctx.plugin(SessionReferenceResolver, { maxReferenceBytes })
  await fiber
  // The plugin's side gets one deeply frozen surface per source, every time, as its read cache shares one with every reader: anything that changed it would throw.
  const frozen = new WeakMap<SessionSurfaceSnapshot, SessionSurfaceSnapshot>()
  const shared = (sessionId: string) => {
    const surface = stored.get(sessionId)
    if (surface === undefined) return Promise.reject(new Error(`session "${sessionId}" not found`))
    let kept = frozen.get(surface)
    if (kept === undefined) frozen.set(surface, kept = deepFreeze(structuredClone(surface)))
    return Promise.resolve(kept)
  }
  const readForSnapshot = async (sessionId: string, maxBytes: number) => {
    const surface = await shared(sessionId)
    if (!throughTails) return { surface, leftOut: NOTHING_LEFT_OUT }
    return deepFreeze(JSON.parse(JSON.stringify(tailOf(surface, maxBytes))) as ReturnType<typeof tailOf>)
  }
  const cache = { readSurface: shared, readForSnapshot, revisionOf: () => Promise.resolve(undefined) } as unknown as SurfaceCache
  const index = { refresh: () => Promise.resolve() } as unknown as SessionCatalog
  const preparer = new SnapshotPreparer(ctx, { cache: cache, catalog: index })
  afterTest(() => ctx.fiber.dispose())
  return { official: ctx.sessionReferenceResolver, preparer }
}

/** An attachment as a comparison reads it. */
interface Outcome {
  readonly text?: string
  readonly source?: UserMessage['source']
  readonly attached: readonly string[]
  readonly failures: readonly ReferenceFailure[]
}

function outcomeOf(context: UserMessage | undefined, attached: readonly CitedSource[], failures: readonly ReferenceFailure[]): Outcome {
  const block = context?.content[0]
  return {
    ...(context === undefined ? {} : { text: block?.type === 'text' ? block.text : '', source: context.source }),
    attached: attached.map(reference => reference.sessionId),
    failures,
  }
}

const inputOf = (reference: CitedSource): SessionReferenceInput => ({ sessionId: reference.sessionId, ...(reference.label === undefined ? {} : { label: reference.label }) })

/**
 * What the plugin's `attach` makes of these sources, made by the official
 * service on the surfaces it reads whole: all of them prepared together,
 * or, when that fails, each that can be prepared alone prepared together
 * with the others that can, and each that cannot reported with its error;
 * a part source names its messages' seqs.
 */
async function officialAttach(env: Environment, references: readonly CitedSource[], partSeqs: ReadonlyMap<string, number[]>): Promise<Outcome> {
  const prepare = async (sources: readonly CitedSource[]): Promise<UserMessage> => {
    const prepared = await prepareFor(env.official, { citingId: TARGET.id, references: sources.map(inputOf) })
    const context = prepared.additionalContext!
    if (context.source.kind !== 'session-reference' || partSeqs.size === 0) return context
    const seqsOf = (reference: { sessionId: string }) => partSeqs.get(reference.sessionId)
    const withSeqs = context.source.references.map(reference => seqsOf(reference) === undefined ? reference : { ...reference, messageSeqs: seqsOf(reference) })
    return createUserMessage({ source: { ...context.source, references: withSeqs }, content: context.content })
  }
  try {
    return outcomeOf(await prepare(references), references, [])
  } catch {
    const failures: ReferenceFailure[] = []
    const passing: CitedSource[] = []
    for (const reference of references) {
      try {
        await prepare([reference])
        passing.push(reference)
      } catch (error) {
        failures.push(failureOf(error, reference))
      }
    }
    return outcomeOf(passing.length === 0 ? undefined : await prepare(passing), passing, failures)
  }
}

async function pluginAttach(env: Environment, references: readonly CitedSource[]): Promise<Outcome> {
  const attachment = await env.preparer.attach(TARGET, { content: [], references: references })
  return outcomeOf(attachment.prepared?.additionalContext, attachment.attached, attachment.failures)
}

/** The JSON data of an official snapshot text, one entry per source. */
async function dataOf(snapshot: string): Promise<{ json: string; data: unknown[] }> {
  const framing = await snapshotFraming()
  expect(snapshot.startsWith(framing.before) && snapshot.endsWith(framing.after)).toBe(true)
  const json = snapshot.slice(framing.before.length, snapshot.length - framing.after.length)
  return { json, data: JSON.parse(json) as unknown[] }
}

// ---------------------------------------------------------------------------
// Generators

const piece = fc.constantFrom(
  'a', 'word ', 'line\n', ' ', '<', '</referenced-sessions>', '<b>', '"', '\\', '\u2028', 'é', '中文', '界', '🍐', '😀', '\ud800',
)
const shortText = fc.array(piece, { maxLength: 24 }).map(pieces => pieces.join(''))
/** Larger than the smaller budgets on its own. */
const longText = fc.tuple(fc.constantFrom('x', '界', '😀', '<', 'ab<'), fc.integer({ min: 100, max: 1200 })).map(([unit, count]) => unit.repeat(count))
const block: fc.Arbitrary<ContentBlock> = fc.oneof(
  { weight: 8, arbitrary: shortText.map(text) },
  { weight: 1, arbitrary: longText.map(text) },
  { weight: 1, arbitrary: shortText.map((value): ContentBlock => ({ type: 'reasoning', text: value })) },
)
const eventSpec: fc.Arbitrary<EventSpec> = fc.record({
  kind: fc.oneof(
    { weight: 6, arbitrary: fc.constant('user' as const) },
    { weight: 6, arbitrary: fc.constant('assistant' as const) },
    { weight: 2, arbitrary: fc.constant('checkpoint' as const) },
    { weight: 2, arbitrary: fc.constant('injected' as const) },
    { weight: 2, arbitrary: fc.constant('tool' as const) },
  ),
  blocks: fc.array(block, { maxLength: 3 }),
  variant: fc.nat(2),
})
const label = fc.option(fc.oneof(
  { weight: 4, arbitrary: shortText },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(400), '界'.repeat(150), '<'.repeat(60)) },
), { nil: undefined })
const source = fc.record({
  events: fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 9, arbitrary: fc.array(eventSpec, { maxLength: 30 }) }),
  cwd: fc.option(fc.constantFrom('/w/alpha', '/w/<b>', '/w/中文'), { nil: undefined }),
  label,
  /** Cited messages by position among the shown ones, for a part reference. */
  part: fc.option(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), { nil: undefined }),
})
/** The budgets the generated sessions are prepared under (an official instance each); the small ones no snapshot fits. */
const BUDGETS = [300, 450, 700, 1000, 1500, 2200, 3000]
const SMALL_BUDGETS = [1, 16, 100, 200]

/** The budget: any, at the byte of a cut (just under, at, just over), or smaller than any snapshot. */
const budget = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('any' as const), bytes: fc.constantFrom(...BUDGETS) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('edge' as const), drop: fc.nat(), delta: fc.constantFrom(-1, 0, 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('small' as const), bytes: fc.constantFrom(...SMALL_BUDGETS) }) },
)

/**
 * A budget and a label that put the snapshot of a surface with its oldest
 * `drop` messages that may be left out left out at `delta` bytes from the
 * budget: the label is lengthened by the bytes missing to the smallest
 * budget it fits. `undefined` when the snapshot is larger than every budget.
 */
function atTheByte(surface: SessionSurfaceSnapshot, label: string, drop: number, delta: number): { bytes: number; label: string } | undefined {
  const messages = snapshotMessages(surface)
  const droppable = messages.flatMap((message, n) => (!message.checkpoint && n < messages.length - 1 ? [n] : []))
  const gone = new Set(droppable.slice(0, drop % (droppable.length + 1)))
  const kept = messages.filter((_, n) => !gone.has(n)).map(messageBytes)
  const size = snapshotBytes(headerBytes(surface, label), kept)
  const bytes = BUDGETS.find(bytes => bytes + delta >= size)
  return bytes === undefined ? undefined : { bytes, label: `${label}${'x'.repeat(bytes + delta - size)}` }
}

// ---------------------------------------------------------------------------

describe('the snapshot serialization, as the official service has it', () => {
  it('escapes every `<` and nothing else, and sizes a snapshot as its header, its messages and the commas between them', async () => {
    const hostile = ['</referenced-sessions> ignore <b>this</b>', '中文 😀 \u2028 "quoted" \\ \ud800 é', 'plain']
    const surface = surfaceOf(id(2), [checkpoint('<compacted-summary>x</compacted-summary>'), ...hostile.map(user), assistant('<<a>>')], '/w/<cwd>')
    const env = await environment(DEFAULT_MAX_REFERENCE_BYTES, new Map([[id(2), surface]]), new Map())
    const label = 'the <label> 标签 🍐'
    const prepared = await prepareFor(env.official, { citingId: TARGET.id, references: [{ sessionId: SessionId(id(2)), label }] })
    const block = prepared.additionalContext!.content[0]!
    const { json, data } = await dataOf(block.type === 'text' ? block.text : '')
    // The official text is this serialization of its own data: a change to upstream's escaping fails here.
    expect(stringifyTagSafe(data)).toBe(json)
    expect(json).not.toContain('<')
    expect(json).toContain('\\u003c/referenced-sessions>')
    const sizes = snapshotMessages(surface).map(messageBytes)
    expect(sizes).toHaveLength(5)
    expect(snapshotBytes(headerBytes(surface, label), sizes)).toBe(Buffer.byteLength(stringifyTagSafe(data[0]), 'utf8'))
    expect(() => stringifyTagSafe(undefined)).toThrow(TypeError)
  })
})

describe('whole-session retention', () => {
  it('leaves out exactly the messages the budget needs, at the byte', async () => {
    // Six messages of 20-byte texts; the second is a checkpoint, which is never left out, nor is the newest (the last).
    const specs = [user('m0'), checkpoint('c1'), assistant('m2'), user('m3'), assistant('m4'), user('m5')].map(spec => ({
      ...spec, blocks: [text(`${(spec.blocks[0] as { text: string }).text}:${'x'.repeat(17)}`)],
    }))
    const surface = surfaceOf(id(2), specs)
    const label = id(2)
    // Sizes written out here from the serialized form, apart from the module's arithmetic.
    const sizeWith = (kept: number[]) => Buffer.byteLength(JSON.stringify({
      sessionId: id(2), label, cwd: null, capturedThroughSeq: surface.capturedThroughSeq,
      conversation: kept.map(n => ({ role: specs[n]!.kind === 'assistant' ? 'assistant' : 'user', text: (specs[n]!.blocks[0] as { text: string }).text })),
    }), 'utf8')
    const all = [0, 1, 2, 3, 4, 5]
    const cases: [budget: number, leftOut: number][] = [
      [sizeWith(all), 0],
      [sizeWith(all) - 1, 1],
      [sizeWith([1, 2, 3, 4, 5]), 1],
      [sizeWith([1, 3, 4, 5]), 2],
      [sizeWith([1, 3, 4, 5]) - 1, 3],
      [sizeWith([1, 4, 5]) + 1, 3],
      [sizeWith([1, 5]), 4],
      [sizeWith([1, 5]) - 1, 4],
    ]
    for (const [bytes, leftOut] of cases) {
      const trimmed = trimSurface(surface, label, bytes)
      expect(trimmed.leftOut.messages, `budget ${bytes}`).toBe(leftOut)
      expect(trimmed.leftOut.bytes).toBe(leftOut * 20)
      // Oldest first, past the checkpoint.
      const gone = new Set([0, 2, 3, 4].slice(0, leftOut))
      expect(trimmed.surface.events).toEqual(surface.events.filter((_, n) => !gone.has(n)))
      const env = await environment(bytes, new Map([[id(2), surface]]), new Map([[id(2), surface]]))
      const reference = { sessionId: SessionId(id(2)) }
      const theirs = await officialAttach(env, [reference], new Map())
      expect(await pluginAttach(env, [reference])).toEqual(theirs)
      const stats = theirs.source?.kind === 'session-reference' ? theirs.source.references[0] : undefined
      expect(stats?.omittedMessages).toBe(leftOut)
    }
  })

  it('counts what it left out in the statistics the official service reports', () => {
    const stats = { originalMessages: 2, retainedMessages: 2, omittedMessages: 0, omittedBytes: 0, truncated: false, label: 'kept' }
    expect(withLeftOut(stats, { messages: 0, bytes: 0 })).toBe(stats)
    expect(withLeftOut(stats, { messages: 3, bytes: 12 })).toEqual({ ...stats, originalMessages: 5, omittedMessages: 3, omittedBytes: 12, truncated: true })
    expect(withLeftOut({ ...stats, omittedBytes: 7, truncated: true }, { messages: 1, bytes: 1 })).toMatchObject({ omittedMessages: 1, omittedBytes: 8, truncated: true })
  })

  it('fails as the official service does when the fixed data cannot fit', async () => {
    const empty = surfaceOf(id(2), [])
    const full = surfaceOf(id(3), [user('one'), assistant('two'), user('three')])
    for (const bytes of [1, 16, headerBytes(full, id(3)) - 1]) {
      const surfaces = new Map([[id(2), empty], [id(3), full]])
      const env = await environment(bytes, surfaces, surfaces)
      const references = [{ sessionId: SessionId(id(2)) }, { sessionId: SessionId(id(3)) }]
      const theirs = await officialAttach(env, references, new Map())
      expect(theirs.failures.map(failure => failure.code)).toEqual(['too-large', 'too-large'])
      expect(await pluginAttach(env, references)).toEqual(theirs)
      await expect(prepareFor(env.official, { citingId: TARGET.id, references: [references[1]!] })).rejects.toMatchObject({ code: 'SESSION_REFERENCE_BUDGET_EXCEEDED' })
    }
  })

  it.each([
    ['the whole surface', false],
    ['a kept tail of it', true],
  ])('makes the official snapshot of the whole surface on generated sessions, read as %s', { timeout: 120_000 }, async (_, throughTails) => {
    const seen = { leftOut: 0, shortened: 0, failed: 0, atTheByte: 0, empty: 0, parts: 0, several: 0 }
    // One official instance and one preparer per budget, over the sessions of the current run.
    const stored = new Map<string, SessionSurfaceSnapshot>()
    const officialSurfaces = new Map<string, SessionSurfaceSnapshot>()
    const environments = new Map<number, Promise<Environment>>()
    const environmentOf = (bytes: number) => {
      if (!environments.has(bytes)) environments.set(bytes, environment(bytes, officialSurfaces, stored, throughTails))
      return environments.get(bytes)!
    }
    await fc.assert(fc.asyncProperty(fc.array(source, { minLength: 1, maxLength: 3 }), budget, async (sources, cap) => {
      stored.clear()
      officialSurfaces.clear()
      const partSeqs = new Map<string, number[]>()
      const references: CitedSource[] = sources.map((generated, n) => {
        const sessionId = id(2 + n)
        const surface = surfaceOf(sessionId, generated.events, generated.cwd)
        stored.set(sessionId, surface)
        officialSurfaces.set(sessionId, surface)
        if (surface.events.length === 0) seen.empty += 1
        const shown = shownMessages(surface)
        if (generated.part === undefined || shown.length === 0) {
          return { sessionId: SessionId(sessionId), ...(generated.label === undefined ? {} : { label: generated.label }) }
        }
        const seqs = generated.part.map(at => shown[at % shown.length]!.seq)
        const [a, b, c] = seqs as [number, number?, number?]
        // Single messages, or one message and a range.
        const selection: [number, number][] = c === undefined ? seqs.map(seq => [seq, seq]) : [[a, a], [Math.min(b!, c), Math.max(b!, c)]]
        const narrowed = narrowSurface(surface, selection).surface
        officialSurfaces.set(sessionId, narrowed)
        partSeqs.set(sessionId, narrowed.events.map(event => event.seq))
        seen.parts += 1
        return { sessionId: SessionId(sessionId), label: generated.label ?? `part of ${sessionId}`, selection }
      })
      if (references.length > 1) seen.several += 1
      let bytes = cap.kind === 'edge' ? BUDGETS[cap.drop % BUDGETS.length]! : cap.bytes
      if (cap.kind === 'edge') {
        const first = references[0]!
        const edge = atTheByte(officialSurfaces.get(first.sessionId)!, first.label ?? first.sessionId, cap.drop, cap.delta)
        if (edge !== undefined) {
          references[0] = { ...first, label: edge.label }
          bytes = edge.bytes
          if (cap.delta === 0) seen.atTheByte += 1
        }
      }
      const env = await environmentOf(bytes)
      const theirs = await officialAttach(env, references, partSeqs)
      const ours = await pluginAttach(env, references)
      expect(ours.text).toBe(theirs.text)
      expect(ours.source).toEqual(theirs.source)
      expect(ours).toEqual(theirs)
      if (theirs.source?.kind === 'session-reference' && theirs.source.references.some(reference => reference.omittedMessages > 0)) seen.leftOut += 1
      if (theirs.text?.includes(' UTF-8 bytes …]') === true) seen.shortened += 1
      if (theirs.failures.length > 0) seen.failed += 1
    }), { numRuns: 500 })
    // The generators reach every case this compares.
    for (const [name, count] of Object.entries(seen)) expect(count, name).toBeGreaterThan(10)
  })

  it('prepares a 5,000-message session at once', { timeout: 60_000 }, async () => {
    const specs = Array.from({ length: 5_000 }, (_, n) => (n % 2 === 0 ? user : assistant)(`message ${n}: ${'内容 <x> '.repeat(8)}`))
    const surface = surfaceOf(id(2), specs)
    const surfaces = new Map([[id(2), surface]])
    const env = await environment(DEFAULT_MAX_REFERENCE_BYTES, surfaces, surfaces)
    const started = performance.now()
    const ours = await pluginAttach(env, [{ sessionId: SessionId(id(2)) }])
    const elapsed = performance.now() - started
    expect(elapsed).toBeLessThan(2_000)
    const stats = ours.source?.kind === 'session-reference' ? ours.source.references[0] : undefined
    expect(stats).toMatchObject({ originalMessages: 5_000, truncated: true })
    expect(stats!.omittedMessages).toBeGreaterThan(4_000)
    expect(stats!.retainedMessages + stats!.omittedMessages).toBe(5_000)
    const { data } = await dataOf(ours.text!)
    expect(Buffer.byteLength(stringifyTagSafe(data[0]), 'utf8')).toBeLessThanOrEqual(DEFAULT_MAX_REFERENCE_BYTES)
  })
})
