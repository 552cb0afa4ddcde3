/**
 * The content index's writes: a session's text set whole or appended to, and a session forgotten, each
 * in one transaction. Only a session's new messages are written when its earlier ones are unchanged.
 * See docs/content-index.md.
 * @module @wishp3/dsh-sessions/host/search/worker/index-writes
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type { ConversationText } from '../../official/conversation.ts'
import { TEXT_QUALITY, PIECE_CHARS, PLACES_FROM, ROW_SPAN, SEGMENT_SPAN } from './index-file.ts'
import type { SegmentSizes } from './segment-sizes.ts'
import { digestOf, pack, type StoredPiece } from '../text/stored-text.ts'
import { type TermKind, visitIndexTerms } from '../text/terms.ts'
import { stemOf } from '../text/word-forms.ts'
import type { ContentAppend, ContentEntry } from '../worker-protocol.ts'

/** A session written as more segments than this is written again as one. */
export const MAX_SEGMENTS = SEGMENT_SPAN

/** Words whose stem `forms` is known to hold, kept while the writer runs; emptied once it holds this many. */
const MAX_KNOWN_FORMS = 200_000

/** What the file holds of a session: its number, messages, their digest and how many segments they were written in. */
interface KnownSession {
  readonly no: number
  readonly messages: number
  readonly digest: string
  readonly segments: number
}

/** Most messages one session's text may hold (the row-id scheme's bound). */
const MAX_MESSAGES = ROW_SPAN - 1

/** How many pieces a session's messages from `from` on are stored in: a piece closes before a message that would take it past {@link PIECE_CHARS}. */
function piecesOf(messages: readonly string[], from: number): number {
  let pieces = 0
  let chars = 0
  for (let n = from; n < messages.length; n += 1) {
    const length = messages[n]!.length
    if (chars > 0 && chars + length > PIECE_CHARS) {
      pieces += 1
      chars = 0
    }
    chars += length
  }
  return chars > 0 ? pieces + 1 : pieces
}

/** What the writes share with the index they write to. */
export interface WriteTarget {
  readonly db: DatabaseSync
  /** Called before each statement that writes, and before each commit. */
  readonly beforeWrite: () => void
  /** Runs a body, turning a sign of damage into the index's error. */
  guarded(body: () => void): void
  /** Session numbers and ids seen so far. */
  readonly ids: Map<number, string>
  /** The segments' lengths kept in memory. */
  readonly sizes: SegmentSizes
}

/** The writes of one index file. */
export class IndexWrites {
  private readonly db: DatabaseSync
  private readonly beforeWrite: () => void
  private readonly guarded: (body: () => void) => void
  private readonly ids: Map<number, string>
  private readonly sizes: SegmentSizes
  private readonly statements: Record<'session' | 'upsert' | 'segmentsOf' | 'putSegment' | 'putTerms' | 'dropTerms' | 'dropSegments' | 'putText' | 'dropTexts' | 'putPlace' | 'putInside' | 'dropInside' | 'piecesOf' | 'dropPlace' | 'dropSession' | 'placed' | 'setPlaced' | 'pieceCount' | 'putForm', StatementSync>
  /** Words written to `forms` (see {@link MAX_KNOWN_FORMS}). */
  private readonly knownForms = new Set<string>()

  constructor(target: WriteTarget) {
    this.db = target.db
    this.beforeWrite = target.beforeWrite
    this.guarded = body => target.guarded(body)
    this.ids = target.ids
    this.sizes = target.sizes
    const s = (sql: string) => target.db.prepare(sql)
    this.statements = {
      session: s('SELECT no, messages, digest, segments FROM sessions WHERE id = ?'),
      upsert: s('INSERT INTO sessions(id, revision, title, messages, total, digest, segments) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET revision = excluded.revision, title = excluded.title, messages = excluded.messages, total = excluded.total, digest = excluded.digest, segments = excluded.segments RETURNING no'),
      segmentsOf: s('SELECT row FROM segments WHERE row >= ? AND row < ? ORDER BY row'),
      putSegment: s('INSERT OR REPLACE INTO segments(row, size) VALUES (?, ?)'),
      putTerms: s('INSERT INTO terms(rowid, body) VALUES (?, ?)'),
      dropTerms: s('DELETE FROM terms WHERE rowid = ?'),
      dropSegments: s('DELETE FROM segments WHERE row >= ? AND row < ?'),
      putText: s('INSERT OR REPLACE INTO texts(row, body) VALUES (?, ?)'),
      dropTexts: s('DELETE FROM texts WHERE row >= ? AND row < ?'),
      putPlace: s('INSERT INTO places(rowid, body) VALUES (?, ?)'),
      putInside: s('INSERT INTO inside(rowid, body) VALUES (?, ?)'),
      dropInside: s('DELETE FROM inside WHERE rowid = ?'),
      piecesOf: s('SELECT row FROM texts WHERE row >= ? AND row < ?'),
      dropPlace: s('DELETE FROM places WHERE rowid = ?'),
      dropSession: s('DELETE FROM sessions WHERE no = ?'),
      placed: s('SELECT placed FROM sessions WHERE no = ?'),
      setPlaced: s('UPDATE sessions SET placed = ? WHERE no = ?'),
      pieceCount: s('SELECT count(*) AS n FROM texts WHERE row >= ? AND row < ?'),
      putForm: s('INSERT OR IGNORE INTO forms(stem, word) VALUES (?, ?)'),
    }
  }

