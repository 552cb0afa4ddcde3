/**
 * A click on one of this source's session chips in the composer opens the chip's source; a chip of
 * part of a session opens it at the first cited message, with the cited messages marked.
 * @module @wishp3/dsh-sessions/client/mention/chip-open
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import { SessionId } from '@deepseek-ai/dsh-session/types'
import { scanMessageReferences } from '../../shared/message-reference.ts'
import { decodeChipRef } from '../core/chip-ref.ts'
import { openAtMessage } from '../navigation/open-at-message.ts'
import { composerCardOf, composerChips } from '../official/markup.ts'
import { listenOnPage } from '../official/page-writes.ts'

/** What a chip's click reads. */
export interface ChipOpenDeps {
  readonly sessions: ClientContext['sessions']
  /** The source name of this plugin's chips. */
  readonly source: string
  /** The occurrences of the current session's draft. */
  occurrences(sessionId: string): readonly { readonly occurrenceId: number; readonly source: string; readonly ref: string }[]
}

function hit(element: Element, x: number, y: number): boolean {
  return [...element.getClientRects()].some(box => x >= box.left && x <= box.right && y >= box.top && y <= box.bottom)
}

/** Listens for clicks on chips until disposed. `deps`: the sessions service and the draft's chips. */
export function openChipsOnClick(deps: ChipOpenDeps): () => void {
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || !(event.target instanceof HTMLTextAreaElement)) return
    const card = composerCardOf(event.target)
    const current = deps.sessions.list.getSnapshot().current
    if (card === null || current === undefined) return
    const chip = composerChips(card).find(drawn => hit(drawn.element, event.clientX, event.clientY))
    const occurrence = chip === undefined ? undefined : deps.occurrences(current).find(candidate => String(candidate.occurrenceId) === chip.occurrence)
    const ref = occurrence?.source === deps.source ? decodeChipRef(occurrence.ref) : undefined
    if (ref?.kind !== 'session') return
    const [part] = scanMessageReferences(ref.mention)
    const seqs = part?.reference?.selection.map(([first]) => first) ?? []
    const [first, ...rest] = seqs
    if (first === undefined) deps.sessions.open(SessionId(ref.citedSessionId))
    else void openAtMessage(deps.sessions, { sessionId: ref.citedSessionId, seq: first }, { alsoMark: rest })
  }
  return listenOnPage('click', onClick)
}
