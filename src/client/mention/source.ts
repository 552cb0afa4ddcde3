/**
 * The plugin's one `@` source. It replaces the built-in `ui-reference` source, which the bundle patch
 * disables.
 * @module @wishp3/dsh-sessions/client/mention/source
 */
import type { FileReferenceCandidate } from '@deepseek-ai/dsh-file-reference/types'
import { formatFileMention } from '@deepseek-ai/dsh-file-reference/grammar'
import type { InputTriggerCandidate, InputTriggerSource } from '@deepseek-ai/dsh-client-ui-input-trigger/client'
import { formatAge } from '../core/age.ts'
import type { MarkedText } from '../core/snippet.ts'
import { CONVERSATION_APPEARANCE, decodeChipRef, encodeChipRef, type ChipRef } from '../core/chip-ref.ts'
import { CHIP_LABEL_MAX, clampLabel } from '../core/label.ts'
import type { Candidate, CandidatesResponse, IndexingProgress } from '../../shared/wire.ts'
import type { SessionsApi } from '../api.ts'
import type { SessionsKey } from '../locales.ts'

/** Source name; also the `source` of every chip it inserts. */
export const MENTION_SOURCE = 'dsh-sessions'

/** The reference of a whole-session chip of this source, as the composer inserts it: a draft of `citingSessionId` citing `chip`. */
export function sessionChipReference(citingSessionId: string, chip: { readonly sessionId: string; readonly label: string; readonly mention: string }) {
  return {
    source: MENTION_SOURCE,
    ref: encodeChipRef({ kind: 'session', citingSessionId, citedSessionId: chip.sessionId, label: chip.label, mention: chip.mention }),
    label: clampLabel(chip.label, CHIP_LABEL_MAX),
    appearance: CONVERSATION_APPEARANCE,
    clipboardText: chip.mention,
  }
}

/** What the source reads. */
export interface MentionSourceDeps {
  /** Files and folders under the session's workspace matching a query. */
  listFiles(sessionId: string, query: string, signal: AbortSignal): Promise<readonly FileReferenceCandidate[]>
  readonly api: SessionsApi
  /** Checks the whole draft of a session once per send; rejects with the reason when the send is blocked. */
  checkDraft(sessionId: string, signal: AbortSignal): Promise<void>
  /** Text of a key in the active locale, with `{name}` parameters filled in as plain text. */
  t(key: SessionsKey, params?: Record<string, string>): string
  /** The active locale id. */
  locale(): string
  /** The current time in milliseconds, for the ages rows show. */
  now(): number
  /** The text a row shows for an excerpt, its matches highlighted or marked. */
  excerpt(snippet: MarkedText): string
}

/** What a candidate row carries to `onPick`. */
type CandidateValue =
  | { kind: 'file'; directory: boolean; label: string; mention: string }
  | { kind: 'session'; citingSessionId: string; candidate: Candidate }
  | { kind: 'notice' }

function fileRow(file: FileReferenceCandidate, quoted: boolean, deps: MentionSourceDeps): InputTriggerCandidate[] {
  const mention = formatFileMention(file, quoted)
  if (mention === undefined) return []
  const name = file.path.slice(file.path.lastIndexOf('/') + 1)
  const directory = file.kind === 'directory'
  const value: CandidateValue = { kind: 'file', directory, label: name, mention }
  return [{
    name: `${deps.t(directory ? 'candidate.folder' : 'candidate.file')} · ${name}${directory ? '/' : ''}`,
    description: file.path,
    section: deps.t('section.files'),
    value: JSON.stringify(value),
  }]
}

/** The sessions section's heading: it says so while the content index is still being built. */
function sessionSection(indexing: IndexingProgress | undefined, deps: MentionSourceDeps): string {
  return indexing === undefined
    ? deps.t('section.sessions')
    : deps.t(indexing.paused === 'low-disk' ? 'section.sessionsPaused' : 'section.sessionsIndexing', { indexed: indexing.indexed.toLocaleString(deps.locale()), total: indexing.total.toLocaleString(deps.locale()) })
}

