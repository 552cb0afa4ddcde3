/**
 * Narrowing a chip to part of its session.
 * @module @wishp3/dsh-sessions/client/core/narrowing
 */
import { formatMessageReference, formatNumbers, normalizeSelection } from '../../shared/message-reference.ts'
import type { SourceMessage } from '../../shared/wire.ts'

export interface NarrowedChip {
  readonly label: string
  readonly mention: string
}

/** The messages of the last `turns` turns: from the `turns`-th last message of the user to the end (all of them when there are fewer turns). */
export function lastTurns(messages: readonly SourceMessage[], turns: number): SourceMessage[] {
  let seen = 0
  for (let at = messages.length - 1; at >= 0; at -= 1) {
    if (messages[at]!.role !== 'user') continue
    seen += 1
    if (seen === turns) return messages.slice(at)
  }
  return [...messages]
}

/** The chip of some messages of a session. */
export function narrowedChip(sessionId: string, title: string, chosen: readonly SourceMessage[]): NarrowedChip {
  const sorted = [...chosen].sort((a, b) => a.seq - b.seq)
  const numbers = [...new Set(sorted.map(message => message.number))].sort((a, b) => a - b)
  const label = `${title} · ${formatNumbers(numbers)}`
  // Messages next to each other in the list are one range, so the mention stays short whatever the seqs between them hold.
  const ranges: [number, number][] = []
  let previous: SourceMessage | undefined
  for (const message of sorted) {
    const last = ranges.at(-1)
    if (last !== undefined && previous !== undefined && message.number === previous.number + 1) last[1] = message.seq
    else ranges.push([message.seq, message.seq])
    previous = message
  }
  return { label, mention: formatMessageReference({ sessionId, selection: normalizeSelection(ranges), label }) }
}
