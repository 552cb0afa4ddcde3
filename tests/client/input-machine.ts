/**
 * A stand-in for rc.8's composer input machine, with the behaviour the quote
 * code depends on: revision-guarded requests; a chip inserted with
 * `insert-reference` is followed by a space unless one is already next;
 * `insert-text` and `consume-token` become a whole-draft change whose edit
 * range the machine recovers from the old and new text (common prefix first,
 * then common suffix), dropping every chip that range touches; one undo step
 * per change; the send splices each chip's serialization over it and trims.
 */
import { vi } from 'vitest'
import type { QuoteChip } from '../../src/client/contract.ts'
import type { ComposerPort, DraftSpan, DraftState } from '../../src/client/quote/composer.ts'

interface Chip extends QuoteChip {
  readonly clipboardText: string
}

interface Snapshot {
  readonly draft: string
  readonly occurrences: readonly Chip[]
}

/** The recovered edit: `[start, end)` of the old draft became `inserted` characters. */
function recoverEdit(before: string, after: string): { start: number; end: number; inserted: number } {
  const common = Math.min(before.length, after.length)
  let prefix = 0
  while (prefix < common && before[prefix] === after[prefix]) prefix += 1
  let suffix = 0
  while (suffix < common - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix += 1
  return { start: prefix, end: before.length - suffix, inserted: after.length - suffix - prefix }
}

/** One session's machine. */
export function inputMachine(initial: { draft?: string; phase?: DraftState['phase'] } = {}) {
  let draft = initial.draft ?? ''
  let draftRev = 1
  let phase: DraftState['phase'] = initial.phase ?? 'plain'
  let occurrences: Chip[] = []
  let sequence = 0
  const undo: Snapshot[] = []
  const redo: Snapshot[] = []

  const change = (next: string, edit: { start: number; end: number; inserted: number }, minted: Chip[] = []) => {
    undo.push({ draft, occurrences })
    redo.length = 0
    const delta = edit.inserted - (edit.end - edit.start)
    occurrences = [
      ...occurrences.flatMap(o => {
        if (o.offset + o.length <= edit.start) return [o]
        if (o.offset >= edit.end) return [{ ...o, offset: o.offset + delta }]
        return []
      }),
      ...minted,
    ].sort((a, b) => a.offset - b.offset)
    draft = next
    draftRev += 1
  }
  const guarded = (span: DraftSpan) => span.draftRev === draftRev && span.start >= 0 && span.start <= span.end && span.end <= draft.length
  const setDraft = (next: string) => {
    if (next !== draft) change(next, recoverEdit(draft, next))
  }

  const port: ComposerPort = {
    state: (): DraftState => ({ draft, draftRev, phase, occurrences }),
    insertReference: vi.fn((_id, { reference, span }) => {
      if ((phase !== 'plain' && phase !== 'claimed') || !guarded(span)) return false
      const tail = draft.slice(span.end)
      const gap = tail.startsWith(' ') ? '' : ' '
      const display = `@${reference.label}`
      sequence += 1
      const chip: Chip = { occurrenceId: sequence, source: reference.source, ref: reference.ref, offset: span.start, length: display.length, label: reference.label, clipboardText: reference.clipboardText }
      change(draft.slice(0, span.start) + display + gap + tail, { start: span.start, end: span.end, inserted: display.length + gap.length }, [chip])
      return true
    }),
    insertText: vi.fn((_id, { text, span }) => {
      if (span.draftRev !== draftRev) return false
      setDraft(draft.slice(0, span.start) + text + draft.slice(span.end))
      return true
    }),
    consumeToken: vi.fn((_id, { guard: { span } }) => {
      if ((phase !== 'plain' && phase !== 'claimed') || !guarded(span) || span.start === span.end) return false
      setDraft(draft.slice(0, span.start) + draft.slice(span.end))
      return true
    }),
  }

  const splice = (parts: readonly string[]) => {
    let out = ''
    let cursor = 0
    occurrences.forEach((o, index) => {
      out += draft.slice(cursor, o.offset) + parts[index]
      cursor = o.offset + o.length
    })
    return out + draft.slice(cursor)
  }

  return {
    port,
    get draft() { return draft },
    get occurrences(): readonly Chip[] { return occurrences },
    setPhase(next: DraftState['phase']) { phase = next },
    /** Typing at the end of the draft. */
    type(text: string) { setDraft(draft + text) },
    undo() {
      const previous = undo.pop()
      if (previous === undefined) return
      redo.push({ draft, occurrences })
      ;({ draft, occurrences } = { draft: previous.draft, occurrences: [...previous.occurrences] })
      draftRev += 1
    },
    redo() {
      const next = redo.pop()
      if (next === undefined) return
      undo.push({ draft, occurrences })
      ;({ draft, occurrences } = { draft: next.draft, occurrences: [...next.occurrences] })
      draftRev += 1
    },
    /** What the send hands the host: every chip's serialization spliced over it, trimmed. */
    async send(serialize: (chip: Chip) => Promise<string>): Promise<string> {
      return splice(await Promise.all(occurrences.map(serialize))).trim()
    },
    /** The saved draft and the clipboard form of the whole draft. */
    projection(): string {
      return splice(occurrences.map(o => o.clipboardText))
    },
  }
}
