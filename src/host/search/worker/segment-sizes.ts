/**
 * Each segment's length in distinct terms, kept in memory for ranking: a query looks thousands of them
 * up, which from the `segments` table cost some half a microsecond a row inside SQLite (at 20,000
 * sessions, 2 ms of a query that ranks 4,000 rows). Read once, kept current by this connection's own
 * writes, forgotten when a transaction rolls back, and read again when another connection has written
 * the file since (SQLite's `data_version`).
 * @module @wishp3/dsh-sessions/host/search/worker/segment-sizes
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite'

/** The lengths of one file's segments. */
export class SegmentSizes {
  private sizes: Map<number, number> | undefined
  /** The file's `data_version` when the lengths were read. */
  private version: number | undefined
  private readonly all: StatementSync
  private readonly dataVersion: StatementSync

  constructor(db: DatabaseSync) {
    this.all = db.prepare('SELECT row, size FROM segments')
    this.dataVersion = db.prepare('PRAGMA data_version')
  }

  /** The lengths as the file holds them now, for one query: a segment's length by its row, `undefined` for a row the file lacks. */
  current(): (row: number) => number | undefined {
    const version = (this.dataVersion.get() as { data_version: number }).data_version
    if (this.sizes === undefined || version !== this.version) {
      const sizes = new Map<number, number>()
      for (const { row, size } of this.all.all() as { row: number; size: number }[]) sizes.set(row, size)
      this.sizes = sizes
      this.version = version
    }
    const sizes = this.sizes
    return row => sizes.get(row)
  }

  /** This connection wrote a segment. */
  put(row: number, size: number): void {
    this.sizes?.set(row, size)
  }

  /** This connection dropped the segments of rows `from` to `to` (not included). */
  drop(from: number, to: number): void {
    for (let row = from; row < to; row += 1) this.sizes?.delete(row)
  }

  /** A transaction rolled back: the lengths are read again when next asked. */
  forget(): void {
    this.sizes = undefined
  }
}