  /** Indexes a session's text, replacing what the file held of it: only its new messages are written when the earlier ones are unchanged. */
  set(id: string, entry: ContentEntry): void {
    this.write([[id, entry]])
  }

  /** Indexes some sessions' text as {@link set} does and forgets others (`null`), in one transaction: one for a batch of a build's logs costs some tenth less than one each. */
  write(changes: readonly (readonly [string, ContentEntry | null])[]): void {
    this.transaction(() => {
      for (const [id, entry] of changes) {
        if (entry === null) this.forget(id)
        else this.store(id, entry)
      }
    })
  }

  private store(id: string, entry: ContentEntry): void {
    const messages = entry.messages.length > MAX_MESSAGES ? entry.messages.slice(0, MAX_MESSAGES) : entry.messages
    const known = this.statements.session.get(id) as KnownSession | undefined
    const digest = digestOf(messages, known?.messages ?? 0)
    let appends = known !== undefined && known.messages <= messages.length && digest.prefix === known.digest && known.segments < MAX_SEGMENTS
    // A session written without `places` is written again whole, with them, once an append would take it past their threshold.
    let withPlaces = true
    if (appends && known !== undefined) {
      withPlaces = this.isPlaced(known.no)
      if (!withPlaces && this.heldPieces(known.no) + piecesOf(messages, known.messages) > PLACES_FROM) appends = false
    }
    if (!appends) withPlaces = piecesOf(messages, 0) > PLACES_FROM
    if (known !== undefined && !appends) this.dropSessionText(known.no)
    this.writeText(id, { ...entry, messages }, { offset: 0, known: appends ? known! : undefined, digest: digest.whole, withPlaces })
  }

  /** Adds a live session's new messages, when the file holds exactly the earlier ones the append names (their count and digest). `entry`: the new messages, with the title, count and revision now. Returns whether they were added; when not, the caller sends the whole text. */
  append(id: string, entry: ContentAppend): boolean {
    let added = false
    this.transaction(() => {
      const known = this.statements.session.get(id) as KnownSession | undefined
      if (known === undefined || known.messages !== entry.after.messages || known.digest !== entry.after.digest || known.segments >= MAX_SEGMENTS) return
      if (known.messages + entry.messages.length > MAX_MESSAGES) return
      const withPlaces = this.isPlaced(known.no)
      if (!withPlaces && this.heldPieces(known.no) + piecesOf(entry.messages, 0) > PLACES_FROM) return
      this.writeText(id, entry, { offset: known.messages, known, digest: entry.digest, withPlaces })
      added = true
    })
    return added
  }

  private isPlaced(no: number): boolean {
    return (this.statements.placed.get(no) as { placed: number } | undefined)?.placed !== 0
  }

  private heldPieces(no: number): number {
    return (this.statements.pieceCount.get(no * ROW_SPAN, (no + 1) * ROW_SPAN) as { n: number }).n
  }

