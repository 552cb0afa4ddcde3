/**
 * The surface of a part reference: a session's current model surface with only the cited messages
 * left, so the official service renders them in its own framing and budget exactly as it renders a
 * whole session.
 * @module @wishp3/dsh-sessions/host/references/part-surface
 */
import type { SessionSurfaceSnapshot } from '@deepseek-ai/dsh-session-query'
import type { MessageSelection } from '../../shared/message-reference.ts'

type SurfaceEvent = SessionSurfaceSnapshot['events'][number]

/** A cited message that is not on the source's surface. */
export class MissingMessageError extends Error {
  readonly seq: number
  constructor(sessionId: string, seq: number) {
    super(`message ${seq} of session "${sessionId}" is no longer in its history`)
    this.name = 'MissingMessageError'
    this.seq = seq
  }
}

function textOf(content: readonly { type: string; text?: string }[]): string {
  return content.flatMap(block => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('\n')
}

/** Whether a surface event is a message a snapshot shows. Returns true for a user's own message or a reply with text. */
export function isShownMessage(event: SurfaceEvent): boolean {
  if (event.type === 'user/message') return event.data.source.kind === 'user' && textOf(event.data.content) !== ''
  if (event.type === 'assistant/message') return textOf(event.data.message.content) !== ''
  return false
}

/** The messages of a surface: each shown message's log seq and its number (from 1) among them. */
export function shownMessages(surface: SessionSurfaceSnapshot): { readonly seq: number; readonly number: number; readonly role: 'user' | 'assistant' }[] {
  const out: { seq: number; number: number; role: 'user' | 'assistant' }[] = []
  for (const event of surface.events) {
    if (!isShownMessage(event)) continue
    out.push({ seq: event.seq, number: out.length + 1, role: event.type === 'user/message' ? 'user' : 'assistant' })
  }
  return out
}

/** Narrows a surface to the cited messages. Throws MissingMessageError when a cited number, or every number of a cited range, names no shown message. */
export function narrowSurface(surface: SessionSurfaceSnapshot, selection: MessageSelection): { surface: SessionSurfaceSnapshot; numbers: number[] } {
  const shown = shownMessages(surface)
  const numbers: number[] = []
  const kept = new Set<number>()
  for (const [first, last] of selection) {
    let any = false
    for (const message of shown) {
      if (message.seq < first || message.seq > last) continue
      any = true
      kept.add(message.seq)
      numbers.push(message.number)
    }
    if (!any) throw new MissingMessageError(surface.session.id, first)
  }
  return {
    surface: { ...surface, events: surface.events.filter(event => kept.has(event.seq) && isShownMessage(event)) },
    numbers: [...new Set(numbers)].sort((a, b) => a - b),
  }
}