/** What the sessions section holds: the sessions found, or, while the index is built and nothing matched, a row saying so (picking it inserts nothing). */
function sessionRows(asked: { readonly citingSessionId: string; readonly query: string }, response: CandidatesResponse, deps: MentionSourceDeps): InputTriggerCandidate[] {
  const { citingSessionId, query } = asked
  const section = sessionSection(response.indexing, deps)
  if (response.candidates.length === 0 && response.indexing !== undefined && query.trim() !== '') {
    const notice: CandidateValue = { kind: 'notice' }
    return [{ name: deps.t(response.indexing.paused === 'low-disk' ? 'candidate.paused' : 'candidate.stillIndexing'), section, value: JSON.stringify(notice) }]
  }
  return response.candidates.map(candidate => sessionRow({ citingSessionId, section }, candidate, deps))
}

/** The row a query that matches nothing shows; picking it inserts nothing. */
function noMatchRow(query: string, deps: MentionSourceDeps): InputTriggerCandidate {
  const notice: CandidateValue = { kind: 'notice' }
  return { name: deps.t('candidate.noMatch', { query: query.trim() }), section: deps.t('section.sessions'), value: JSON.stringify(notice) }
}

/** A session row: its title alone as the name (the menu gives the name 40 % of the row, and the section heading already says these are sessions), then what tells two like titles apart: its age and, for a session of another workspace, that workspace's name. A session found by what was said in it shows the excerpt first, so the match stays visible in a narrow row. The id stays with the row menu's Copy session ID. */
function sessionRow(row: { readonly citingSessionId: string; readonly section: string }, candidate: Candidate, deps: MentionSourceDeps): InputTriggerCandidate {
  const { citingSessionId, section } = row
  const age = formatAge(candidate.createdAt, deps.now(), deps.locale())
  const parts = [
    ...(candidate.snippet === undefined ? [] : [deps.excerpt(candidate.snippet)]),
    age,
    ...(candidate.workspace === undefined ? [] : [candidate.workspace]),
  ]
  const value: CandidateValue = { kind: 'session', citingSessionId, candidate }
  return {
    name: candidate.label,
    description: parts.join(' · '),
    section,
    value: JSON.stringify(value),
  }
}

/** Builds the source. */
export function createMentionSource(deps: MentionSourceDeps): InputTriggerSource {
  return {
    trigger: '@',
    name: MENTION_SOURCE,
    showGroupTitle: false,
    async candidates(session, { query, quoted, signal }) {
      const files = deps.listFiles(session.sessionId, query, signal).catch(() => [] as const)
      // The quoted form `@"…"` searches sessions too: it is how a query with
      // spaces reaches the menu, which closes an unquoted query at a space.
      const sessions = deps.api.candidates(session.sessionId, query, signal).catch((): CandidatesResponse => ({ candidates: [] }))
      const [fileItems, sessionResponse] = await Promise.all([files, sessions])
      if (signal.aborted) return []
      const rows = [
        ...fileItems.flatMap(file => fileRow(file, quoted === true, deps)),
        ...sessionRows({ citingSessionId: session.sessionId, query }, sessionResponse, deps),
      ]
      // A query that matches nothing says so, where the menu would otherwise close without a word.
      return rows.length > 0 || query.trim() === '' ? rows : [noMatchRow(query, deps)]
    },
    onPick({ candidate }) {
      if (candidate.value === undefined) return undefined
      const value = JSON.parse(candidate.value) as CandidateValue
      if (value.kind === 'notice') return undefined
      if (value.kind === 'file') {
        if (value.directory) return { text: value.mention, continue: true }
        const ref: ChipRef = { kind: 'file', mention: value.mention }
        return { insert: { source: MENTION_SOURCE, ref: encodeChipRef(ref), label: value.label, appearance: 'file', clipboardText: value.mention } }
      }
      const { citingSessionId, candidate: picked } = value
      const ref: ChipRef = { kind: 'session', citingSessionId, citedSessionId: picked.sessionId, label: picked.label, mention: picked.mention }
      return { insert: { source: MENTION_SOURCE, ref: encodeChipRef(ref), label: clampLabel(picked.label, CHIP_LABEL_MAX), appearance: CONVERSATION_APPEARANCE, clipboardText: picked.mention } }
    },
    codec: {
      clipboardText(ref) {
        return decodeChipRef(ref)?.mention ?? ''
      },
      async serialize(ref, signal) {
        const chip = decodeChipRef(ref)
        if (chip === undefined) throw new Error(deps.t('error.invalid'))
        if (chip.kind === 'file') return chip.mention
        await deps.checkDraft(chip.citingSessionId, signal)
        return chip.mention
      },
    },
  }
}