  /** Writes a session's row and the messages the file does not hold yet. `entry`: messages from number `offset` on, with their origins. `known`: the session's row when its first messages stay, else `undefined` (the text is written from the first). `digest`: of every message the row stands for. `withPlaces`: whether its pieces are named in `places`. */
  private writeText(id: string, entry: ConversationText & { readonly revision: string | undefined }, at: { readonly offset: number; readonly known: KnownSession | undefined; readonly digest: string; readonly withPlaces: boolean }): void {
    const { offset, known, digest, withPlaces } = at
    const { messages } = entry
    const count = offset + messages.length
    const from = known?.messages ?? 0
    const added = from < count ? 1 : 0
    const segments = (known?.segments ?? 0) + added
    this.beforeWrite()
    const row = this.statements.upsert.get(id, entry.revision ?? null, entry.title ?? null, count, entry.total ?? null, digest, segments) as { no: number }
    this.ids.set(row.no, id)
    this.beforeWrite()
    this.statements.setPlaced.run(withPlaces ? 1 : 0, row.no)
    if (added === 0) return
    const rowid = row.no * SEGMENT_SPAN + segments - 1
    // Each term of the segment, with the number of the last piece that held it: one map for the whole segment tells a piece's repeats, its new words and its words seen in earlier pieces apart, so no set is made per piece.
    const lastPiece = new Map<string, number>()
    let piece: StoredPiece = [[], []]
    let pieceNo = 0
    // `places` names, of a word or a single character, the segment's first piece that holds it (what an excerpt is made from), and of a pair every piece that holds it (a run stands whole in one of them); `inside` names a piece's other words.
    let placed: string[] = []
    let later: string[] = []
    let pieceAt = from
    let chars = 0
    const visit = (term: string, kind: TermKind): void => {
      const seen = lastPiece.get(term)
      if (seen === pieceNo) return
      lastPiece.set(term, pieceNo)
      if (kind === 'pair' || seen === undefined) placed.push(term)
      else later.push(term)
    }
    const putPiece = (): void => {
      if (piece[0].length === 0) return
      this.beforeWrite()
      this.statements.putText.run(row.no * ROW_SPAN + pieceAt, pack(piece, TEXT_QUALITY))
      if (!withPlaces) return
      this.beforeWrite()
      this.statements.putPlace.run(row.no * ROW_SPAN + pieceAt, placed.join(' '))
      if (later.length === 0) return
      this.beforeWrite()
      this.statements.putInside.run(row.no * ROW_SPAN + pieceAt, later.join(' '))
    }
    for (let n = from; n < count; n += 1) {
      const message = messages[n - offset]!
      if (chars > 0 && chars + message.length > PIECE_CHARS) {
        putPiece()
        piece = [[], []]
        pieceNo += 1
        placed = []
        later = []
        pieceAt = n
        chars = 0
      }
      visitIndexTerms(message, visit)
      const origin = entry.origins?.[n - offset]
      piece[0].push(message)
      piece[1].push(origin === undefined ? null : [origin.seq, origin.time, origin.role])
      chars += message.length
    }
    putPiece()
    this.putForms(lastPiece.keys())
    this.beforeWrite()
    this.statements.putSegment.run(rowid, lastPiece.size)
    this.sizes.put(rowid, lastPiece.size)
    this.beforeWrite()
    this.statements.putTerms.run(rowid, [...lastPiece.keys()].join(' '))
  }

  /** Records, for each English word of a segment whose stem differs from it, that the stem has this form (a word once recorded stays: a form no text holds any more matches nothing). */
  private putForms(terms: Iterable<string>): void {
    for (const word of terms) {
      if (this.knownForms.has(word)) continue
      const stem = stemOf(word)
      if (stem === undefined || stem === word) continue
      if (this.knownForms.size >= MAX_KNOWN_FORMS) this.knownForms.clear()
      this.beforeWrite()
      this.statements.putForm.run(stem, word)
      this.knownForms.add(word)
    }
  }

  /** Forgets a session. */
  delete(id: string): boolean {
    let held = false
    this.transaction(() => {
      held = this.forget(id)
    })
    return held
  }

  private forget(id: string): boolean {
    const known = this.statements.session.get(id) as { no: number } | undefined
    if (known === undefined) return false
    this.dropSessionText(known.no)
    this.beforeWrite()
    this.statements.dropSession.run(known.no)
    this.ids.delete(known.no)
    return true
  }

  private dropSessionText(no: number): void {
    const rows = this.statements.segmentsOf.all(no * SEGMENT_SPAN, (no + 1) * SEGMENT_SPAN) as { row: number }[]
    for (const { row } of rows) {
      this.beforeWrite()
      this.statements.dropTerms.run(row)
    }
    this.beforeWrite()
    this.statements.dropSegments.run(no * SEGMENT_SPAN, (no + 1) * SEGMENT_SPAN)
    this.sizes.drop(no * SEGMENT_SPAN, (no + 1) * SEGMENT_SPAN)
    for (const { row } of this.statements.piecesOf.all(no * ROW_SPAN, (no + 1) * ROW_SPAN) as { row: number }[]) {
      this.beforeWrite()
      this.statements.dropPlace.run(row)
      this.beforeWrite()
      this.statements.dropInside.run(row)
    }
    this.beforeWrite()
    this.statements.dropTexts.run(no * ROW_SPAN, (no + 1) * ROW_SPAN)
  }

  private transaction(body: () => void): void {
    this.guarded(() => {
      this.beforeWrite()
      this.db.exec('BEGIN IMMEDIATE')
      try {
        body()
        this.beforeWrite()
        this.db.exec('COMMIT')
      } catch (error) {
        // Forms and segment lengths this transaction wrote are rolled back with it: forms are written again next time, lengths read again.
        this.knownForms.clear()
        this.sizes.forget()
        try {
          this.db.exec('ROLLBACK')
        } catch {
          // the transaction is already gone
        }
        throw error
      }
    })
  }

}
