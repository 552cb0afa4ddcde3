/**
 * An excerpt made by reading a session's pieces of text in order, a bounded number of them: the first
 * message that holds a word group, and which groups were not found as asked (a group that must stand
 * together found only apart; with `from:`, a group the other side said).
 * @module @wishp3/dsh-sessions/host/search/worker/scanned-excerpt
 */
import type { MessageRole } from '../../official/conversation.ts'
import { withForms } from '../text/form-expansion.ts'
import { ROW_SPAN } from './index-file.ts'
import { type Expansions, groupText, isRun } from '../text/match-expression.ts'
import type { ContentHit } from '../worker-protocol.ts'
import { excerptAt, type SearchedIndex } from './searched-index.ts'
import { holdsTerm, snippetOf } from '../text/snippet.ts'
import { unpack } from '../text/stored-text.ts'
import { foldedForMatch, type QueryTerm } from '../text/terms.ts'

/** Pieces of text a scanned excerpt reads at most. */
export const MAX_SCANNED_PIECES = 8

/** Pieces of text read at least (when the session has them) for the groups the index was not asked about. */
export const UNKNOWN_PIECES = 2

/** What a scan is asked: the groups to look for, their forms, and, with `role`, only the messages of one side. */
export interface ScanRequest {
  readonly groups: readonly (readonly QueryTerm[])[]
  readonly expansions: Expansions
  /** Only messages of this side count (a query's `from:`). */
  readonly role?: MessageRole
  /** Whether word groups are looked for too (with `role`: the index cannot tell who said a word). */
  readonly words: boolean
  /** Whether groups that must stand together are looked for (default: yes). */
  readonly runs?: boolean
  /** Word groups the index was not asked about (too common to read for every candidate): looked for, never excerpted, in the pieces read for the others, or in the first {@link UNKNOWN_PIECES} at least. */
  readonly unknown?: readonly (readonly QueryTerm[])[]
  /** Takes a piece's compressed bytes from the query's budget before it is unpacked; false stops the scan. */
  readonly spend?: (bytes: number) => boolean
}

/** A scanned excerpt, the groups not found as asked (the unknown ones among them), and whether the scan read the session's whole text. */
export interface ScannedExcerpt {
  readonly hit: Pick<ContentHit, 'snippet' | 'origin'>
  readonly lacking: ReadonlySet<readonly QueryTerm[]>
  readonly whole: boolean
}

/** Reads a session's first {@link MAX_SCANNED_PIECES} pieces of text for an excerpt of its first message that holds a group. Returns the excerpt and the groups not found; `undefined` when no message holds any. */
export function scannedExcerpt(file: SearchedIndex, no: number, request: ScanRequest): ScannedExcerpt | undefined {
  const { groups, expansions, role } = request
  const unknown = request.unknown ?? []
  const left = new Set([...groups.filter(group => (isRun(group) ? request.runs !== false : request.words)), ...unknown])
  const looked = [...groups, ...unknown]
  const asked = looked.map(group => withForms(group, expansions))
  const marked = asked.slice(0, groups.length).flat()
  let hit: Pick<ContentHit, 'snippet' | 'origin'> | undefined
  let whole = false
  const from = no * ROW_SPAN
  // One piece past the bound is asked for only to tell whether the scan read the whole text.
  const pieces = file.statement('SELECT row, body FROM texts WHERE row >= ? AND row < ? ORDER BY row LIMIT ?').iterate(from, from + ROW_SPAN, MAX_SCANNED_PIECES + 1) as Iterator<{ row: number; body: Uint8Array }>
  try {
    let next = pieces.next()
    // Reading goes on for an excerpt and the groups asked about, and for the others only through the first few pieces.
    const wanted = (read: number): boolean => hit === undefined || [...left].some(group => read < UNKNOWN_PIECES || !unknown.includes(group))
    for (let read = 0; next.done !== true && read < MAX_SCANNED_PIECES && wanted(read); next = pieces.next(), read += 1) {
      if (request.spend?.(next.value.body.byteLength) === false) return undefined
      const [messages, origins] = unpack(next.value.body)
      for (const [n, message] of messages.entries()) {
        if (role !== undefined && origins[n]?.[2] !== role) continue
        const folded = foldedForMatch(message)
        for (const group of left) {
          const found = isRun(group) ? folded.includes(groupText(group)) : asked[looked.indexOf(group)]!.some(term => holdsTerm(folded, term))
          if (found) left.delete(group)
        }
        if (hit !== undefined) continue
        const snippet = snippetOf([message], marked)
        if (snippet !== undefined) hit = excerptAt(snippet, next.value.row - from + n, origins[n])
      }
    }
    whole = next.done === true
  } finally {
    pieces.return?.()
  }
  return hit === undefined ? undefined : { hit, lacking: left, whole }
}
