/**
 * The messages a whole-session snapshot leaves out, found in one pass.
 * @module @wishp3/dsh-sessions/host/references/retention
 */
import { isCompactCheckpointSource } from '@deepseek-ai/dsh-compaction'
import type { SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'

type SurfaceEvent = SessionSurfaceSnapshot['events'][number]

/** One message of a snapshot, from one surface event. */
export interface SnapshotMessage {
  /** The index of its event in the surface's events. */
  readonly event: number
  readonly role: 'user' | 'assistant'
  readonly text: string
  /** A compaction checkpoint, which the snapshot never leaves out. */
  readonly checkpoint: boolean
}

/** What was left out of a surface: messages and the UTF-8 bytes of their texts. */
export interface LeftOut {
  readonly messages: number
  readonly bytes: number
}

/** Nothing left out. */
export const NOTHING_LEFT_OUT: LeftOut = Object.freeze({ messages: 0, bytes: 0 })

/** A surface made ready for the official service, and what it leaves out. */
export interface TrimmedSurface {
  /** The surface without the events of the left-out messages (the same surface when none are). */
  readonly surface: SessionSurfaceSnapshot
  readonly leftOut: LeftOut
}

/** The retention statistics of one snapshot source, as the official service reports them. */
export interface RetentionStats {
  readonly originalMessages: number
  readonly retainedMessages: number
  readonly omittedMessages: number
  readonly omittedBytes: number
  readonly truncated: boolean
}

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8')

function isTextBlock(block: { type: string; text?: unknown }): boolean {
  return block.type === 'text' && typeof block.text === 'string'
}

function textOf(content: readonly { type: string; text?: string }[]): string {
  const texts: string[] = []
  for (const block of content) if (isTextBlock(block)) texts.push(block.text!)
  return texts.join('\n')
}

function messageOf(event: SurfaceEvent, index: number): SnapshotMessage | undefined {
  if (event.type === 'user/message') {
    const checkpoint = isCompactCheckpointSource(event.data.source)
    if (!checkpoint && event.data.source.kind !== 'user') return undefined
    const text = textOf(event.data.content)
    return text === '' ? undefined : { event: index, role: 'user', text, checkpoint }
  }
  if (event.type === 'assistant/message') {
    const text = textOf(event.data.message.content)
    return text === '' ? undefined : { event: index, role: 'assistant', text, checkpoint: false }
  }
  return undefined
}

/** The messages a snapshot of a surface shows, in order. */
export function snapshotMessages(surface: SessionSurfaceSnapshot): SnapshotMessage[] {
  const messages: SnapshotMessage[] = []
  surface.events.forEach((event, index) => {
    const message = messageOf(event, index)
    if (message !== undefined) messages.push(message)
  })
  return messages
}

/** JSON with every `<` escaped, as the snapshot is serialized so its data never spells a tag (`tests/host/retention.spec.ts` checks it against the official snapshot text). Throws TypeError when the value has no JSON text. */
export function stringifyTagSafe(value: unknown): string {
  const json: unknown = JSON.stringify(value)
  if (typeof json !== 'string') throw new TypeError('the snapshot data has no JSON text')
  return json.replaceAll('<', '\\u003c')
}

/** The serialized UTF-8 size of a snapshot of a surface with no messages. */
export function headerBytes(surface: SessionSurfaceSnapshot, label: string): number {
  return utf8(stringifyTagSafe({
    sessionId: surface.session.id,
    label,
    cwd: surface.session.cwd ?? null,
    capturedThroughSeq: surface.capturedThroughSeq,
    conversation: [],
  }))
}

/** The serialized UTF-8 size of one message in a snapshot. */
export function messageBytes(message: Pick<SnapshotMessage, 'role' | 'text'>): number {
  return utf8(stringifyTagSafe({ role: message.role, text: message.text }))
}

/** The serialized UTF-8 size of a snapshot holding some messages. `sizes`: {@link messageBytes} of each message it holds. */
export function snapshotBytes(header: number, sizes: readonly number[]): number {
  let total = header
  for (const size of sizes) total += size
  return sizes.length === 0 ? total : total + sizes.length - 1
}

/** The messages of each surface read, and the sizes of those measured so far, kept per surface object (a surface is read-only). */
const measures = new WeakMap<SessionSurfaceSnapshot, { readonly messages: readonly SnapshotMessage[]; readonly sizes: (number | undefined)[] }>()

function measured(surface: SessionSurfaceSnapshot): { readonly messages: readonly SnapshotMessage[]; size(n: number): number } {
  let measure = measures.get(surface)
  if (measure === undefined) {
    const messages = snapshotMessages(surface)
    measure = { messages, sizes: new Array<number | undefined>(messages.length) }
    measures.set(surface, measure)
  }
  const { messages, sizes } = measure
  return { messages, size: n => (sizes[n] ??= messageBytes(messages[n]!)) }
}

/** A surface without the messages its snapshot leaves out to fit a byte budget: the oldest first, one after another while the snapshot is over the budget, never a compaction checkpoint and never the newest message. That keeps the longest run of the newest messages that fits beside the checkpoints and the newest one, so it is found from the newest back, and only the messages kept are measured as JSON. `label`: the label the snapshot carries (it counts in the budget). `maxBytes`: the budget of one source's serialized snapshot. */
export function trimSurface(surface: SessionSurfaceSnapshot, label: string, maxBytes: number): TrimmedSurface {
  const { messages, size } = measured(surface)
  const last = messages.length - 1
  if (last < 1) return { surface, leftOut: NOTHING_LEFT_OUT }
  // What is never left out: the header, the newest message and every checkpoint, each after the first with its comma.
  let total = headerBytes(surface, label) + size(last)
  for (let n = 0; n < last; n += 1) if (messages[n]!.checkpoint) total += size(n) + 1
  let oldestKept = last
  for (let n = last - 1; n >= 0; n -= 1) {
    if (messages[n]!.checkpoint) continue
    const added = size(n) + 1
    if (total + added > maxBytes) break
    total += added
    oldestKept = n
  }
  const left = new Set<number>()
  let bytes = 0
  for (let n = 0; n < oldestKept; n += 1) {
    const message = messages[n]!
    if (message.checkpoint) continue
    left.add(message.event)
    bytes += utf8(message.text)
  }
  if (left.size === 0) return { surface, leftOut: NOTHING_LEFT_OUT }
  return {
    surface: { ...surface, events: surface.events.filter((_, index) => !left.has(index)) },
    leftOut: { messages: left.size, bytes },
  }
}

/** The part of a surface any whole-session snapshot of it reads, whatever its label: the surface trimmed as for the shortest label (the empty one), holding only the events that show a message, each with only its text blocks. A longer label leaves out more of the oldest messages, never fewer, and in the same order; so trimming this tail again under the real label leaves out the rest of what trimming the whole surface does, and the official service makes the same snapshot of either. `maxBytes`: the budget of one source's serialized snapshot. */
export function tailOf(surface: SessionSurfaceSnapshot, maxBytes: number): TrimmedSurface {
  const trimmed = trimSurface(surface, '', maxBytes)
  const events: SurfaceEvent[] = []
  trimmed.surface.events.forEach((event, index) => {
    if (messageOf(event, index) === undefined) return
    if (event.type === 'user/message') events.push({ ...event, data: { ...event.data, content: event.data.content.filter(isTextBlock) } })
    else if (event.type === 'assistant/message') events.push({ ...event, data: { ...event.data, message: { ...event.data.message, content: event.data.message.content.filter(isTextBlock) } } })
  })
  return { surface: { session: surface.session, capturedThroughSeq: surface.capturedThroughSeq, events }, leftOut: trimmed.leftOut }
}

/** What two trims left out together. */
export function bothLeftOut(first: LeftOut, second: LeftOut): LeftOut {
  if (first.messages === 0) return second
  if (second.messages === 0) return first
  return { messages: first.messages + second.messages, bytes: first.bytes + second.bytes }
}

/** The statistics of a snapshot of the whole surface, from those of the trimmed surface's snapshot and what the trim left out. `stats`: the statistics the official service reports for the trimmed surface. Returns the same statistics object when nothing was left out; otherwise a copy counting the left-out messages. */
export function withLeftOut<T extends RetentionStats>(stats: T, leftOut: LeftOut): T {
  if (leftOut.messages === 0) return stats
  const omittedMessages = stats.omittedMessages + leftOut.messages
  const omittedBytes = stats.omittedBytes + leftOut.bytes
  return {
    ...stats,
    originalMessages: stats.originalMessages + leftOut.messages,
    omittedMessages,
    omittedBytes,
    truncated: omittedMessages > 0 || omittedBytes > 0,
  }
}
